/** core/replay: byte-for-byte replay of ledger entries (docs/replay.md). Pure: bytes come through fetchers. */
export { replayLedger, summarize, ReplayTally, type ReplaySelection } from './replay-ledger.js';
export { replayStoredEntry } from './replay-entry.js';
export { replayContext, type ReplayContext } from './replay-context.js';
export { compareEvaluator } from './evaluator.js';
export { fetchPack, type Fetched } from './fetch.js';
export { outcomeLine, summaryLine } from './report.js';
export {
  type NotReplayableReason,
  type ReplayResult,
  type ReplayOutcome,
  type ReplaySummary,
  type ReplayOptions,
  type ReplayFetchers,
  type Retained,
  type Difference,
  type EvaluatorIdentity,
  type EvaluatorComparison,
} from './types.js';
