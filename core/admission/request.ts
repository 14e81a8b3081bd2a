/**
 * Reads an evaluation request strictly (docs/adr/0070-request-format-and-exact-slices.md): the strict carrier
 * first (Core §2.1 — duplicate members, bad UTF-8, trailing data are refused), then the closed version-1 shape.
 * The facts and evidence documents are returned as the exact byte slices the requester wrote, so their digests and
 * their evaluation see the same bytes.
 *
 * A refusal keeps the request id when one could be read, because an identified request is recorded in the ledger
 * (an admission-refusal entry) while an unidentified one can only go to the DLQ (docs/adr/0071-unidentified-requests-go-to-the-dlq.md).
 */
import { readJson } from '../carrier/read-json.js';
import type { JsonObject, JsonValue } from '../carrier/json-value.js';
import { err, ok, type Result } from '../result.js';
import { utf8ByteLength, type CarrierError } from '../carrier/index.js';
import { documentSlices } from './document-slices.js';
import { topLevelMemberSpans } from '../carrier/member-spans.js';
import {
  CORRELATION_NAME_PATTERN,
  MAX_CORRELATION_MEMBERS,
  MAX_CORRELATION_VALUE_BYTES,
  MAX_REQUEST_BYTES,
  PACK_ALIAS_PATTERN,
  PACK_DIGEST_PATTERN,
  REQUEST_FORMAT,
  REQUEST_ID_PATTERN,
  REQUEST_MEMBERS,
} from './request-format.js';

export type PackRef =
  { readonly kind: 'digest'; readonly digest: string } | { readonly kind: 'alias'; readonly alias: string };

export interface EvaluationRequest {
  readonly requestId: string;
  readonly pack: PackRef;
  /** Exact bytes of the `facts` member value. */
  readonly facts: Uint8Array;
  /** Exact bytes of the `evidence` member value, when present. */
  readonly evidence?: Uint8Array;
  readonly workBudget?: number;
  readonly correlation?: Readonly<Record<string, string>>;
}

/** Stable refusal codes of the request reader. */
export type RequestErrorCode =
  | 'request-too-large'
  | 'request-not-json'
  | 'request-not-object'
  | 'request-format-unsupported'
  | 'request-id-invalid'
  | 'request-member-unknown'
  | 'request-pack-invalid'
  | 'request-graph-invalid'
  | 'request-facts-missing'
  | 'request-work-budget-invalid'
  | 'request-correlation-invalid';

export interface RequestError {
  readonly code: RequestErrorCode;
  readonly message: string;
  /** Present when the request id could be read and is valid: the refusal can then be recorded in the ledger. */
  readonly requestId?: string;
}

/** Reads one request message body (its exact bytes). */
export function readRequest(bytes: Uint8Array): Result<EvaluationRequest, RequestError> {
  // Lone surrogates are admitted at this layer so that a facts document for a 0.2.0-draft pack reaches the
  // evaluator, which reads it under the pack's own carrier (Core §11); our own members are ASCII-bounded below.
  const parsed = readJson(bytes, { allowLoneSurrogates: true });
  if (!parsed.ok) return readAroundDocuments(bytes, parsed.error);
  const root = parsed.value;
  if (root.kind !== 'object') return refuse('request-not-object', 'the request must be a JSON object');
  if (bytes.length > MAX_REQUEST_BYTES) return tooLarge(bytes, root.members);
  const spans = topLevelMemberSpans(bytes);
  const slice = (name: string) => {
    const s = spans.get(name);
    return s === undefined ? undefined : bytes.slice(s.start, s.end);
  };
  return readMembers(root, { facts: slice('facts'), evidence: slice('evidence') });
}

/**
 * A request the strict carrier refused may still have a well-formed envelope around a facts or evidence document
 * that is not a strict JSON text (duplicate names, a lone surrogate, a limit, a syntax error inside the document):
 * then the request is read with those documents as raw slices, and the evaluator answers them with the same
 * `malformed-input` error `docket evaluate` gives for those bytes (docs/adr/0176-malformed-documents-are-recorded.md).
 * Anything wrong outside the two documents keeps the request unreadable (`request-not-json`).
 */
function readAroundDocuments(bytes: Uint8Array, strictError: CarrierError): Result<EvaluationRequest, RequestError> {
  const notJson = () =>
    refuse(
      'request-not-json',
      `the request is not a strict JSON text (§2.1): ${strictError.code}: ${strictError.message}`,
    );
  const cut = documentSlices(bytes);
  if (cut === null) return notJson();
  const envelope = readJson(cut.envelope, { allowLoneSurrogates: true });
  if (!envelope.ok || envelope.value.kind !== 'object') return notJson();
  if (bytes.length > MAX_REQUEST_BYTES) return tooLarge(bytes, envelope.value.members);
  return readMembers(envelope.value, {
    facts: cut.documents.get('facts')?.slice(),
    evidence: cut.documents.get('evidence')?.slice(),
  });
}

