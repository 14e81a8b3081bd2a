/**
 * The audit console's JSON API (docs/console.md "API"), one module that the server (cli/console/) and the page
 * (console/web/) both import, so the two cannot drift apart (ADR 0234). Types only; it imports nothing but core.
 * Every string in these values came from the ledger, a pack or a queue name: untrusted text, which the page renders
 * only through escaping bindings (ADR 0184).
 */
import type {
  ArchiveSummary,
  Finding,
  NewestClaim,
  NoVerdict,
  RequestWithoutEntryFinding,
  SignedEntry,
  Verdict,
} from '../ledger/index.js';
import type { ReplayOutcome } from '../replay/types.js';

/** One row of the entries list: what an auditor filters and searches by, as the entry states it. */
export interface EntrySummary {
  readonly logId: string;
  readonly seq: number;
  readonly requestId: string;
  /** The entry's kind, or `unreadable` when its stored bytes are not an entry (the projection's request id is kept). */
  readonly kind: 'disposition' | 'evaluation-error' | 'admission-refusal' | 'graph-run' | 'unreadable';
  /** `outcome` | `no-match` | … for a disposition; the error class or refusal code otherwise. */
  readonly result: string | null;
  readonly outcomeId: string | null;
  readonly packId: string | null;
  readonly packVersion: string | null;
  readonly packDigest: string | null;
  readonly correlation: Readonly<Record<string, string>> | null;
  readonly time: string | null;
  readonly entryHash: string;
}

export interface EntryPage {
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  readonly entries: readonly EntrySummary[];
}

export type CheckpointStatus =
  'ok' | 'malformed' | 'no-policy' | 'unknown-key' | 'key-not-valid-at-seq' | 'bad-signature';

export interface CheckpointView {
  readonly logId: string;
  readonly treeSize: number;
  readonly time: string | null;
  readonly rootHash: string | null;
  readonly chainHead: string | null;
  readonly keyId: string | null;
  readonly status: CheckpointStatus;
}

export interface Series {
  readonly name: string;
  readonly counts: readonly number[];
}

export interface Overview {
  readonly source: string;
  /** The sum of the logs' `entries`. */
  readonly entries: number;
  readonly logs: readonly {
    readonly logId: string;
    /** The head's seq + 1: the entries the log claims (ADR 0230; verify judges gaps and repeats). */
    readonly entries: number;
    readonly head: { readonly seq: number; readonly entryHash: string; readonly time: string | null } | null;
    readonly checkpoint: CheckpointView | null;
    readonly witnesses: { readonly treeSize: number; readonly cosignatures: number } | null;
  }[];
  readonly retention: string;
  /** `docket console --witnesses`: the policy the witness section judges by; null when none was given. */
  readonly witnessPolicy: WitnessPolicySummary | null;
}

export interface Chart {
  readonly start: string | null;
  readonly end: string | null;
  readonly bucketSeconds: number;
  readonly byKind: readonly Series[];
  readonly byPack: readonly Series[];
}

/** `GET /api/overview/chart`: the charts, over the `indexed` entries the index holds. */
export interface OverviewChart {
  readonly indexed: number;
  readonly chart: Chart;
}

/** What the overview states about the witness policy without judging anything (`null`: none was given). */
export interface WitnessPolicySummary {
  readonly quorum: number;
  readonly witnesses: readonly string[];
  readonly maxAgeSeconds: number;
}

export interface WitnessLogView {
  readonly logId: string;
  /** Null when the log states no checkpoint at all (verify then reports unregistered-log, not a witness finding). */
  readonly newest: NewestClaim | null;
  /** `witnessed` and cosigned within maxAgeSeconds of `now`. */
  readonly meetsPolicy: boolean;
}

export type WitnessView =
  | { readonly policy: null }
  | {
      readonly policy: WitnessPolicySummary;
      /** The clock the judgement used (seconds since the epoch). */
      readonly now: number;
      readonly logs: readonly WitnessLogView[];
      /** The witness findings of the verify run, in verify's order; or why it reached no verdict. */
      readonly verdict:
        | { readonly ok: true; readonly findings: readonly Finding[] }
        | { readonly ok: false; readonly noVerdict: NoVerdict };
    };

export type SignatureStatus = 'ok' | 'no-policy' | 'unknown-key' | 'key-not-valid-at-seq' | 'signature-mismatch';

export interface ProofStep {
  /** The sibling subtree hash from the proof. */
  readonly sibling: string;
  /** Where the sibling sits: `left` means parent = H(0x01 ‖ sibling ‖ running). */
  readonly side: 'left' | 'right';
  /** The running hash after this step. */
  readonly result: string;
}

export interface InclusionView {
  readonly checkpoint: CheckpointView;
  readonly leafIndex: number;
  readonly leafHash: string;
  readonly steps: readonly ProofStep[];
  /** verifyInclusion against the checkpoint's root (RFC 9162 §2.1.3.2). */
  readonly verified: boolean;
}

