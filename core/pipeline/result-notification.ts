/**
 * The result notification, format docket.result/2 (schema/result-notification.schema.json; docs/pipeline.md
 * "Result notifications", which says what it carries; docs/adr/0290-verifiable-result-notifications.md): one builder
 * that checks every invariant before it emits RFC 8785 bytes, and one strict reader. It carries the signed entry's
 * exact bytes, or only their coordinates (`entryOmitted`) when they would not fit an SNS message, never cut; its id is
 * the entry hash. Its SNS message attributes are unsigned routing hints, never evidence.
 */
import canonicalize from 'canonicalize';
import { readJson } from '../carrier/read-json.js';
import { toPlain } from '../carrier/plain.js';
import { entryHashOf, parseStoredEntry, type ParsedEntry } from '../ledger/entries/entry.js';
import { LOG_ID_PATTERN } from '../ledger/entries/entry-rules.js';
import type { SignedEntry } from '../ledger/entries/entry-types.js';
import { isWellFormed } from '../ledger/primitives/bytes.js';
import { isRec } from '../ledger/primitives/shape.js';
import { err, ok, type Result } from '../result.js';
import type { CheckedEntry, LedgerCoordinates } from './handoff-message.js';

export const RESULT_FORMAT = 'docket.result/2' as const;
/** The format before ADR 0290: unsigned copies of the entry's members. Refused by this reader (unsupported-format). */
export const RESULT_FORMAT_V1 = 'docket.result/1';
const RESULT_FORMAT_PREFIX = 'docket.result/';
/** The notification's text as the reader compares it (no BOM stripping: the bytes are compared exactly). */
const TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * SNS's largest message is 262,144 bytes, body and message attributes together. The attributes take at most
 * RESULT_ATTRIBUTE_BUDGET (nine names of ≤ 16 bytes, the type "String", values ≤ 256 bytes); the body gets the rest.
 */
export const SNS_MAX_MESSAGE_BYTES = 262_144;
export const RESULT_ATTRIBUTE_BUDGET = 4_096;
export const RESULT_MAX_BYTES = SNS_MAX_MESSAGE_BYTES - RESULT_ATTRIBUTE_BUDGET;
/** The longest attribute value published (UTF-8 bytes); a longer value is left out, never truncated. */
export const ATTRIBUTE_VALUE_MAX_BYTES = 256;

/** The filter-policy attributes, in the order they are documented. At most 10: SQS's limit for raw delivery. */
export const RESULT_ATTRIBUTE_NAMES = [
  'kind',
  'dispositionKind',
  'outcomeId',
  'packId',
  'packDigest',
  'logId',
  'requestId',
  'errorClass',
  'refusalCode',
] as const;
export type ResultAttributeName = (typeof RESULT_ATTRIBUTE_NAMES)[number];

/** The members of a docket.result/2 notification on the wire: the entry's bytes, or its coordinates when omitted. */
export type ResultWire =
  | { readonly format: typeof RESULT_FORMAT; readonly notificationId: string; readonly entry: string }
  | {
      readonly format: typeof RESULT_FORMAT;
      readonly notificationId: string;
      readonly entryOmitted: true;
      readonly ledger: LedgerCoordinates;
    };

/** A docket.result/2 notification as read. */
export interface ResultNotification {
  readonly format: typeof RESULT_FORMAT;
  /** The entry hash (recomputed from the carried bytes when they are carried). */
  readonly notificationId: string;
  readonly ledger: LedgerCoordinates;
  /**
   * The parsed entry and its exact text (signature not yet checked: that needs the trust policy), or null when the
   * entry was too large for one message and must be fetched at `ledger`.
   */
  readonly entry: (ParsedEntry & { readonly body: string }) | null;
}

export interface ResultMessage {
  readonly id: string;
  /** RFC 8785 text of the notification. */
  readonly body: string;
  /** SNS String message attributes (filter policies). */
  readonly attributes: Readonly<Partial<Record<ResultAttributeName, string>>>;
}

