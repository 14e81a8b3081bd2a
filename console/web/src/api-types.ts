/**
 * The console's JSON API as the page reads it (served by cli/console/server.ts; docs/console.md "API"). The page
 * may import only core/ (ADR 0181), so the shapes are restated here; every value in them came from the ledger and is
 * untrusted text, rendered only through Lit's escaping bindings.
 */
export interface EntrySummary {
  readonly logId: string;
  readonly seq: number;
  readonly requestId: string;
  readonly kind: string;
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

export interface CheckpointView {
  readonly logId: string;
  readonly treeSize: number;
  readonly time: string | null;
  readonly rootHash: string | null;
  readonly chainHead: string | null;
  readonly keyId: string | null;
  readonly status: string;
}

export interface Series {
  readonly name: string;
  readonly counts: readonly number[];
}

export interface Overview {
  readonly source: string;
  readonly entries: number;
  readonly logs: readonly {
    readonly logId: string;
    readonly entries: number;
    readonly head: { readonly seq: number; readonly entryHash: string; readonly time: string | null } | null;
    readonly checkpoint: CheckpointView | null;
    readonly witnesses: { readonly treeSize: number; readonly cosignatures: number } | null;
  }[];
  readonly retention: string;
  readonly witnessPolicy: WitnessPolicySummary | null;
}

export interface WitnessPolicySummary {
  readonly quorum: number;
  readonly witnesses: readonly string[];
  readonly maxAgeSeconds: number;
}

export interface WitnessView {
  readonly policy: WitnessPolicySummary | null;
  readonly now?: number;
  readonly logs?: readonly {
    readonly logId: string;
    readonly newest: {
      readonly treeSize: number;
      readonly witnessed: boolean;
      readonly witnessedAt: number | null;
      readonly cosigners: readonly string[];
    } | null;
    readonly meetsPolicy: boolean;
  }[];
  readonly verdict?:
    | { readonly ok: true; readonly findings: readonly Finding[] }
    | { readonly ok: false; readonly noVerdict: { readonly code: string; readonly detail: string } };
}

export interface OverviewChart {
  readonly indexed: number;
  readonly chart: {
    readonly start: string | null;
    readonly end: string | null;
    readonly bucketSeconds: number;
    readonly byKind: readonly Series[];
    readonly byPack: readonly Series[];
  };
}

export interface ProofStep {
  readonly sibling: string;
  readonly side: 'left' | 'right';
  readonly result: string;
}

export interface Inclusion {
  readonly checkpoint: CheckpointView;
  readonly leafIndex: number;
  readonly leafHash: string;
  readonly steps: readonly ProofStep[];
  readonly verified: boolean;
}

/** The signed entry as docs/ledger-format.md defines it; read loosely (the server already parsed it strictly). */
export interface Entry {
  readonly kind: 'disposition' | 'evaluation-error' | 'admission-refusal';
  readonly logId: string;
  readonly seq: number;
  readonly prevHash: string | null;
  readonly requestId: string;
  readonly requestDigest: string;
  readonly correlation: Readonly<Record<string, string>> | null;
  readonly pack: { readonly id?: string; readonly version?: string; readonly digest: string } | null;
  readonly specVersion: string | null;
  readonly factsDigest: string | null;
  readonly evidenceDigest: string | null;
  readonly workBudget: number | null;
  readonly work: number;
  readonly evaluator: { readonly name: string; readonly version: string; readonly buildDigest: string };
  readonly time: string;
  readonly keyId: string;
  readonly signature: string;
  readonly dispositionDigest?: string;
  readonly disposition?: {
    readonly kind: string;
    readonly outcomeId?: string;
    readonly reasons: readonly string[];
    readonly handoff: {
      readonly state: string;
      readonly triggeredBy?: readonly string[];
      readonly routes?: readonly { readonly kind: string; readonly name: string }[];
    };
  };
  readonly error?: { readonly class: string; readonly phase: string; readonly code: string; readonly message: string };
  readonly refusal?: { readonly code: string; readonly message: string };
}

export interface EntryDetail {
  readonly logId: string;
  readonly seq: number;
  readonly entryHash: string;
  readonly body: string;
  readonly entry: Entry | null;
  readonly unreadable: { readonly code: string; readonly detail: string } | null;
  readonly signature: string | null;
  readonly inclusion: Inclusion | { readonly covered: false; readonly checkpoint: CheckpointView } | null;
  readonly duplicates: readonly { readonly logId: string; readonly seq: number }[];
  readonly policyProblem: string | null;
}

export interface ReplayOutcome {
  readonly result: 'replay-match' | 'replay-mismatch' | 'not-replayable';
  readonly reason?: string;
  readonly detail?: string;
  readonly differs?: readonly { readonly member: string; readonly recorded: unknown; readonly replayed: unknown }[];
  readonly work?: { readonly recorded: number; readonly replayed: number };
  readonly evaluator?: string;
}

export type ReplayView =
  | { readonly available: true; readonly outcome: ReplayOutcome; readonly compared: readonly string[] }
  | { readonly available: false; readonly reason: string };

export interface Finding {
  readonly code: string;
  readonly logId: string;
  readonly seq?: number;
  readonly treeSize?: number;
  readonly entryRequestId: string | null;
  readonly [member: string]: unknown;
}

export interface Verdict {
  readonly ok: boolean;
  readonly findings: readonly Finding[];
  readonly summary: {
    readonly mode: string;
    readonly logs: number;
    readonly entries: number;
    readonly entrySignaturesChecked: number;
    readonly checkpoints: number;
    readonly anchors: readonly { readonly logId: string; readonly treeSize: number; readonly time: string }[];
  };
}

export interface PackItem {
  readonly id: string;
  readonly description: string | null;
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
      readonly fired:
        | {
            readonly known: true;
            readonly replay: string;
            readonly terminatedAt: string;
            readonly rules: readonly string[];
            readonly exceptions: readonly string[];
          }
        | { readonly known: false; readonly reason: string };
    };

export interface HandoffsView {
  readonly none: string | null;
  readonly routes: string;
  readonly handoffs: readonly {
    readonly routeIndex: number;
    readonly shape: string;
    readonly routeKey: string | null;
    readonly destination: string | null;
    readonly queue: string | null;
    readonly handoffId: string;
    readonly bytes: number;
    readonly depth: { readonly visible: number; readonly inFlight: number } | null;
  }[];
}