export interface EntryDetail {
  readonly logId: string;
  readonly seq: number;
  readonly entryHash: string;
  readonly body: string;
  readonly entry: SignedEntry | null;
  readonly unreadable: { readonly code: string; readonly detail: string } | null;
  readonly signature: SignatureStatus | null;
  /** Null when the log has no checkpoint; `covered: false` when the newest checkpoint predates the entry. */
  readonly inclusion: InclusionView | { readonly covered: false; readonly checkpoint: CheckpointView } | null;
  /** Other entries recording the same request id (a duplicate is a verify finding). */
  readonly duplicates: readonly { readonly logId: string; readonly seq: number }[];
}

export type ReplayView =
  | { readonly available: true; readonly outcome: ReplayOutcome; readonly compared: readonly string[] }
  | { readonly available: false; readonly reason: string };

/** One rule (§6.5) or exception (§6.6) as the registered pack states it; `definition` is its JSON, as text. */
export interface PackItem {
  readonly id: string;
  readonly description: string | null;
  /** A rule's outcome, or an exception's effect (`suppress-rule <id>`, `force-outcome <id>`, `escalate`). */
  readonly yields: string;
  readonly definition: string;
}

export type PackRulesView =
  | { readonly registered: false; readonly reason: string }
  | {
      readonly registered: true;
      readonly digest: string;
      readonly rules: readonly PackItem[];
      readonly exceptions: readonly PackItem[];
      /** Which fired (value true in the replayed trace), or why that is not known. */
      readonly fired:
        | {
            readonly known: true;
            /** The replay's verdict: on a mismatch the trace is today's evaluation, not the recorded one. */
            readonly replay: ReplayOutcome['result'];
            /** The §8 step the evaluation stopped at (rules fire only from step 7 on). */
            readonly terminatedAt: string;
            readonly rules: readonly string[];
            readonly exceptions: readonly string[];
          }
        | { readonly known: false; readonly reason: string };
    };

/** The rules and exceptions that were true at one leaf of a graph run (from its §8.3 trace), with their definitions. */
export interface GraphLeafRules {
  readonly instancePath: string;
  /** The jpack.json decision id of the leaf's pack. */
  readonly pack: string;
  /** The §8 step the leaf's evaluation stopped at (rules fire only from step 7 on). */
  readonly terminatedAt: string;
  readonly rules: readonly PackItem[];
  readonly exceptions: readonly PackItem[];
}

/**
 * `GET /api/graph-rules/<request-id>`: which pack rules fired at each leaf of a graph-run entry, from a re-run of the
 * recorded request with traces (ADR 0371) — or why that is not known. Leaves are in the run's evaluation order.
 */
export type GraphRulesView =
  | { readonly known: false; readonly reason: string }
  | { readonly known: true; readonly leaves: readonly GraphLeafRules[] };

export interface HandoffView {
  readonly routeIndex: number;
  readonly shape: string;
  /** `<kind>:<name>` of the target, or null for a destinationless handoff. */
  readonly routeKey: string | null;
  /** `configured`, `unmapped-target` or `no-destination`; null when the route configuration is not known. */
  readonly destination: string | null;
  /** The queue the evaluate function sends it to; null when the route configuration is not known (files). */
  readonly queue: string | null;
  readonly handoffId: string;
  /** The message's size in bytes (RFC 8785 text). */
  readonly bytes: number;
  /** Approximate messages in that queue now (GetQueueAttributes), when read. */
  readonly depth: { readonly visible: number; readonly inFlight: number } | null;
  /** A graph run's handoff: the instance path of the leaf that requested it (ADR 0361). */
  readonly instancePath?: string;
}

export interface HandoffsView {
  /** Why no handoff was sent (the entry is not a disposition requesting one), or null. */
  readonly none: string | null;
  /** How the queues were named: the route configuration used, or why there is none. */
  readonly routes: string;
  readonly handoffs: readonly HandoffView[];
}

/** `GET /api/entry/<request-id>`: the entry detail and why the trust policy could not be read, if so. */
export type EntryDetailResponse = EntryDetail & { readonly policyProblem: string | null };

/**
 * A verify finding on `/api/verify`, linked to the request id of the entry it is about (null: none is). A request
 * without an entry (the archive cross-check over a stack) names its request, not a log position.
 */
export type LinkedFinding = (Finding | RequestWithoutEntryFinding) & { readonly entryRequestId: string | null };

/**
 * The `verdict` event of `GET /api/verify`: the `docket verify` verdict with its findings linked; over a stack it
 * carries the request archive cross-check as `docket verify` does (`summary.archive`).
 */
export type VerifyVerdict = Omit<Verdict, 'findings' | 'summary'> & {
  readonly findings: readonly LinkedFinding[];
  readonly summary: Verdict['summary'] & { readonly archive?: ArchiveSummary };
};
