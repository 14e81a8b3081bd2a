/**
 * An SQS batch → partial batch response (ReportBatchItemFailures). Each record is processed on its own: one bad
 * record never fails its neighbours. A record fails (and is redelivered) only when processing threw — an
 * infrastructure fault — or when a dead letter could not be sent. A dead-lettered record is sent to the DLQ with its
 * reason and then counts as handled (docs/adr/0071-unidentified-requests-go-to-the-dlq.md), so every submitted
 * request ends as a ledger entry or as a DLQ message carrying its reason.
 *
 * Records run with bounded concurrency: requests land on different logs, so appends proceed in parallel.
 *
 * With an outbox (`deps.outbox`), each record's handoffs and notification are recorded while it is processed and
 * delivered in batch calls once every record has been processed (docs/adr/0253-per-invocation-outbox.md); a record
 * whose messages were not all delivered fails like one whose processing threw. Outcomes are reported to the observer
 * only after delivery, so what it counts was sent.
 *
 * From a FIFO queue (`deps.ordered`; docs/adr/0270-one-writer-per-log.md) the answer follows AWS's rule for FIFO
 * partial batch responses: the first failed record and every record after it in the batch are reported failed
 * (processed or not: a processed one is redelivered and found as a duplicate), so no message of a group is ever
 * deleted ahead of an earlier one that failed. The records themselves run concurrently, a group's too: the intake
 * promises requesters no order, the writer already serializes the one step that must be serial (the slot write: one
 * group commit of a log at a time, docs/adr/0350-group-commit-of-slot-writes.md), and the AWS scale model measured sequential groups at 338 appends/s against 8 logs where concurrent
 * ones give ~880 (docs/adr/0274-fifo-batches-run-concurrently.md).
 */
import { createOutbox, type OutboxPorts, type RecordSinks } from './outbox.js';
import type { ProcessOutcome } from './process-request.js';

export interface BatchRecord {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount?: number;
  /** The FIFO message group (under one writer per log: the log), absent on a standard queue. */
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
  /** `sinks` are the record's recording ports when an outbox is configured (send through them), else undefined. */
  readonly process: (bytes: Uint8Array, record: BatchRecord, sinks: RecordSinks | undefined) => Promise<BatchOutcome>;
  readonly deadLetter: (
    record: BatchRecord,
    outcome: Extract<ProcessOutcome, { status: 'dead-letter' }>,
  ) => Promise<void>;
  readonly observer?: BatchObserver;
  /** Records processed at once (default 10, a whole default batch: appends to one log are serialized anyway, ADR 0162). */
  readonly concurrency?: number;
  /** Where recorded handoffs and notifications are delivered after the batch; absent, `process` sends them itself. */
  readonly outbox?: OutboxPorts;
  /** The source is a FIFO queue: AWS's FIFO partial-batch rule (see above). */
  readonly ordered?: boolean;
}

export interface BatchResponse {
  readonly batchItemFailures: { readonly itemIdentifier: string }[];
}

const enc = new TextEncoder();

export async function handleBatch(records: readonly BatchRecord[], deps: BatchDeps): Promise<BatchResponse> {
  const failed = new Set<number>();
  const outbox = deps.outbox !== undefined ? createOutbox(deps.outbox) : undefined;
  const outcomes = new Map<number, BatchOutcome>();
  /** Processes record `index`; false when it failed. */
  const processOne = async (index: number): Promise<boolean> => {
    const record = records[index]!;
    // Keyed by position, not message id: the outbox never confuses two records, whatever their ids.
    const key = String(index);
    const sinks = outbox?.sinksFor(key);
    try {
      // The SQS body is the request text; its UTF-8 bytes are the exact request bytes (SQS carries text only).
      const outcome = await deps.process(enc.encode(record.body), record, sinks);
      if (outcome.status !== 'recorded') outbox?.discard(key);
      if (outcome.status === 'dead-letter') await deps.deadLetter(record, outcome);
      if (outbox === undefined) deps.observer?.outcome(record, outcome);
      else outcomes.set(index, outcome);
      return true;
    } catch (e) {
      outbox?.discard(key);
      failed.add(index);
      deps.observer?.failure(record, e);
      return false;
    }
  };
  // Every record on its own, in batch order as workers free up (ADR 0274): FIFO changes only the answer below.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < records.length) await processOne(next++);
  };
  const n = Math.max(1, Math.min(deps.concurrency ?? 10, records.length));
  await Promise.all(Array.from({ length: n }, worker));
  if (outbox !== undefined) {
    const undelivered = await outbox.deliver();
    // Reported in record order, each once: a delivery failure, or the outcome of what was delivered.
    for (const [index, record] of records.entries()) {
      const outcome = outcomes.get(index);
      if (outcome === undefined) continue;
      const error = undelivered.get(String(index));
      if (error === undefined) deps.observer?.outcome(record, outcome);
      else {
        failed.add(index);
        deps.observer?.failure(record, error);
      }
    }
  }
  // Report in record order: an empty list means every record succeeded. FIFO: from the first failure on, all.
  const firstFailed = failed.size === 0 ? records.length : Math.min(...failed);
  const reported = records.filter((_r, i) => failed.has(i) || (deps.ordered === true && i >= firstFailed));
  return { batchItemFailures: reported.map((r) => ({ itemIdentifier: r.messageId })) };
}
