/** What one replay run carries from entry to entry, and the verdict shape each rule returns (docs/replay.md). */
import { PackCache } from './fetch.js';
import { canonicalText } from '../ledger/primitives/canonical.js';
import type { Difference, ReplayOptions, ReplayOutcome } from './types.js';

export interface ReplayContext {
  readonly options: ReplayOptions;
  readonly packs: PackCache;
}

export function replayContext(options: ReplayOptions): ReplayContext {
  return { options, packs: new PackCache(options.fetch) };
}

/** A verdict before the entry's identification is attached. */
export type Verdict = Pick<ReplayOutcome, 'result' | 'reason' | 'detail' | 'differs' | 'work' | 'trace'>;

export const match: Verdict = { result: 'replay-match', work: { recorded: 0, replayed: 0 } };
export const mismatch = (differs: Difference[]): Verdict => ({ result: 'replay-mismatch', differs });
export const changed = (detail: string): Verdict => ({
  result: 'not-replayable',
  reason: 'registry-state-changed',
  detail,
});
export const dependsOnDeployment = (detail: string): Verdict => ({
  result: 'not-replayable',
  reason: 'refusal-depends-on-deployment',
  detail,
});

/** Strings, integers and null compare directly; objects (correlation, pins) by their RFC 8785 text. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalText(a) === canonicalText(b);
}
