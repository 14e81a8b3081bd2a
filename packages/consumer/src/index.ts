/**
 * @docket/consumer: a route-queue consumer for AWS Lambda that acts only on verified handoffs, once
 * (adapters/handoff-consumer.ts, docs/adr/0443-handoff-consumer-claims-before-it-handles.md). This file only names
 * the public surface (docs/adr/0440-packages-built-from-the-repository-folders.md).
 */
export {
  handoffConsumer,
  handoffRecordHandler,
  HandoffRecordError,
  type HandoffConsumerOptions,
  type RecordOutcome,
  type RefusedHandoff,
  type SqsBatchResponse,
  type SqsEvent,
  type SqsRecord,
} from '../../../adapters/handoff-consumer.js';
export {
  memorySeenHandoffs,
  dynamoDbSeenHandoffs,
  DEFAULT_LEASE_SECONDS,
  type ClaimOutcome,
  type DynamoDbSeenOptions,
  type SeenHandoffs,
} from '../../../adapters/seen-handoffs.js';
export { readTrustPolicy, type TrustPolicy } from '../../../core/ledger/trust-policy/index.js';
export {
  HANDOFF_REJECTIONS,
  UNROUTED_QUEUE_KEY,
  type HandoffRejection,
  type RouteQueueOfReader,
} from '../../../core/pipeline/handoff-verdict.js';
export type { HandoffMessage } from '../../../core/pipeline/handoff-message.js';
