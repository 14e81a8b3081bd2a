/**
 * Omission caught by the auditor (docs/verify.md "Requests without an entry", which gives the rules; ADR 0292): an
 * archived request whose bytes no entry records is a finding unless SQS's redrive moved it to a DLQ of its path
 * (only a redrive excuses, ADR 0455), its id is recorded for other bytes, or a queue of its path still holds messages
 * and it was first retained less than one redelivery window ago (a retention later than `now` is a finding of its
 * own). Pure: the archive, the ledger's (requestId, requestDigest) pairs, the DLQs, the queues and the time are inputs.
 */
import type { Finding, Verdict, VerifySummary } from './findings.js';

/**
 * An archived request without an entry recording its bytes, and no excuse: `request-without-entry`, or
 * `request-retained-in-future` when its first retention is dated after the auditor's now (`retainedAt`, epoch s).
 */
export interface RequestWithoutEntryFinding {
  readonly code: 'request-without-entry' | 'request-retained-in-future';
  readonly requestId: string;
  /** SHA-256 (hex) of the archived bytes. */
  readonly requestDigest: string;
  readonly retainedAt?: number;
}

/** An archived request without an entry that may still be on its way, or that the ledger accounts for, and why. */
export type ExcusedRequest = { readonly requestId: string; readonly requestDigest: string } & (
  { readonly excuse: 'in-flight' | 'request-id-reused' } | { readonly excuse: 'dead-lettered'; readonly reason: string }
);

export interface ArchivedRequest {
  readonly requestDigest: string;
  /** The request id its bytes carry; null when they carry none (such a request is never archived by the pipeline). */
  readonly requestId: string | null;
  /** Epoch seconds of the first retention; null when unknown (treated as older than any window). */
  readonly retainedAt: number | null;
}

/** One message read from a dead-letter queue. */
export interface DeadLetterMessage {
  /** SHA-256 (hex) of its body. */
  readonly digest: string;
  /** Its `DeadLetterQueueSourceArn` system attribute (set by SQS's redrive only); null when it has none. */
  readonly sourceArn: string | null;
}

/** One queue on the path from intake to the evaluate function (stack/settings.ts `requestPathQueues`). */
export interface PathQueueState {
  readonly name: string;
  /** ApproximateNumberOfMessages. */
  readonly waiting: number;
  /** ApproximateNumberOfMessagesNotVisible. */
  readonly inFlight: number;
  /** VisibilityTimeout × maxReceiveCount, seconds: how long one message may keep being redelivered. */
  readonly redeliveryWindowSeconds: number;
}

/** How far in the future a first retention may be dated before it is a finding: clocks of two hosts, seconds. */
export const RETAINED_AT_SKEW_SECONDS = 300;

export interface OmissionInputs {
  readonly archived: Iterable<ArchivedRequest>;
  /** `${requestId}\n${requestDigest}` of every readable entry of the ledger. */
  readonly recorded: ReadonlySet<string>;
  /** The messages of the path's dead-letter queues. */
  readonly deadLettered: readonly DeadLetterMessage[];
  /**
   * The ARN of each path queue whose redrive policy ends in one of those DLQs → the reason its redriven messages are
   * excused with (e.g. the FIFO ledger queue → `ledger-queue-redriven`).
   */
  readonly redriveSources: ReadonlyMap<string, string>;
  readonly queues: readonly PathQueueState[];
  /** Epoch seconds. */
  readonly now: number;
}

export const recordedKey = (requestId: string, requestDigest: string): string => `${requestId}\n${requestDigest}`;

/** The findings (sorted by request id, then digest) and the excused requests. */
export function omissionFindings(i: OmissionInputs): {
  findings: RequestWithoutEntryFinding[];
  excused: ExcusedRequest[];
} {
  const busy = i.queues.some((q) => q.waiting + q.inFlight > 0);
  const window = Math.max(0, ...i.queues.map((q) => q.redeliveryWindowSeconds));
  const redriven = redrivenReasons(i.deadLettered, i.redriveSources);
  const recordedIds = new Set([...i.recorded].map((k) => k.slice(0, k.indexOf('\n'))));
  const findings: RequestWithoutEntryFinding[] = [];
  const excused: ExcusedRequest[] = [];
  for (const a of i.archived) {
    if (a.requestId === null || i.recorded.has(recordedKey(a.requestId, a.requestDigest))) continue;
    const at = { requestId: a.requestId, requestDigest: a.requestDigest };
    const reason = redriven.get(a.requestDigest);
    if (a.retainedAt !== null && a.retainedAt > i.now + RETAINED_AT_SKEW_SECONDS)
      findings.push({ code: 'request-retained-in-future', ...at, retainedAt: a.retainedAt });
    else if (reason !== undefined) excused.push({ ...at, excuse: 'dead-lettered', reason });
    else if (recordedIds.has(a.requestId)) excused.push({ ...at, excuse: 'request-id-reused' });
    else if (busy && a.retainedAt !== null && i.now - a.retainedAt < window)
      excused.push({ ...at, excuse: 'in-flight' });
    else findings.push({ code: 'request-without-entry', ...at });
  }
  const order = (a: { requestId: string; requestDigest: string }, b: typeof a) =>
    a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : a.requestDigest < b.requestDigest ? -1 : 1;
  return { findings: findings.sort(order), excused: excused.sort(order) };
}

/** Digest → reason of the DLQ messages SQS itself moved there from a path queue; any other message counts for nothing. */
function redrivenReasons(
  messages: readonly DeadLetterMessage[],
  sources: ReadonlyMap<string, string>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of messages) {
    const reason = m.sourceArn === null ? undefined : sources.get(m.sourceArn);
    if (reason !== undefined && !out.has(m.digest)) out.set(m.digest, reason);
  }
  return out;
}

/** What the archive cross-check rested on, as `summary.archive` of the verdict (docs/verify.md). */
export type ArchiveSummary =
  | { readonly checked: false; readonly reason: string }
  | {
      readonly checked: true;
      readonly requests: number;
      readonly excused: readonly ExcusedRequest[];
      readonly queues: readonly PathQueueState[];
    };

/** The cross-check's outcome: its findings, or why there was nothing to cross-check (no archive table or queue). */
export type ArchiveCheck =
  | {
      readonly findings: readonly RequestWithoutEntryFinding[];
      readonly excused: readonly ExcusedRequest[];
      readonly archived: number;
      readonly queues: readonly PathQueueState[];
    }
  | { readonly missing: string };

/** A ledger verdict with the archive cross-check folded in: `docket verify`'s live answer and the console's. */
export interface ArchiveVerdict {
  readonly ok: boolean;
  readonly findings: readonly (Finding | RequestWithoutEntryFinding)[];
  readonly summary: VerifySummary & { readonly archive: ArchiveSummary };
}

/** The archive's findings follow the ledger's (they name a request, not a log position); any of them makes it not ok. */
export function withArchiveCheck(v: Verdict, check: ArchiveCheck): ArchiveVerdict {
  const found = 'missing' in check ? [] : check.findings;
  return {
    ok: v.ok && found.length === 0,
    findings: [...v.findings, ...found],
    summary: {
      ...v.summary,
      archive:
        'missing' in check
          ? { checked: false, reason: check.missing }
          : { checked: true, requests: check.archived, excused: check.excused, queues: check.queues },
    },
  };
}
