/**
 * The pipeline's public surface: one request end to end over ports (docs/architecture.md). Code outside core/ uses
 * the pipeline through this file only (ADR 0151).
 */
export { HANDOFF_MAX_BYTES, handoffMessagesFor, readHandoffMessage } from './handoff-message.js';
export type { HandoffMessage } from './handoff-message.js';
export { UNROUTED_QUEUE_KEY, verifyHandoff } from './handoff-verdict.js';
export type { HandoffVerdict, HandoffVerifyOptions } from './handoff-verdict.js';
export { HandoffRepeats } from './handoff-repeats.js';
export { readHandoffsSeen, serializeHandoffsSeen, type HandoffsSeen } from './handoffs-seen.js';
export { buildGraphRequest, buildRequest, idPrefixFor, requestFromLine } from './request-builder.js';
export { handleBatch } from './batch.js';
export type { BatchObserver, BatchOutcome, BatchRecord, DeliveryJobSender } from './batch.js';
export { deliveryJobBytes, readDeliveryJob, type DeliveryJob } from './delivery-job.js';
export { deliverJob, type DeliveredJob, type DeliverJobPorts } from './deliver-job.js';
export { parseRouteQueues, planHandoffs, routeKey } from './handoff-plan.js';
export type { PlannedHandoff, RouteQueueConfig } from './handoff-plan.js';
export { planGraphHandoffs } from './graph-handoffs.js';
export { ledgerWriter, LedgerWriteError, type SequencedLedgerWriter } from './ledger-writer.js';
export { cachedPackSource, type PackBytesSource } from './pack-source.js';
export type { GraphReadFailure, HandoffBatchSender, ResultBatchPublisher } from './ports.js';
export type { OutboxPorts } from './outbox.js';
export { processRequest } from './process-request.js';
export type { PipelineConfig, PipelinePorts, ProcessOutcome } from './process-request.js';
export { readSavedResult, resultLine } from './saved-result.js';
export { sentRequestOf, type SentRequest } from './result-verdict.js';
export { proveResult, type ProvenEntry } from './result-proof.js';
export { requestIdFilterPolicies } from './result-filter.js';
export { forwardDeduplicationId, sequenceMessage } from './sequencing.js';
export {
  isLedgerMessage,
  ledgerMessageBytes,
  packLedgerMessages,
  readLedgerMessage,
  type SequencedRequest,
} from './ledger-message.js';
