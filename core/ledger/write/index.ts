/**
 * core/ledger/write: the write protocols: appending an entry exactly once to the log its request selects (one writer
 * per log), and the checkpoint writer that verifies every entry before it signs (ADR 0121).
 */
export { checkpointLog, type CheckpointWrite, type CheckpointWriteOptions } from './checkpoint-writer.js';
export {
  appendOnce,
  backoffDelayMs,
  claimRequest,
  type ClaimRequest,
  type ClaimSight,
  LedgerStateError,
  type AppendRequest,
  type AppendOutcome,
  type AppendError,
  type HeadReads,
  type WrittenSeqs,
} from './append.js';
export { markPositions, type MarkerWriter } from './mark-positions.js';
export { configuredLogs, selectLog } from './log-selection.js';
