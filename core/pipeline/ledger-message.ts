/**
 * A ledger message (`docket.ledger-message/1`): what the sequence function sends on the FIFO ledger queue, the
 * requests of one intake batch behind an RFC 8785 header line naming each body's UTF-8 size — the layout and limits
 * are docs/adr/0497-a-ledger-message-carries-many-requests.md's. One serializer that validates before it emits, one
 * strict reader. A body that does not begin with the header's opening is one request's bytes (what a writer with
 * send access to the ledger queue may put there).
 */
import canonicalize from 'canonicalize';
import { readJson } from '../carrier/read-json.js';
import { toPlain } from '../carrier/plain.js';
import { err, ok, type Result } from '../result.js';
import { isWellFormed } from '../ledger/primitives/bytes.js';
import { isRec } from '../ledger/primitives/shape.js';

export const LEDGER_MESSAGE_FORMAT = 'docket.ledger-message/1';
/** A message's requests: at most a standard-queue event source's largest batch without a window (10) × 10. */
export const MAX_LEDGER_MESSAGE_REQUESTS = 100;
/** SQS's message size limit (body and attributes); a ledger message carries no attributes. */
export const MAX_LEDGER_MESSAGE_BYTES = 1_048_576;
/**
 * The size a message is filled to: ten of them (a FIFO batch) stay well under Lambda's 6 MB invocation payload. A
 * request larger than this still travels, in a message of its own.
 */
export const LEDGER_MESSAGE_FILL_BYTES = 262_144;

/** One request as the sequence function read it from the intake queue. */
export interface SequencedRequest {
  /** The intake message body, verbatim: its UTF-8 bytes are the request's exact bytes. */
  readonly body: string;
  /** The id of the message the requester sent to the intake queue (dead letters name it). */
  readonly intakeMessageId: string;
  /** The intake message's SentTimestamp (epoch ms, decimal), for request → entry latency (absent when unknown). */
  readonly intakeSentTimestamp?: string;
}

export interface LedgerMessageError {
  readonly code: 'ledger-message-invalid';
  readonly message: string;
}

const PREFIX = `{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[`;
/** SQS message ids are UUIDs; anything printable up to 128 characters is taken, nothing else. */
const MESSAGE_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;
const TIMESTAMP_PATTERN = /^(0|[1-9][0-9]{0,15})$/;
const enc = new TextEncoder();
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const invalid = (message: string): Result<never, LedgerMessageError> =>
  err({ code: 'ledger-message-invalid', message });

/** Whether a ledger queue body is in this format (else it is one request's bytes). */
export function isLedgerMessage(body: string): boolean {
  return body.startsWith(PREFIX);
}

/** The message's bytes (as the SQS body string), or why these requests cannot be one message. */
export function ledgerMessageBytes(requests: readonly SequencedRequest[]): Result<string, LedgerMessageError> {
  if (requests.length < 1 || requests.length > MAX_LEDGER_MESSAGE_REQUESTS)
    return invalid(`a ledger message carries 1 to ${MAX_LEDGER_MESSAGE_REQUESTS} requests`);
  const header = [];
  for (const [i, r] of requests.entries()) {
    if (!MESSAGE_ID_PATTERN.test(r.intakeMessageId))
      return invalid(`requests[${i}].intakeMessageId is not a message id`);
    if (r.intakeSentTimestamp !== undefined && !TIMESTAMP_PATTERN.test(r.intakeSentTimestamp))
      return invalid(`requests[${i}].intakeSentTimestamp is not epoch milliseconds`);
    if (!isWellFormed(r.body)) return invalid(`requests[${i}].body is not well-formed Unicode`);
    header.push({
      bytes: enc.encode(r.body).length,
      intakeMessageId: r.intakeMessageId,
      ...(r.intakeSentTimestamp !== undefined ? { intakeSentTimestamp: r.intakeSentTimestamp } : {}),
    });
  }
  const text = `${canonicalize({ format: LEDGER_MESSAGE_FORMAT, requests: header })!}\n${requests.map((r) => r.body).join('')}`;
  const size = enc.encode(text).length;
  if (size > MAX_LEDGER_MESSAGE_BYTES)
    return invalid(`a ledger message is at most ${MAX_LEDGER_MESSAGE_BYTES} bytes, these requests make ${size}`);
  return ok(text);
}

