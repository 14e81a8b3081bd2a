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
 */
import { createOutbox, type OutboxPorts, type RecordSinks } from './outbox.js';
import type { ProcessOutcome } from './process-request.js';

export interface BatchRecord {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount?: number;
}

export interface BatchObserver {
  outcome(record: BatchRecord, outcome: ProcessOutcome): void;
  failure(record: BatchRecord, error: unknown): void;
}

export interface BatchDeps {
  /** `sinks` are the record's recording ports when an outbox is configured (send through them), else undefined. */
  readonly process: (bytes: Uint8Array, record: BatchRecord, sinks: RecordSinks | undefined) => Promise<ProcessOutcome>;
  readonly deadLetter: (
    record: BatchRecord,
    outcome: Extract<ProcessOutcome, { status: 'dead-letter' }>,
  ) => Promise<void>;
  readonly observer?: BatchObserver;
  /** Records processed at once (default 10, a whole default batch: appends to one log are serialized anyway, ADR 0162). */
  readonly concurrency?: number;
  /** Where recorded handoffs and notifications are delivered after the batch; absent, `process` sends them itself. */
  readonly outbox?: OutboxPorts;
}

export interface BatchResponse {
  readonly batchItemFailures: { readonly itemIdentifier: string }[];
}

const enc = new TextEncoder();

export async function handleBatch(records: readonly BatchRecord[], deps: BatchDeps): Promise<BatchResponse> {
  const failed = new Set<string>();
  const outbox = deps.outbox !== undefined ? createOutbox(deps.outbox) : undefined;
  const outcomes = new Map<number, ProcessOutcome>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < records.length) {
      const index = next++;
      const record = records[index]!;
      // Keyed by position, not message id: the outbox never confuses two records, whatever their ids.
      const key = String(index);
      const sinks = outbox?.sinksFor(key);
      try {
        // The SQS body is the request text; its UTF-8 bytes are the exact request bytes (SQS carries text only).
        const outcome = await deps.process(enc.encode(record.body), record, sinks);
        if (outcome.status === 'dead-letter') {
          outbox?.discard(key);
          await deps.deadLetter(record, outcome);
        }
        if (outbox === undefined) deps.observer?.outcome(record, outcome);
        else outcomes.set(index, outcome);
      } catch (e) {
        outbox?.discard(key);
        failed.add(record.messageId);
        deps.observer?.failure(record, e);
      }
    }
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
        failed.add(record.messageId);
        deps.observer?.failure(record, error);
      }
    }
  }
  // Report in record order: an empty list means every record succeeded.
  return {
    batchItemFailures: records.filter((r) => failed.has(r.messageId)).map((r) => ({ itemIdentifier: r.messageId })),
  };
}
