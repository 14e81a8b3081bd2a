/**
 * The result notification, format docket.result/1 (schema/result-notification.schema.json; docs/pipeline.md
 * "Result notifications"; docs/adr/0170-result-notification-format.md): what the results topic publishes for every
 * appended ledger entry — a disposition, an evaluation error or an admission refusal. One builder that checks every
 * invariant before it emits RFC 8785 bytes, and one strict reader.
 *
 * The notification id is the entry hash, so a request that is redelivered re-publishes the same id and consumers
 * deduplicate on it. The members are copies of the signed entry, not signed themselves: a consumer that must prove
 * the decision reads the entry (`docket show`) and verifies it; the notification says where to look.
 *
 * SNS message attributes (for subscription filter policies) are derived here too, from the same entry: only present,
 * non-empty values that SNS and a filter policy can carry unchanged (notificationAttributes).
 */
import canonicalize from 'canonicalize';
import { readJson } from '../carrier/read-json.js';
import { toPlain } from '../carrier/plain.js';
import { checkDisposition } from '../evaluate/disposition.js';
import { EVALUATION_ERROR_CLASSES, type Disposition } from '../evaluate/types.js';
import { sha256Hex } from '../ledger/bytes.js';
import { entryHashOf } from '../ledger/entry.js';
import { LOG_ID_PATTERN, isRfc3339Utc } from '../ledger/entry-rules.js';
import {
  ENTRY_KINDS,
  REFUSAL_CODES,
  type EntryError,
  type EntryKind,
  type EntryRefusal,
  type PackRef,
  type SignedEntry,
} from '../ledger/entry-types.js';
import { err, ok, type Result } from '../result.js';

export const RESULT_FORMAT = 'docket.result/1' as const;
const RESULT_FORMAT_PREFIX = 'docket.result/';

/**
 * SNS's largest message is 262,144 bytes, body and message attributes together. The attributes take at most
 * RESULT_ATTRIBUTE_BUDGET (nine names of ≤ 16 bytes, the type "String", values ≤ 256 bytes); the body gets the rest.
 * A disposition that would not fit is left out (`dispositionOmitted`), never cut: read it from the ledger.
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

export interface ResultLedgerCoordinates {
  readonly logId: string;
  readonly seq: number;
  /** The entry hash (hex): also the notification id. */
  readonly entryHash: string;
}