/** What is wrong with one header member, or undefined. */
function memberProblem(m: unknown, i: number): string | undefined {
  if (!isRec(m)) return `requests[${i}] is an object`;
  const names = Object.keys(m).sort().join(',');
  if (names !== 'bytes,intakeMessageId' && names !== 'bytes,intakeMessageId,intakeSentTimestamp')
    return `requests[${i}] has exactly bytes, intakeMessageId and optionally intakeSentTimestamp`;
  if (typeof m.bytes !== 'number' || !Number.isSafeInteger(m.bytes) || m.bytes < 0)
    return `requests[${i}].bytes is a byte count`;
  if (typeof m.intakeMessageId !== 'string' || !MESSAGE_ID_PATTERN.test(m.intakeMessageId))
    return `requests[${i}].intakeMessageId is not a message id`;
  if (
    m.intakeSentTimestamp !== undefined &&
    !(typeof m.intakeSentTimestamp === 'string' && TIMESTAMP_PATTERN.test(m.intakeSentTimestamp))
  )
    return `requests[${i}].intakeSentTimestamp is not epoch milliseconds`;
  return undefined;
}

/** Reads a message in this format strictly: size, header (carrier rules, members, canonical bytes), exact body fill. */
export function readLedgerMessage(body: string): Result<readonly SequencedRequest[], LedgerMessageError> {
  const bytes = enc.encode(body);
  if (bytes.length > MAX_LEDGER_MESSAGE_BYTES)
    return invalid(`a ledger message is at most ${MAX_LEDGER_MESSAGE_BYTES} bytes`);
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return invalid('a ledger message has a header line');
  const headerBytes = bytes.subarray(0, newline);
  const read = readJson(headerBytes);
  if (!read.ok) return invalid(`the header is not JSON: ${read.error.message}`);
  const header = toPlain(read.value);
  if (!isRec(header) || header.format !== LEDGER_MESSAGE_FORMAT)
    return invalid(`format must be ${LEDGER_MESSAGE_FORMAT}`);
  if (Object.keys(header).sort().join(',') !== 'format,requests')
    return invalid('the header has exactly format and requests');
  const members = header.requests;
  if (!Array.isArray(members) || members.length < 1 || members.length > MAX_LEDGER_MESSAGE_REQUESTS)
    return invalid(`requests is an array of 1 to ${MAX_LEDGER_MESSAGE_REQUESTS}`);
  for (const [i, m] of members.entries()) {
    const problem = memberProblem(m, i);
    if (problem !== undefined) return invalid(problem);
  }
  if (canonicalize(header) !== strict.decode(headerBytes)) return invalid('the header is not in RFC 8785 form');
  const out: SequencedRequest[] = [];
  let at = newline + 1;
  for (const [i, m] of (
    members as { bytes: number; intakeMessageId: string; intakeSentTimestamp?: string }[]
  ).entries()) {
    if (at + m.bytes > bytes.length) return invalid(`requests[${i}] runs past the end of the message`);
    let text: string;
    try {
      text = strict.decode(bytes.subarray(at, at + m.bytes));
    } catch {
      return invalid(`requests[${i}] does not end on a character boundary`);
    }
    out.push({
      body: text,
      intakeMessageId: m.intakeMessageId,
      ...(m.intakeSentTimestamp !== undefined ? { intakeSentTimestamp: m.intakeSentTimestamp } : {}),
    });
    at += m.bytes;
  }
  if (at !== bytes.length) return invalid(`${bytes.length - at} bytes follow the last request`);
  return ok(out);
}

/**
 * The requests as messages: in order, each message filled while it stays within LEDGER_MESSAGE_FILL_BYTES and
 * MAX_LEDGER_MESSAGE_REQUESTS (a request larger than the fill goes alone). Answers, per message, the indexes of the
 * requests it carries, with its bytes or why it cannot be sent (a request too large for any message).
 */
export function packLedgerMessages(
  requests: readonly SequencedRequest[],
): { readonly indexes: readonly number[]; readonly bytes: Result<string, LedgerMessageError> }[] {
  const out: { indexes: number[]; bytes: Result<string, LedgerMessageError> }[] = [];
  let open: { indexes: number[]; size: number } | undefined;
  const close = (): void => {
    if (open === undefined) return;
    out.push({ indexes: open.indexes, bytes: ledgerMessageBytes(open.indexes.map((i) => requests[i]!)) });
    open = undefined;
  };
  for (const [i, r] of requests.entries()) {
    // Header share: `{"bytes":…,"intakeMessageId":"…","intakeSentTimestamp":"…"},` is at most ~200 bytes.
    const size = enc.encode(r.body).length + 200;
    if (
      open !== undefined &&
      (open.size + size > LEDGER_MESSAGE_FILL_BYTES || open.indexes.length === MAX_LEDGER_MESSAGE_REQUESTS)
    )
      close();
    open ??= { indexes: [], size: PREFIX.length };
    open.indexes.push(i);
    open.size += size;
  }
  close();
  return out;
}