export class ResultInvariantError extends Error {
  readonly code = 'result-invariant';
}

/**
 * The one serializer: the notification of one recorded entry, checked by the strict reader's own rules before its
 * bytes are emitted. Throws ResultInvariantError (a caller bug: the entry was read or built strictly).
 */
export function resultNotificationFor(recorded: CheckedEntry): ResultMessage {
  if (entryHashOf(recorded.body) !== recorded.entryHash)
    throw new ResultInvariantError('the entry hash is not the hash of the entry bytes');
  const e = recorded.entry;
  let wire: ResultWire = { format: RESULT_FORMAT, notificationId: recorded.entryHash, entry: recorded.body };
  let body = canonicalize(wire) as string;
  if (Buffer.byteLength(body, 'utf8') > RESULT_MAX_BYTES) {
    wire = {
      format: RESULT_FORMAT,
      notificationId: recorded.entryHash,
      entryOmitted: true,
      ledger: { logId: e.logId, seq: e.seq, entryHash: recorded.entryHash },
    };
    body = canonicalize(wire) as string;
  }
  const read = readResultNotification(new TextEncoder().encode(body));
  if (!read.ok) throw new ResultInvariantError(`${read.error.code}: ${read.error.message}`);
  if (read.value.entry !== null && read.value.entry.entry.requestId !== e.requestId)
    throw new ResultInvariantError('the entry bytes are not the recorded entry');
  return { id: recorded.entryHash, body, attributes: notificationAttributes(e) };
}

/**
 * The filter-policy attributes of an entry. SNS refuses an empty String attribute and a filter policy matches whole
 * values, so a value is published only when it is present, non-empty, at most ATTRIBUTE_VALUE_MAX_BYTES and free of
 * control characters; otherwise the attribute is absent (a pack id or outcome id chosen to be hostile never breaks a
 * publish, and is never published cut short to match another's filter). Derived from the whole entry, so an omitted
 * entry still filters by its kind and outcome.
 */
export function notificationAttributes(e: SignedEntry): Partial<Record<ResultAttributeName, string>> {
  const out: Partial<Record<ResultAttributeName, string>> = {};
  const put = (name: ResultAttributeName, v: string | undefined): void => {
    if (v === undefined || v === '' || Buffer.byteLength(v, 'utf8') > ATTRIBUTE_VALUE_MAX_BYTES) return;
    // eslint-disable-next-line no-control-regex -- the check is for control characters
    if (/[\u0000-\u001f\u007f]/.test(v) || !isWellFormed(v)) return;
    out[name] = v;
  };
  // A graph run's headline (B6: the result leaf's disposition) filters as a disposition does (ADR 0361).
  const d = e.kind === 'disposition' ? e.disposition : e.kind === 'graph-run' ? graphHeadline(e.run) : undefined;
  put('kind', e.kind);
  put('dispositionKind', d?.kind);
  put('outcomeId', d?.kind === 'outcome' ? d.outcomeId : undefined);
  put('packId', e.pack?.id);
  put('packDigest', e.pack ? `sha256:${e.pack.digest}` : undefined);
  put('logId', e.logId);
  put('requestId', e.requestId);
  put('errorClass', e.kind === 'evaluation-error' ? e.error.class : undefined);
  put('refusalCode', e.kind === 'admission-refusal' ? e.refusal.code : undefined);
  return out;
}

/** The headline disposition of a recorded run text (format "1": the result node's), or undefined when refused. */
function graphHeadline(run: string): { kind?: string; outcomeId?: string } | undefined {
  const v = JSON.parse(run) as {
    status?: unknown;
    headline?: { disposition?: { kind?: string; outcomeId?: string } };
    disposition?: { kind?: string; outcomeId?: string };
  };
  if (v.status !== 'evaluated') return undefined;
  const d = v.headline?.disposition ?? v.disposition;
  return typeof d?.kind === 'string' ? d : undefined;
}

