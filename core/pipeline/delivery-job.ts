/**
 * A delivery job (`docket.delivery-job/1`): the message the evaluate function sends, under its log's FIFO group lock
 * and before its batch is deleted, naming the entries a batch recorded in one log, so that the deliver function writes
 * their positions and sends their handoffs and notifications from the ledger (docs/adr/0404-delivery-stage.md).
 *
 * A job names coordinates only — the log, and each entry's seq and request id — never a handoff or a notification:
 * whoever can write the job queue can make the stage deliver recorded entries again, never deliver something new.
 * One serializer that validates before it emits RFC 8785 bytes; one strict reader.
 */
import canonicalize from 'canonicalize';
import { readJson } from '../carrier/read-json.js';
import { toPlain } from '../carrier/plain.js';
import { err, ok, type Result } from '../result.js';
import { REQUEST_ID_PATTERN } from '../admission/request-format.js';
import { LOG_ID_PATTERN } from '../ledger/entries/entry-rules.js';
import { isRec } from '../ledger/primitives/shape.js';
import { MAX_GROUP_MEMBERS } from '../ledger/store/store.js';

export const DELIVERY_JOB_FORMAT = 'docket.delivery-job/1';
/**
 * A job names at most one bundle's entries, so the deliver function reads each bundle once, not once per ten entries
 * (docs/adr/0506-a-batch-is-one-bundle.md).
 */
export const MAX_JOB_ENTRIES = MAX_GROUP_MEMBERS;
/** Far above the largest valid job (~11.5 KB); the reader refuses anything longer before parsing it. */
export const MAX_JOB_BYTES = 32_768;

export interface DeliveryJobEntry {
  readonly seq: number;
  readonly requestId: string;
}

export interface DeliveryJob {
  readonly logId: string;
  /** Ascending, distinct seqs and distinct request ids. */
  readonly entries: readonly DeliveryJobEntry[];
}

export interface DeliveryJobError {
  readonly code: 'delivery-job-invalid';
  readonly message: string;
}

const invalid = (message: string): Result<never, DeliveryJobError> => err({ code: 'delivery-job-invalid', message });

/** What is wrong with a job's content, or undefined. */
function problemOf(job: DeliveryJob): string | undefined {
  if (typeof job.logId !== 'string' || !LOG_ID_PATTERN.test(job.logId))
    return `logId must match ${LOG_ID_PATTERN.source}`;
  if (!Array.isArray(job.entries) || job.entries.length < 1 || job.entries.length > MAX_JOB_ENTRIES)
    return `entries must be an array of 1 to ${MAX_JOB_ENTRIES} entries`;
  const ids = new Set<string>();
  let last = -1;
  for (const [i, e] of (job.entries as readonly unknown[]).entries()) {
    if (!isRec(e) || Object.keys(e).length !== 2 || !('seq' in e) || !('requestId' in e))
      return `entries[${i}] must hold exactly seq and requestId`;
    const { seq, requestId } = e;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq <= last)
      return `entries[${i}].seq must be a safe integer above the one before it (≥ 0 for the first)`;
    if (typeof requestId !== 'string' || !REQUEST_ID_PATTERN.test(requestId))
      return `entries[${i}].requestId must match ${REQUEST_ID_PATTERN.source}`;
    if (ids.has(requestId)) return `entries[${i}].requestId repeats an earlier entry's`;
    ids.add(requestId);
    last = seq;
  }
  return undefined;
}

/** The job's RFC 8785 bytes, or why it cannot be one. */
export function deliveryJobBytes(job: DeliveryJob): Result<string, DeliveryJobError> {
  const problem = problemOf(job);
  if (problem !== undefined) return invalid(problem);
  const wire = {
    format: DELIVERY_JOB_FORMAT,
    logId: job.logId,
    entries: job.entries.map((e) => ({ seq: e.seq, requestId: e.requestId })),
  };
  return ok(canonicalize(wire)!);
}

/** Reads a job strictly: size, carrier (duplicate names, lone surrogates), format, exact members, canonical bytes. */
export function readDeliveryJob(bytes: Uint8Array): Result<DeliveryJob, DeliveryJobError> {
  if (bytes.length > MAX_JOB_BYTES) return invalid(`a job is at most ${MAX_JOB_BYTES} bytes, this one ${bytes.length}`);
  const r = readJson(bytes);
  if (!r.ok) return invalid(`not JSON: ${r.error.message}`);
  const plain = toPlain(r.value);
  if (!isRec(plain)) return invalid('a job is a JSON object');
  if (plain.format !== DELIVERY_JOB_FORMAT) return invalid(`format must be ${DELIVERY_JOB_FORMAT}`);
  const names = Object.keys(plain).sort();
  if (names.join(',') !== 'entries,format,logId')
    return invalid('a job has exactly the members format, logId, entries');
  const job = { logId: plain.logId, entries: plain.entries } as DeliveryJob;
  const problem = problemOf(job);
  if (problem !== undefined) return invalid(problem);
  if (canonicalize(plain) !== Buffer.from(bytes).toString('utf8'))
    return invalid('the job bytes are not the RFC 8785 form of what they parse to');
  return ok({ logId: job.logId, entries: job.entries.map((e) => ({ seq: e.seq, requestId: e.requestId })) });
}
