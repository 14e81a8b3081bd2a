/**
 * Shapes of `docket replay` (docs/replay.md): what replay needs from the outside world (functions,
 * never I/O of its own) and what it reports for each entry.
 */
import type { EntryKind, EvaluatorRef } from '../ledger/entries/entry-types.js';
import type { TrustPolicy } from '../ledger/trust-policy/trust-policy.js';
import type { EvaluationTrace } from '../evaluate/types.js';
import type { LoadedGraph } from '../admission/index.js';

export type ReplayResult = 'replay-match' | 'replay-mismatch' | 'not-replayable';

/** Why an entry could not be replayed. Stable codes (docs/replay.md "Reason codes"). */
export type NotReplayableReason =
  /** No entry is stored at the position asked for. */
  | 'entry-absent'
  /** The stored entry does not verify under the trust policy (its verify status is in `detail`). */
  | 'entry-fails-verification'
  /** The request archive no longer holds the bytes the entry's request digest names (purged, or never retained). */
  | 'request-purged'
  /** A `request-too-large` refusal: the pipeline never retains such requests (docs/replay.md "Size limit"). */
  | 'request-not-retained'
  /** The retained request bytes do not hash to the entry's request digest. */
  | 'request-digest-mismatch'
  /** The registry holds no bytes for the recorded pack digest. */
  | 'pack-missing'
  /** The registry's bytes for the recorded pack digest do not hash to it. */
  | 'pack-digest-mismatch'
  /** The registry's item for the alias the request names holds no valid digest (ADR 0485). */
  | 'alias-corrupt'
  /** The entry names another evaluator (name or version) than the one running (ADR 0100). */
  | 'evaluator-identity-differs'
  /** The entry (format /2) records a draft feature this evaluator does not implement (ADR 0223). */
  | 'draft-feature-unknown'
  /** A refusal that depended on registry content which has changed since (a pack or alias published later; ADR 0101). */
  | 'registry-state-changed'
  /** A refusal that depended on deployment settings the entry does not record (ADR 0101). */
  | 'refusal-depends-on-deployment'
  /** The registry holds no published graph for the recorded graph digest, or replay was given no graph fetcher (ADR 0361). */
  | 'graph-missing'
  /** The registry's graph is not the closed set its closure pins (a member missing or differing, ADR 0340). */
  | 'graph-not-closed';

/** Bytes a fetcher found, none (`null`: never stored or purged), or bytes the store itself refused as corrupt. */
export type Retained = Uint8Array | null | { readonly corrupt: string };

/** Where replay gets the bytes an entry names by digest. Each is content-addressed by SHA-256 (lowercase hex). */
export interface ReplayFetchers {
  /** The exact request bytes retained in the request archive. */
  requestBytes(digestHex: string): Promise<Retained>;
  /** The exact pack bytes in the pack registry. */
  packBytes(digestHex: string): Promise<Retained>;
  /**
   * `id@version` → digest hex, null (aliases are immutable once published, ADR 0062), or the registry's own integrity
   * refusal of an alias item that holds no valid digest (ADR 0485).
   */
  resolveAlias(alias: string): Promise<string | null | { readonly corrupt: string }>;
  /**
   * The published graph a closure digest (hex, ADR 0450) names, with its closure and every member's exact bytes
   * (ADR 0340), null when none is published, or the
   * registry's own integrity refusal. Replay re-checks the closed set itself. Absent: graph runs are `graph-missing`.
   */
  publishedGraph?(digestHex: string): Promise<LoadedGraph | null | { readonly corrupt: string }>;
  /** A graph alias `id@version` → digest hex, null, or the registry's own integrity refusal of the alias item. */
  resolveGraphAlias?(alias: string): Promise<string | null | { readonly corrupt: string }>;
}

export interface ReplayOptions {
  readonly policy: TrustPolicy;
  readonly fetch: ReplayFetchers;
  /** The evaluator doing the replay (EVALUATOR_IDENTITY plus this build's digest). */
  readonly evaluator: EvaluatorRef;
  /** Replay entries recorded by another evaluator name/version too, marking them (ADR 0100). Default false. */
  readonly acrossEvaluators?: boolean;
  /** The deployment's maximum work budget, when known: lets a `work-budget-out-of-range` refusal be re-judged. */
  readonly maxWorkBudget?: number;
  /**
   * Return the replayed evaluation's §8.3 diagnostic trace beside the outcome (the console shows which rules
   * fired). The trace changes no verdict. Default false: `docket replay` prints no trace.
   */
  readonly trace?: boolean;
}

/** One recorded member that the replay did not reproduce. */
export interface Difference {
  readonly member: string;
  readonly recorded: unknown;
  readonly replayed: unknown;
}

/** How the recorded evaluator compares to the running one (ADR 0100). */
export type EvaluatorComparison = 'same' | 'build-differs' | 'identity-differs';

/** The report for one entry: one JSON line of `docket replay`. */
export interface ReplayOutcome {
  /** null only for a request id that has no recorded position (`entry-absent`). */
  readonly logId: string | null;
  readonly seq: number | null;
  readonly requestId: string | null;
  readonly kind: EntryKind | null;
  readonly entryHash: string | null;
  readonly result: ReplayResult;
  readonly reason?: NotReplayableReason;
  readonly detail?: string;
  /** Present on replay-mismatch: every member that differed, in a fixed order. */
  readonly differs?: readonly Difference[];
  readonly work?: { readonly recorded: number; readonly replayed: number };
  readonly evaluator?: EvaluatorComparison;
  /** With `trace`: the replayed evaluation's trace, when the pack was evaluated. */
  readonly trace?: EvaluationTrace;
}

export interface ReplaySummary {
  readonly entries: number;
  readonly match: number;
  readonly mismatch: number;
  readonly notReplayable: number;
  /** Count per not-replayable reason, sorted by reason. */
  readonly reasons: Readonly<Record<string, number>>;
  readonly ok: boolean;
}