export type ResultReadCode = 'notification-malformed' | 'unsupported-format' | 'entry-malformed';
export interface ResultReadError {
  readonly code: ResultReadCode;
  readonly message: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const fail = (code: ResultReadCode, message: string): Result<never, ResultReadError> => err({ code, message });

/** Reads a notification strictly: carrier, format, members, canonical bytes, the entry, the id. */
export function readResultNotification(bytes: Uint8Array): Result<ResultNotification, ResultReadError> {
  if (bytes.length > RESULT_MAX_BYTES) return fail('notification-malformed', `over ${RESULT_MAX_BYTES} bytes`);
  const r = readJson(bytes);
  if (!r.ok) return fail('notification-malformed', `not JSON: ${r.error.message}`);
  const plain = toPlain(r.value);
  if (!isRec(plain)) return fail('notification-malformed', 'a result notification is a JSON object');
  if (plain.format !== RESULT_FORMAT) {
    if (typeof plain.format === 'string' && plain.format.startsWith(RESULT_FORMAT_PREFIX))
      return fail(
        'unsupported-format',
        `format ${plain.format} is not ${RESULT_FORMAT}` +
          (plain.format === RESULT_FORMAT_V1 ? ': it carries no signed entry, so it cannot be verified' : ''),
      );
    return fail('notification-malformed', `format must be ${RESULT_FORMAT}`);
  }
  const problem = wireProblem(plain);
  if (problem !== undefined) return fail('notification-malformed', problem);
  if (canonicalize(plain) !== TEXT.decode(bytes))
    return fail('notification-malformed', 'the bytes are not the RFC 8785 form of what they parse to');
  const wire = plain as unknown as ResultWire;
  if ('entryOmitted' in wire)
    return ok({ format: RESULT_FORMAT, notificationId: wire.notificationId, ledger: wire.ledger, entry: null });
  const parsed = parseStoredEntry(wire.entry);
  if (!parsed.ok) return fail('entry-malformed', `${parsed.error.code}: ${parsed.error.detail}`);
  if (parsed.value.entryHash !== wire.notificationId)
    return fail('notification-malformed', 'notificationId is not the hash of the carried entry');
  const e = parsed.value.entry;
  return ok({
    format: RESULT_FORMAT,
    notificationId: wire.notificationId,
    ledger: { logId: e.logId, seq: e.seq, entryHash: parsed.value.entryHash },
    entry: { ...parsed.value, body: wire.entry },
  });
}

/** The first broken rule of the wire members, or undefined. */
function wireProblem(m: Record<string, unknown>): string | undefined {
  const names = Object.keys(m).sort().join(',');
  if (typeof m.notificationId !== 'string' || !HEX64.test(m.notificationId))
    return 'notificationId is the entry hash (64 lowercase hex digits)';
  if (names === 'entry,format,notificationId')
    return typeof m.entry === 'string' && m.entry !== '' ? undefined : 'entry is the entry text (a non-empty string)';
  if (names !== 'entryOmitted,format,ledger,notificationId')
    return 'a notification has format, notificationId and entry, or format, notificationId, entryOmitted and ledger';
  if (m.entryOmitted !== true) return 'entryOmitted is true when present';
  const l = m.ledger;
  if (!isRec(l) || Object.keys(l).sort().join(',') !== 'entryHash,logId,seq')
    return 'ledger has exactly logId, seq and entryHash';
  if (typeof l.logId !== 'string' || !LOG_ID_PATTERN.test(l.logId)) return 'ledger.logId is a log id';
  if (typeof l.seq !== 'number' || !Number.isSafeInteger(l.seq) || l.seq < 0)
    return 'ledger.seq is a non-negative integer';
  if (l.entryHash !== m.notificationId) return 'notificationId is ledger.entryHash';
  return undefined;
}
