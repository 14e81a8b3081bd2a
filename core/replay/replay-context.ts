/** What one replay run carries from entry to entry, and the verdict shape each rule returns (docs/replay.md). */
import { PackCache } from './fetch.js';
import type { ReplayOptions, ReplayOutcome } from './types.js';

export interface ReplayContext {
  readonly options: ReplayOptions;
  readonly packs: PackCache;
}

export function replayContext(options: ReplayOptions): ReplayContext {
  return { options, packs: new PackCache(options.fetch) };
}

/** A verdict before the entry's identification is attached. */
export type Verdict = Pick<ReplayOutcome, 'result' | 'reason' | 'detail' | 'differs' | 'work' | 'trace'>;