function readMembers(
  root: JsonObject,
  documents: { readonly facts: Uint8Array | undefined; readonly evidence: Uint8Array | undefined },
): Result<EvaluationRequest, RequestError> {
  const m = root.members;
  const head = readHead(m, REQUEST_FORMAT, REQUEST_MEMBERS);
  if (!head.ok) return head;
  const requestId = head.value;
  const pack = readRef(m.get('pack'));
  if (pack === undefined)
    return refuse('request-pack-invalid', 'pack must be "sha256:<64 lowercase hex>" or "<id>@<version>"', requestId);
  if (!m.has('facts')) return refuse('request-facts-missing', 'the request must carry a facts document', requestId);
  const options = readOptions(m, requestId);
  if (!options.ok) return options;
  return ok({
    requestId,
    pack,
    facts: documents.facts!,
    ...(documents.evidence ? { evidence: documents.evidence } : {}),
    ...options.value,
  });
}

/** The request id when the members hold a valid one: a refusal then keeps it (docs/adr/0071). */
export function readRequestId(m: ReadonlyMap<string, JsonValue>): string | undefined {
  const id = m.get('requestId');
  return id?.kind === 'string' && REQUEST_ID_PATTERN.test(id.value) ? id.value : undefined;
}

/**
 * Too large to retain for replay (docs/pipeline.md "Size limit"), yet small enough to read (SQS caps a message at
 * 1 MiB): refused under its own id so the refusal is accounted for in the ledger.
 */
export function tooLarge(bytes: Uint8Array, m: ReadonlyMap<string, JsonValue>): Result<never, RequestError> {
  const message = `the request is ${bytes.length} bytes; the limit is ${MAX_REQUEST_BYTES}`;
  return refuse('request-too-large', message, readRequestId(m));
}

/** The checks both request formats begin with, in order: the format selector, the request id, the closed members. */
export function readHead(
  m: ReadonlyMap<string, JsonValue>,
  format: string,
  members: readonly string[],
): Result<string, RequestError> {
  const requestId = readRequestId(m);
  const f = m.get('format');
  if (f?.kind !== 'string' || f.value !== format)
    return refuse('request-format-unsupported', `the request must carry "format": "${format}"`, requestId);
  if (requestId === undefined)
    return refuse('request-id-invalid', `requestId must be a string matching ${REQUEST_ID_PATTERN.source}`);
  for (const name of m.keys())
    if (!members.includes(name))
      return refuse('request-member-unknown', `unknown request member ${JSON.stringify(name)}`, requestId);
  return ok(requestId);
}

/** A pack or graph reference: "sha256:<64 lowercase hex>" or "<id>@<version>". */
export function readRef(v: JsonValue | undefined): PackRef | undefined {
  if (v?.kind !== 'string') return undefined;
  if (PACK_DIGEST_PATTERN.test(v.value)) return { kind: 'digest', digest: v.value };
  if (PACK_ALIAS_PATTERN.test(v.value) && !v.value.startsWith('sha256:')) return { kind: 'alias', alias: v.value };
  return undefined;
}

/** The optional members both request formats end with: workBudget, then correlation. */
export function readOptions(
  m: ReadonlyMap<string, JsonValue>,
  requestId: string,
): Result<{ workBudget?: number; correlation?: Record<string, string> }, RequestError> {
  const budget = m.get('workBudget');
  let workBudget: number | undefined;
  if (budget !== undefined) {
    // The range is admission's to judge (work-budget-out-of-range); here only "an integer".
    if (
      budget.kind !== 'number' ||
      !/^-?(0|[1-9][0-9]{0,15})$/.test(budget.lexeme) ||
      !Number.isSafeInteger(Number(budget.lexeme))
    )
      return refuse('request-work-budget-invalid', 'workBudget must be an integer', requestId);
    workBudget = Number(budget.lexeme);
  }
  const corr = m.get('correlation');
  const correlation = corr === undefined ? undefined : readCorrelation(corr);
  if (typeof correlation === 'string') return refuse('request-correlation-invalid', correlation, requestId);
  return ok({
    ...(workBudget !== undefined ? { workBudget } : {}),
    ...(correlation !== undefined ? { correlation } : {}),
  });
}

function readCorrelation(v: JsonValue): Record<string, string> | string {
  if (v.kind !== 'object') return 'correlation must be an object of strings';
  if (v.members.size > MAX_CORRELATION_MEMBERS) return `correlation holds at most ${MAX_CORRELATION_MEMBERS} members`;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of v.members) {
    if (!CORRELATION_NAME_PATTERN.test(name))
      return `correlation member names must match ${CORRELATION_NAME_PATTERN.source}`;
    if (value.kind !== 'string') return `correlation.${name} must be a string`;
    if (utf8ByteLength(value.value) > MAX_CORRELATION_VALUE_BYTES)
      return `correlation.${name} exceeds ${MAX_CORRELATION_VALUE_BYTES} bytes`;
    // In a `u` regex a paired surrogate is one code point, so this matches lone surrogates only.
    if (/[\ud800-\udfff]/u.test(value.value)) return `correlation.${name} holds a lone surrogate`;
    out[name] = value.value;
  }
  return out;
}

export function refuse(code: RequestErrorCode, message: string, requestId?: string): Result<never, RequestError> {
  return err(requestId === undefined ? { code, message } : { code, message, requestId });
}
