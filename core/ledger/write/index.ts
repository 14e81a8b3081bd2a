/**
 * core/ledger/write: the write protocols: appending an entry exactly once to the log its request selects (one writer
 * per log), and the checkpoint writer that verifies every entry before it signs (ADR 0121).
 */
export { checkpointLog } from './checkpoint-writer.js';
export { backoffDelayMs } from './append.js';
export { configuredLogs } from './log-selection.js';
