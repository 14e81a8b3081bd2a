/**
 * Omission caught by the auditor (docs/verify.md "Requests without an entry";
 * docs/adr/0292-archived-requests-cross-checked-with-the-ledger.md). The pipeline retains every request's exact
 * bytes before it appends the entry (docs/replay.md), so an archived request whose bytes no entry records is an
 * accepted request that left no trace in the ledger — unless it may still be on its way:
 *
 *   - it sits on the intake DLQ (its reason is reported with it: e.g. request-id-reused), or
 *   - one of the queues a request passes through still holds messages (waiting or in flight) AND the request was
 *     first retained less than one redelivery window ago (visibility timeout × maxReceiveCount of the queue: after
 *     that, SQS has either delivered it for good or moved it to the DLQ).
 *
 * An idle path leaves no excuse. Pure: the archive, the ledger's (requestId, requestDigest) pairs, the queues' state
 * and the time are inputs.
 */
import type { Finding, Verdict, VerifySummary } from './findings.js';

/** An archived request without an entry recording its bytes, and no excuse. */
export interface RequestWithoutEntryFinding {
  readonly code: 'request-without-entry';
  readonly requestId: string;
  /** SHA-256 (hex) of the archived bytes. */
  readonly requestDigest: string;
}

/** An archived request without an entry that may still be on its way, and why. */
export type ExcusedRequest =
  | { readonly requestId: string; readonly requestDigest: string; readonly excuse: 'in-flight' }
  | {
      readonly requestId: string;
      readonly requestDigest: string;
      readonly excuse: 'dead-lettered';
      readonly reason: string;
    };

export interface ArchivedRequest {
  readonly requestDigest: string;
  /** The request id its bytes carry; null when they carry none (such a request is never archived by the pipeline). */
  readonly requestId: string | null;
  /** Epoch seconds of the first retention; null when unknown (treated as older than any window). */
  readonly retainedAt: number | null;
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

export interface OmissionInputs {
  readonly archived: Iterable<ArchivedRequest>;
  /** `${requestId}\n${requestDigest}` of every readable entry of the ledger. */
  readonly recorded: ReadonlySet<string>;
  /** The intake DLQ's messages: request digest → reason (DocketReason, or "redriven" without one). */
  readonly deadLettered: ReadonlyMap<string, string>;
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
  const findings: RequestWithoutEntryFinding[] = [];
  const excused: ExcusedRequest[] = [];
  for (const a of i.archived) {
    if (a.requestId === null || i.recorded.has(recordedKey(a.requestId, a.requestDigest))) continue;
    const at = { requestId: a.requestId, requestDigest: a.requestDigest };
    const reason = i.deadLettered.get(a.requestDigest);
    if (reason !== undefined) excused.push({ ...at, excuse: 'dead-lettered', reason });
    else if (busy && a.retainedAt !== null && i.now - a.retainedAt < window)
      excused.push({ ...at, excuse: 'in-flight' });
    else findings.push({ code: 'request-without-entry', ...at });
  }
  const order = (a: { requestId: string; requestDigest: string }, b: typeof a) =>
    a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : a.requestDigest < b.requestDigest ? -1 : 1;
  return { findings: findings.sort(order), excused: excused.sort(order) };
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
