/**
 * The sequence function's work (docs/adr/0270-one-writer-per-log.md): every intake message, body verbatim, to the
 * FIFO ledger queue under the message group of its log, in SendMessageBatch calls, with a partial batch response
 * naming exactly the messages that were not sent (the intake queue is a standard queue: any subset may fail).
 * Holds no key and no table access: it reads the request id (core/admission's strict reader) and nothing else.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sendByPosition } from '../../adapters/sqs.js';
import { configuredLogs } from '../../core/ledger/index.js';
import { sequenceMessage } from '../../core/pipeline/index.js';
import { INTAKE_SENT_TIMESTAMP_ATTRIBUTE } from '../../core/metric-names.js';

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
      const messages = records.map((r) => {
        const s = sequenceMessage(r.body, r.messageId, logIds);
        return {
          body: r.body,
          groupId: s.groupId,
          deduplicationId: s.deduplicationId,
          // The intake message id, so a dead letter can still name the message the requester sent; its sent time, so
          // the evaluate function can measure request → entry (functions/lib/batch-metrics.ts).
          attributes: {
            IntakeMessageId: { DataType: 'String', StringValue: r.messageId },
            ...(r.attributes?.SentTimestamp
              ? { [INTAKE_SENT_TIMESTAMP_ATTRIBUTE]: { DataType: 'Number', StringValue: r.attributes.SentTimestamp } }
              : {}),
          },
        };
      });
      // Any other error (no answer at all) throws: the whole batch is redelivered, and FIFO deduplication absorbs
      // the copies that did arrive (same body → same deduplication id within SQS's 5-minute window).
      const { failed } = await sendByPosition(o.sqs, o.ledgerQueueUrl, messages);
      return {
        batchItemFailures: failed.map((f) => {
          const r = records[f.index]!;
          o.observer?.failed(r.messageId, f.reason);
          return { itemIdentifier: r.messageId };
        }),
      };
    },
  };
}
