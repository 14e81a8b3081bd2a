/**
 * The sequence function's work (docs/adr/0270-one-writer-per-log.md, docs/adr/0497-a-ledger-message-carries-many-requests.md):
 * the intake batch's bodies, verbatim, packed into ledger messages (core/pipeline/ledger-message.ts), each sent to the
 * FIFO ledger queue under the message group of a log, in SendMessageBatch calls, with a partial batch response naming
 * exactly the intake messages whose ledger message was not sent (the intake queue is a standard queue: any subset may
 * fail). Holds no key and no table access, and reads no request: the log is chosen from the message's digest.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sendByPosition } from '../../adapters/sqs.js';
import { configuredLogs } from '../../core/ledger/index.js';
import { packLedgerMessages, sequenceMessage } from '../../core/pipeline/index.js';

export interface SequenceRuntime {
  handle(event: SQSEvent): Promise<SQSBatchResponse>;
}

export interface SequenceObserver {
  /** Messages that could not be forwarded (they stay on the intake queue and are redelivered). */
  failed(messageId: string, reason: string): void;
}

export function createSequenceRuntime(o: {
  readonly sqs: SQSClient;
  readonly ledgerQueueUrl: string;
  readonly logIds: readonly string[];
  readonly observer?: SequenceObserver;
}): SequenceRuntime {
  const logIds = configuredLogs(o.logIds);
  return {
    async handle(event) {
      const records = event.Records ?? [];
      // The intake message id, so a dead letter can still name the message the requester sent; its sent time, so
      // the evaluate function can measure request → entry (functions/lib/batch-metrics.ts).
      const packs = packLedgerMessages(
        records.map((r) => ({
          body: r.body,
          intakeMessageId: r.messageId,
          ...(r.attributes?.SentTimestamp ? { intakeSentTimestamp: r.attributes.SentTimestamp } : {}),
        })),
      );
      const failures: { index: number; reason: string }[] = [];
      const sendable: { indexes: readonly number[]; body: string }[] = [];
      for (const p of packs) {
        if (p.bytes.ok) sendable.push({ indexes: p.indexes, body: p.bytes.value });
        else for (const index of p.indexes) failures.push({ index, reason: p.bytes.error.message });
      }
      const messages = sendable.map(({ body }) => {
        const s = sequenceMessage(body, logIds);
        return { body, groupId: s.groupId, deduplicationId: s.deduplicationId };
      });
      // Any other error (no answer at all) throws: the whole batch is redelivered, and FIFO deduplication absorbs
      // the messages that did arrive (the same batch packs to the same bytes → the same deduplication id).
      const { failed } = await sendByPosition(o.sqs, o.ledgerQueueUrl, messages);
      for (const f of failed)
        for (const index of sendable[f.index]!.indexes) failures.push({ index, reason: f.reason });
      return {
        batchItemFailures: failures
          .sort((a, b) => a.index - b.index)
          .map((f) => {
            const r = records[f.index]!;
            o.observer?.failed(r.messageId, f.reason);
            return { itemIdentifier: r.messageId };
          }),
      };
    },
  };
}
