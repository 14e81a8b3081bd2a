/**
 * Where the delivery stage's outbox sends handoffs (docs/adr/0253-per-invocation-outbox.md): the route queues, in
 * SendMessageBatch calls; its notifications go through adapters/sns.ts `snsResultPublisher`.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sendByPosition } from '../../adapters/sqs.js';
import type { HandoffBatchSender } from '../../core/pipeline/index.js';

/**
 * Handoffs in SendMessageBatch calls (adapters/sqs.ts: ≤ 10 entries and 1 MiB per call, failed entries retried),
 * each with the same body and HandoffId/Route attributes a single send carried; entries still failing are answered by
 * position, so the outbox fails exactly their records.
 */
export function sqsHandoffSender(sqs: SQSClient): HandoffBatchSender {
  return {
    sendBatch: (queue, handoffs) =>
      sendByPosition(
        sqs,
        queue,
        handoffs.map((h) => ({
          body: h.body,
          attributes: {
            HandoffId: { DataType: 'String', StringValue: h.handoffId },
            Route: { DataType: 'String', StringValue: h.routeKey },
          },
        })),
      ),
  };
}
