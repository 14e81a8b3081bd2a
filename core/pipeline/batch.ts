/**
 * An SQS batch of the FIFO ledger queue → partial batch response (docs/pipeline.md "What becomes of a message", "The
 * evaluate function"). Records run concurrently and each on its own (ADR 0274); a record the ledger cannot record goes
 * to the rejects queue with its reason and counts as handled (ADRs 0071, 0492). Nothing is delivered here (ADR 0404):
 * once every record is processed, the batch's entries are named in delivery jobs, one per log, sent before the
 * handler answers, so a crash leaves the batch to be redelivered and its jobs sent again. FIFO's rule for partial
 * batch responses: the first failed record and every record after it are reported failed.
 */
import { MAX_JOB_ENTRIES, type DeliveryJob } from './delivery-job.js';
import type { BatchDeliveryReport } from './ports.js';
import type { ProcessOutcome } from './process-request.js';

export interface BatchRecord {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount?: number;
  /** The FIFO message group: the log (docs/adr/0270-one-writer-per-log.md). */
  readonly groupId?: string;
}

/**
 * Set by the edge's `process`, never by processRequest: the request's claim fixes another log, so the message was
 * sent on to that log's FIFO group instead of being written from this one (docs/adr/0270-one-writer-per-log.md).
 */
export interface ForwardedOutcome {
  readonly status: 'forwarded';
  readonly requestId: string;
  readonly logId: string;
  readonly message: string;
}

export type BatchOutcome = ProcessOutcome | ForwardedOutcome;

export interface BatchObserver {
  outcome(record: BatchRecord, outcome: BatchOutcome): void;
  failure(record: BatchRecord, error: unknown): void;
}

export interface BatchDeps {
  readonly process: (bytes: Uint8Array, record: BatchRecord) => Promise<BatchOutcome>;
  /** Sends the record, with its reason, to the rejects queue (never to a DLQ: only SQS's redrive fills those). */
  readonly deadLetter: (
    record: BatchRecord,
    outcome: Extract<ProcessOutcome, { status: 'dead-letter' }>,
  ) => Promise<void>;
  readonly observer?: BatchObserver;
  /** Records processed at once (default 10, a whole default batch: appends to one log are serialized anyway, ADR 0162). */
  readonly concurrency?: number;
  /** Sends the batch's delivery jobs (the delivery stage). */
  readonly jobs: DeliveryJobSender;
}

/** Sends delivery jobs; answers those not sent by their position in the list it was given (a throw: none sent). */
export interface DeliveryJobSender {
  send(jobs: readonly DeliveryJob[]): Promise<BatchDeliveryReport>;
}

export interface BatchResponse {
  readonly batchItemFailures: { readonly itemIdentifier: string }[];
}

const enc = new TextEncoder();

/**
 * The batch's recorded entries as delivery jobs, one per log (seq order, each entry once, at most MAX_JOB_ENTRIES a
 * job), sent in one call; answers the records (by their batch position) whose job was not sent, with why.
 */
async function sendJobs(
  outcomes: ReadonlyMap<number, BatchOutcome>,
  sender: DeliveryJobSender,
): Promise<Map<number, Error>> {
  const byLog = new Map<string, Map<number, { requestId: string; records: number[] }>>();
  for (const [index, o] of outcomes) {
    if (o.status !== 'recorded') continue;
    let log = byLog.get(o.logId);
    if (log === undefined) byLog.set(o.logId, (log = new Map()));
    const at = log.get(o.seq);
    if (at === undefined) log.set(o.seq, { requestId: o.requestId, records: [index] });
    else at.records.push(index); // the same request twice in one batch: one entry, named once
  }
  const jobs: DeliveryJob[] = [];
  const owners: number[][] = [];
  for (const [logId, entries] of byLog) {
    const sorted = [...entries].sort(([a], [b]) => a - b);
    for (let i = 0; i < sorted.length; i += MAX_JOB_ENTRIES) {
      const part = sorted.slice(i, i + MAX_JOB_ENTRIES);
      jobs.push({ logId, entries: part.map(([seq, e]) => ({ seq, requestId: e.requestId })) });
      owners.push(part.flatMap(([, e]) => e.records));
    }
  }
  const out = new Map<number, Error>();
  if (jobs.length === 0) return out;
  const failAll = (job: number, why: string): void => {
    for (const index of owners[job]!) out.set(index, new Error(`delivery job not sent: ${why}`));
  };
  try {
    const report = await sender.send(jobs);
    for (const f of report.failed) {
      // A position outside the list is a sender fault: fail every record rather than guess whose job it was.
      if (owners[f.index] === undefined)
        jobs.forEach((_j, i) => failAll(i, `the sender answered unknown job ${f.index}`));
      else failAll(f.index, f.reason);
    }
  } catch (e) {
    jobs.forEach((_j, i) => failAll(i, e instanceof Error ? e.message : String(e)));
  }
  return out;
}

export async function handleBatch(records: readonly BatchRecord[], deps: BatchDeps): Promise<BatchResponse> {
  const failed = new Set<number>();
  const outcomes = new Map<number, BatchOutcome>();
  /** Processes record `index`; false when it failed. */
  const processOne = async (index: number): Promise<void> => {
    const record = records[index]!;
    try {
      // The SQS body is the request text; its UTF-8 bytes are the exact request bytes (SQS carries text only).
      const outcome = await deps.process(enc.encode(record.body), record);
      if (outcome.status === 'dead-letter') await deps.deadLetter(record, outcome);
      outcomes.set(index, outcome);
    } catch (e) {
      failed.add(index);
      deps.observer?.failure(record, e);
    }
  };
  // Every record on its own, in batch order as workers free up (ADR 0274): FIFO changes only the answer below.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < records.length) await processOne(next++);
  };
  const n = Math.max(1, Math.min(deps.concurrency ?? 10, records.length));
  await Promise.all(Array.from({ length: n }, worker));
  const unsent = await sendJobs(outcomes, deps.jobs);
  // Reported in record order, each once: a job not sent, or the outcome of a record done with.
  for (const [index, record] of records.entries()) {
    const outcome = outcomes.get(index);
    if (outcome === undefined) continue;
    const error = unsent.get(index);
    if (error === undefined) deps.observer?.outcome(record, outcome);
    else {
      failed.add(index);
      deps.observer?.failure(record, error);
    }
  }
  // Report in record order: an empty list means every record succeeded. FIFO: from the first failure on, all.
  const firstFailed = failed.size === 0 ? records.length : Math.min(...failed);
  const reported = records.filter((_r, i) => failed.has(i) || i >= firstFailed);
  return { batchItemFailures: reported.map((r) => ({ itemIdentifier: r.messageId })) };
}
