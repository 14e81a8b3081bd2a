/**
 * The pipeline's public surface: one request end to end over ports (docs/architecture.md). Code outside core/ uses
 * the pipeline through this file only (ADR 0151).
 */
export { readHandoffMessage } from './handoff-message.js';
export type { HandoffMessage } from './handoff-message.js';
export { routeQueueKeyOf, UNROUTED_QUEUE_KEY, verifyHandoff } from './handoff-verdict.js';
export type { HandoffVerdict, HandoffVerifyOptions, RouteQueueOfReader } from './handoff-verdict.js';
export { deliveriesOf, HandoffRepeats } from './handoff-repeats.js';
export {
  HANDOFFS_SEEN_FORMAT,
  MAX_REMEMBERED,
  readHandoffsSeen,
  serializeHandoffsSeen,
  type HandoffsSeen,
  type HandoffsSeenError,
} from './handoffs-seen.js';
export { buildRequest } from './request-builder.js';
export { idPrefixFor } from './request-builder.js';
export { requestFromLine } from './request-builder.js';
export { buildGraphRequest, type GraphRequestParts } from './graph-request-builder.js';
export { handleBatch } from './batch.js';
export type { BatchRecord, DeliveryJobSender } from './batch.js';
export {
  DELIVERY_JOB_FORMAT,
  MAX_JOB_ENTRIES,
  deliveryJobBytes,
  readDeliveryJob,
  type DeliveryJob,
  type DeliveryJobError,
} from './delivery-job.js';
export { deliverJob, type DeliveredJob, type DeliverJobError, type DeliverJobPorts } from './deliver-job.js';
export type { FannedOut } from './fan-out.js';
export { parseRouteQueues, planHandoffs, routeKey } from './handoff-plan.js';
export type { PlannedHandoff, RouteQueueConfig } from './handoff-plan.js';
export { handoffMessagesFor } from './handoff-message.js';
export { planGraphHandoffs, type GraphPlannedHandoff } from './graph-handoffs.js';
export { ledgerWriter } from './ledger-writer.js';
export { cachedPackSource, type PackBytesSource } from './pack-source.js';
export type {
  LedgerWriter,
  BatchDeliveryReport,
  HandoffBatchSender,
  HandoffSender,
  OutboxHandoff,
  PackReadFailure,
  ResultBatchPublisher,
  ResultPublisher,
} from './ports.js';
export { createOutbox, OutboxDeliveryError } from './outbox.js';
export type { Outbox, OutboxPorts, RecordSinks } from './outbox.js';
export { processRequest } from './process-request.js';
export type { PipelineConfig } from './process-request.js';
export type { PipelinePorts } from './process-request.js';
export type { ProcessOutcome } from './process-request.js';
export type { GraphReadFailure } from './graph-unreadable-refusal.js';
export type { BatchObserver, BatchOutcome, ForwardedOutcome } from './batch.js';
export { HANDOFF_MAX_BYTES } from './handoff-message.js';
export {
  RESULT_FORMAT,
  RESULT_ATTRIBUTE_NAMES,
  RESULT_MAX_BYTES,
  notificationAttributes,
  readResultNotification,
  resultNotificationFor,
  ResultInvariantError,
  type ResultMessage,
  type ResultNotification,
  type ResultReadError,
} from './result-notification.js';
export { readSavedResult, resultLine, type SavedResultError } from './saved-result.js';
export {
  RESULT_REJECTIONS,
  sentRequestOf,
  verifyResultEntry,
  type ResultRejection,
  type ResultVerdict,
  type SentRequest,
} from './result-verdict.js';
export {
  verifyResultBytes,
  type ResultBytesOptions,
  type ResultBytesVerdict,
  type VerifiedResult,
} from './result-bytes-verdict.js';
export { proveResult, type ProvenEntry, type ResultProof, type ResultProofRefusal } from './result-proof.js';
export { requestIdFilterPolicies, FILTER_POLICY_MAX_VALUES } from './result-filter.js';
export { forwardDeduplicationId, sequenceMessage, UNIDENTIFIED_GROUP_PREFIX, type Sequencing } from './sequencing.js';
export { LedgerWriteError, type LedgerWriteErrorCode, type SequencedLedgerWriter } from './ledger-writer.js';
