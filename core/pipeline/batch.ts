/**
 * An SQS batch → partial batch response (ReportBatchItemFailures). Each record is processed on its own: one bad
 * record never fails its neighbours. A record fails (and is redelivered) only when processing threw — an
 * infrastructure fault — or when a reject could not be sent. A record the ledger cannot record (outcome `dead-letter`:
 * no usable id, or an id recorded for other bytes) is sent by `deadLetter` to the rejects queue with its reason and
 * then counts as handled (docs/adr/0071-unidentified-requests-go-to-the-dlq.md,
 * docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md), so every submitted request ends as a ledger
 * entry or as a message carrying its reason (on the rejects queue, or on a DLQ after SQS's redrive).
 *
 * Records run with bounded concurrency: requests land on different logs, so appends proceed in parallel.
 *
 * Nothing is delivered here (the delivery stage, docs/adr/0404-delivery-stage.md): once every record has been
 * processed, the entries the batch recorded are named in delivery jobs, one per log (core/pipeline/delivery-job.ts),
 * and sent before the handler answers — so before the batch is deleted, and a crash first leaves the batch to be
 * redelivered, its records found as duplicates and their jobs sent again. A record whose job was not sent fails like
 * one whose processing threw. Outcomes are reported to the observer only once the jobs were sent.
 *
 * The source is the FIFO ledger queue (docs/adr/0270-one-writer-per-log.md), so the answer follows AWS's rule for FIFO
 * partial batch responses: the first failed record and every record after it in the batch are reported failed
 * (processed or not: a processed one is redelivered and found as a duplicate), so no message of a group is ever
 * deleted ahead of an earlier one that failed. The records themselves run concurrently, a group's too: the intake
 * promises requesters no order, the writer already serializes the one step that must be serial (the slot write: one
 * group commit of a log at a time, docs/adr/0350-group-commit-of-slot-writes.md), and the AWS scale model measured sequential groups at 338 appends/s against 8 logs where concurrent
 * ones give ~880 (docs/adr/0274-fifo-batches-run-concurrently.md).
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
