/** core/replay: byte-for-byte replay of ledger entries (docs/replay.md). Pure: bytes come through fetchers. */
export { replayLedger, ReplayTally, type ReplaySelection } from './replay-ledger.js';
export { fetchPack } from './fetch.js';
export { outcomeLine, summaryLine } from './report.js';
export { type ReplayOutcome, type ReplayFetchers, type Retained } from './types.js';
