/**
 * An SQS batch → partial batch response (ReportBatchItemFailures). Each record is processed on its own: one bad
 * record never fails its neighbours. A record fails (and is redelivered) only when processing threw — an
 * infrastructure fault — or when a dead letter could not be sent. A dead-lettered record is sent to the DLQ with its
 * reason and then counts as handled (docs/adr/0071-unidentified-requests-go-to-the-dlq.md), so every submitted
 * request ends as a ledger entry or as a DLQ message carrying its reason.
 *
 * Records run with bounded concurrency: requests land on different logs, so appends proceed in parallel.
 */
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
  readonly process: (bytes: Uint8Array) => Promise<ProcessOutcome>;
  readonly deadLetter: (
    record: BatchRecord,
    outcome: Extract<ProcessOutcome, { status: 'dead-letter' }>,
  ) => Promise<void>;
  readonly observer?: BatchObserver;
  /** Records processed at once (default 10, a whole default batch: appends to one log are serialized anyway, ADR 0162). */
  readonly concurrency?: number;
}

export interface BatchResponse {
  readonly batchItemFailures: { readonly itemIdentifier: string }[];
}

const enc = new TextEncoder();

export async function handleBatch(records: readonly BatchRecord[], deps: BatchDeps): Promise<BatchResponse> {
  const failed = new Set<string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < records.length) {
      const record = records[next++]!;
      try {
        // The SQS body is the request text; its UTF-8 bytes are the exact request bytes (SQS carries text only).
        const outcome = await deps.process(enc.encode(record.body));
        if (outcome.status === 'dead-letter') await deps.deadLetter(record, outcome);
        deps.observer?.outcome(record, outcome);
      } catch (e) {
        failed.add(record.messageId);
        deps.observer?.failure(record, e);
      }
    }
  };
  const n = Math.max(1, Math.min(deps.concurrency ?? 10, records.length));
  await Promise.all(Array.from({ length: n }, worker));
  // Report in record order: an empty list means every record succeeded.
  return {
    batchItemFailures: records.filter((r) => failed.has(r.messageId)).map((r) => ({ itemIdentifier: r.messageId })),
  };
}