/** A docket.result/1 notification as read (and as written, before its bytes). */
export interface ResultNotification {
  readonly format: typeof RESULT_FORMAT;
  readonly notificationId: string;
  readonly kind: EntryKind;
  readonly ledger: ResultLedgerCoordinates;
  readonly requestId: string;
  readonly requestDigest: string;
  readonly correlation: Readonly<Record<string, string>> | null;
  readonly time: string;
  readonly pack: PackRef | null;
  readonly workBudget: number | null;
  readonly work: number;
  /** kind disposition: the §8.3 disposition, or absent with dispositionOmitted when it would not fit one message. */
  readonly disposition?: Disposition;
  readonly dispositionDigest?: string;
  readonly dispositionOmitted?: true;
  /** kind evaluation-error. */
  readonly error?: EntryError;
  /** kind admission-refusal. */
  readonly refusal?: EntryRefusal;
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

/** An entry as the ledger writer recorded it: its exact stored bytes and their hash. */
export interface RecordedResultEntry {
  readonly entry: SignedEntry;
  readonly body: string;
  readonly entryHash: string;
}

/**
 * The one serializer: the notification of one recorded entry, checked by the strict reader's own rules before its
 * bytes are emitted. Throws ResultInvariantError (a caller bug: the entry was read or built strictly).
 */
export function resultNotificationFor(recorded: RecordedResultEntry): ResultMessage {
  if (entryHashOf(recorded.body) !== recorded.entryHash)
    throw new ResultInvariantError('the entry hash is not the hash of the entry bytes');
  const e = recorded.entry;
  const common = {
    format: RESULT_FORMAT as typeof RESULT_FORMAT,
    notificationId: recorded.entryHash,
    kind: e.kind,
    ledger: { logId: e.logId, seq: e.seq, entryHash: recorded.entryHash },
    requestId: e.requestId,
    requestDigest: e.requestDigest,
    correlation: e.correlation,
    time: e.time,
    pack: e.pack,
    workBudget: e.workBudget,
    work: e.work,
  };
  let n: ResultNotification;
  if (e.kind === 'disposition') n = { ...common, disposition: e.disposition, dispositionDigest: e.dispositionDigest };
  else if (e.kind === 'evaluation-error') n = { ...common, error: e.error };
  else n = { ...common, refusal: e.refusal };
  // From the whole entry, before a disposition too large for the body is left out: its kind still filters.
  const attributes = notificationAttributes(n);
  let body = canonicalize(n) as string;
  if (e.kind === 'disposition' && Buffer.byteLength(body, 'utf8') > RESULT_MAX_BYTES) {
    const { disposition: _omitted, ...rest } = n;
    n = { ...rest, dispositionOmitted: true };
    body = canonicalize(n) as string;
  }
  const problem = notificationProblem(JSON.parse(body) as Record<string, unknown>);
  if (problem !== undefined) throw new ResultInvariantError(problem);
  if (Buffer.byteLength(body, 'utf8') > RESULT_MAX_BYTES)
    throw new ResultInvariantError(`the notification exceeds ${RESULT_MAX_BYTES} bytes`);
  return { id: recorded.entryHash, body, attributes };
}

/**
 * The filter-policy attributes of a notification. SNS refuses an empty String attribute and a filter policy matches
 * whole values, so a value is published only when it is present, non-empty, at most ATTRIBUTE_VALUE_MAX_BYTES and
 * free of control characters; otherwise the attribute is absent (a pack id or outcome id chosen to be hostile never
 * breaks a publish, and is never published cut short to match another's filter).
 */
export function notificationAttributes(
  n: Pick<ResultNotification, 'kind' | 'disposition' | 'pack' | 'ledger' | 'requestId' | 'error' | 'refusal'>,
): Partial<Record<ResultAttributeName, string>> {
  const out: Partial<Record<ResultAttributeName, string>> = {};
  const put = (name: ResultAttributeName, v: string | undefined): void => {
    if (v === undefined || v === '' || Buffer.byteLength(v, 'utf8') > ATTRIBUTE_VALUE_MAX_BYTES) return;
    // eslint-disable-next-line no-control-regex -- the check is for control characters
    if (/[\u0000-\u001f\u007f]/.test(v) || !wellFormed(v)) return;
    out[name] = v;
  };
  put('kind', n.kind);
  put('dispositionKind', n.disposition?.kind);
  put('outcomeId', n.disposition?.kind === 'outcome' ? n.disposition.outcomeId : undefined);
  put('packId', n.pack?.id);
  put('packDigest', n.pack ? `sha256:${n.pack.digest}` : undefined);
  put('logId', n.ledger.logId);
  put('requestId', n.requestId);
  put('errorClass', n.error?.class);
  put('refusalCode', n.refusal?.code);
  return out;
}

export type ResultReadCode = 'notification-malformed' | 'unsupported-format';
export interface ResultReadError {
  readonly code: ResultReadCode;
  readonly message: string;
}

/** Reads a notification strictly: carrier, format, members, canonical bytes, every invariant. */
export function readResultNotification(bytes: Uint8Array): Result<ResultNotification, ResultReadError> {
  const fail = (code: ResultReadCode, message: string) => err({ code, message });
  const r = readJson(bytes);
  if (!r.ok) return fail('notification-malformed', `not JSON: ${r.error.message}`);
  const plain = toPlain(r.value);
  if (!isRec(plain)) return fail('notification-malformed', 'a result notification is a JSON object');
  if (plain.format !== RESULT_FORMAT) {
    if (typeof plain.format === 'string' && plain.format.startsWith(RESULT_FORMAT_PREFIX))
      return fail('unsupported-format', `format ${plain.format} is not ${RESULT_FORMAT}`);
    return fail('notification-malformed', `format must be ${RESULT_FORMAT}`);
  }
  const problem = notificationProblem(plain);
  if (problem !== undefined) return fail('notification-malformed', problem);
  if (canonicalize(plain) !== Buffer.from(bytes).toString('utf8'))
    return fail('notification-malformed', 'the bytes are not the RFC 8785 form of what they parse to');
  return ok(plain as unknown as ResultNotification);
}

const COMMON = [
  'format',
  'notificationId',
  'kind',
  'ledger',
  'requestId',
  'requestDigest',
  'correlation',
  'time',
  'pack',
  'workBudget',
  'work',
];
const BY_KIND: Record<EntryKind, readonly string[]> = {
  disposition: ['disposition', 'dispositionDigest', 'dispositionOmitted'],
  'evaluation-error': ['error'],
  'admission-refusal': ['refusal'],
};
const HEX64 = /^[0-9a-f]{64}$/;
const CORRELATION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const isRec = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const isText = (x: unknown, maxBytes: number): x is string =>
  typeof x === 'string' && x !== '' && wellFormed(x) && Buffer.byteLength(x, 'utf8') <= maxBytes;
/** No lone surrogate (String.prototype.isWellFormed is newer than the ES2022 library this project targets). */
const wellFormed = (s: string): boolean =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** The first broken rule of a parsed notification, or undefined. Shared by the serializer and the reader. */
function notificationProblem(m: Record<string, unknown>): string | undefined {
  if (typeof m.kind !== 'string' || !(ENTRY_KINDS as readonly string[]).includes(m.kind))
    return `kind is one of ${ENTRY_KINDS.join(', ')}`;
  const kind = m.kind as EntryKind;
  const allowed = new Set([...COMMON, ...BY_KIND[kind]]);
  for (const k of Object.keys(m)) if (!allowed.has(k)) return `unknown member ${k} for kind ${kind}`;
  for (const k of COMMON) if (!(k in m)) return `missing member ${k}`;
  if (typeof m.notificationId !== 'string' || !HEX64.test(m.notificationId))
    return 'notificationId is the entry hash (64 lowercase hex digits)';
  const l = m.ledger;
  if (!isRec(l) || Object.keys(l).sort().join(',') !== 'entryHash,logId,seq')
    return 'ledger has exactly logId, seq and entryHash';
  if (typeof l.logId !== 'string' || !LOG_ID_PATTERN.test(l.logId)) return 'ledger.logId is a log id';
  if (!isCount(l.seq)) return 'ledger.seq is a non-negative integer';
  if (l.entryHash !== m.notificationId) return 'notificationId is ledger.entryHash';
  if (!isText(m.requestId, 256)) return 'requestId is a non-empty string of at most 256 bytes';
  if (typeof m.requestDigest !== 'string' || !HEX64.test(m.requestDigest)) return 'requestDigest is 64 hex digits';
  if (m.correlation !== null) {
    const c = m.correlation;
    if (!isRec(c) || Object.keys(c).length > 16) return 'correlation is null or an object of at most 16 members';
    for (const [k, v] of Object.entries(c))
      if (!CORRELATION_NAME.test(k) || typeof v !== 'string' || Buffer.byteLength(v, 'utf8') > 256)
        return `correlation member ${JSON.stringify(k)} is a name with a string value of at most 256 bytes`;
  }
  if (!isRfc3339Utc(m.time)) return 'time is an RFC 3339 UTC time';
  if (m.pack !== null) {
    const p = m.pack;
    if (!isRec(p) || typeof p.digest !== 'string' || !HEX64.test(p.digest)) return 'pack is null or has a hex digest';
    for (const k of Object.keys(p)) if (k !== 'digest' && k !== 'id' && k !== 'version') return `unknown pack.${k}`;
    if (p.id !== undefined && !isText(p.id, 256)) return 'pack.id is a non-empty string';
    if (p.version !== undefined && !isText(p.version, 64)) return 'pack.version is a non-empty string';
  }
  if (m.workBudget !== null && !(isCount(m.workBudget) && m.workBudget > 0))
    return 'workBudget is null or a positive integer';
  if (!isCount(m.work)) return 'work is a non-negative integer';
  if (kind === 'disposition') return dispositionProblem(m);
  if (kind === 'evaluation-error') {
    const e = m.error;
    if (!isRec(e) || Object.keys(e).sort().join(',') !== 'class,code,message,phase')
      return 'error has exactly class, phase, code and message';
    if (typeof e.class !== 'string' || !(EVALUATION_ERROR_CLASSES as readonly string[]).includes(e.class))
      return 'error.class is a Core §8.4 class';
    if (e.phase !== 'preflight' && e.phase !== 'evaluation') return 'error.phase is preflight or evaluation';
    if (!isText(e.code, 64)) return 'error.code is a non-empty string';
    if (typeof e.message !== 'string' || Buffer.byteLength(e.message, 'utf8') > 1024)
      return 'error.message is a string of at most 1024 bytes';
    return undefined;
  }
  const f = m.refusal;
  if (!isRec(f) || Object.keys(f).sort().join(',') !== 'code,message') return 'refusal has exactly code and message';
  if (typeof f.code !== 'string' || !(REFUSAL_CODES as readonly string[]).includes(f.code))
    return 'refusal.code is an admission refusal code';
  if (typeof f.message !== 'string' || Buffer.byteLength(f.message, 'utf8') > 1024)
    return 'refusal.message is a string of at most 1024 bytes';
  return undefined;
}

function dispositionProblem(m: Record<string, unknown>): string | undefined {
  if (typeof m.dispositionDigest !== 'string' || !HEX64.test(m.dispositionDigest))
    return 'dispositionDigest is 64 hex digits';
  if ('dispositionOmitted' in m) {
    if (m.dispositionOmitted !== true) return 'dispositionOmitted is true when present';
    if ('disposition' in m) return 'a notification carries the disposition or dispositionOmitted, not both';
    return undefined;
  }
  if (!('disposition' in m)) return 'a disposition notification carries the disposition or dispositionOmitted';
  try {
    checkDisposition(m.disposition as Disposition);
  } catch (e) {
    return `disposition: ${(e as Error).message}`;
  }
  // The digest binds the copy to the entry's dispositionDigest (docs/ledger-format.md): RFC 8785 bytes, SHA-256.
  if (sha256Hex(canonicalize(m.disposition) as string) !== m.dispositionDigest)
    return 'dispositionDigest is not the SHA-256 of the disposition';
  return undefined;
}
