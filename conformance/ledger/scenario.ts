/**
 * One ledger conformance scenario: a ledger, a policy, checkpoints and the findings verify must report. Its own file
 * so the scenario lists (scenarios.ts, trust-scenarios.ts, draft-scenarios.ts) share the shape without importing
 * one another in a cycle.
 */
import type { Position, StoredCheckpoint } from '../../core/ledger/store/store.js';
import type { Finding, NoVerdict } from '../../core/ledger/verify/findings.js';
import type { Rec } from './fixtures.js';

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly ledger: readonly Rec[];
  readonly policy: string;
  readonly checkpoints: readonly StoredCheckpoint[];
  readonly markers?: readonly Position[];
  /** Raw export text when the scenario is about the file itself (e.g. truncated). */
  readonly ledgerText?: string;
  readonly checkpointsTextOverride?: string;
  /** Findings on the checkpoint path, or the no-verdict code. */
  readonly expected: readonly Finding[] | { readonly noVerdict: NoVerdict['code'] };
  /** Findings with every signature checked, when they differ from the checkpoint path's. */
  readonly expectedAllSignatures?: readonly Finding[];
}
