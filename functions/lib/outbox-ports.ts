/**
 * Where an outbox delivers (docs/adr/0253-per-invocation-outbox.md): handoffs to the route queues in SendMessageBatch
 * calls and notifications to the results topic, from the delivery stage (functions/deliver.ts).
 */
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { snsResultPublisher } from '../../adapters/sns.js';
import { sendByPosition } from '../../adapters/sqs.js';
import type { HandoffBatchSender, OutboxPorts, ResultBatchPublisher } from '../../core/pipeline/index.js';

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

export interface OutboxPortOptions {
  readonly sqs: SQSClient;
  readonly sns: SNSClient;
  readonly resultsTopicArn: string;
  /** Wraps the handoff sender (fault injection in tests). */
  readonly wrapSender?: (s: HandoffBatchSender) => HandoffBatchSender;
  /** Wraps the result publisher (fault injection in tests). */
  readonly wrapPublisher?: (p: ResultBatchPublisher) => ResultBatchPublisher;
}

export function outboxPorts(o: OutboxPortOptions): OutboxPorts {
  const sender = sqsHandoffSender(o.sqs);
  const publisher = snsResultPublisher(o.sns, o.resultsTopicArn);
  return {
    handoffs: o.wrapSender ? o.wrapSender(sender) : sender,
    results: o.wrapPublisher ? o.wrapPublisher(publisher) : publisher,
  };
}
