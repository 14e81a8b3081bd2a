/**
 * The verdict of `verifyLedger` and its findings (docs/verify.md; docs/adr/0090-verify-findings-and-order.md).
 * Findings are structured values with stable codes and no free text, so a verdict is compared exactly (the tamper
 * corpus does) and is the same bytes on any machine.
 */

/**
 * Per-entry statuses in their fixed order (ADR 0090): an entry gets the FIRST status that applies, so an
 * entry with stacked defects always reports the same one. `ok` entries are counted, not listed.
 */
const ENTRY_CODES = [
  'malformed',
  'unsupported-version',
  'unknown-key',
  'key-not-valid-at-seq',
  'signature-mismatch',
  'misfiled',
  'projection-mismatch',
  'disposition-digest-mismatch',
  'evaluator-build-not-allowed',
  'draft-features-not-allowed',
] as const;
export const ENTRY_STATUS_ORDER = [...ENTRY_CODES, 'ok'] as const;
export type EntryStatus = (typeof ENTRY_STATUS_ORDER)[number];

/** Checkpoint statuses in their fixed order; only a checkpoint that is `ok` counts as an anchor. */
export const CHECKPOINT_CODES = [
  'checkpoint-malformed',
  'checkpoint-unsupported-version',
  'checkpoint-unknown-key',
  'checkpoint-key-not-valid-at-seq',
  'checkpoint-signature-mismatch',
  'checkpoint-unauthorized-origin',
] as const;
export const CHECKPOINT_STATUS_ORDER = [...CHECKPOINT_CODES, 'ok'] as const;
export type CheckpointStatus = (typeof CHECKPOINT_STATUS_ORDER)[number];

export type EntryFinding = {
  readonly code: Exclude<EntryStatus, 'ok'>;
  /** Where the entry is stored (not what its body claims). */
  readonly logId: string;
  readonly seq: number;
};

export type CheckpointFinding = {
  readonly code: Exclude<CheckpointStatus, 'ok'>;
  /** As the checkpoint record names it (the body may be unreadable). */
  readonly logId: string;
  readonly treeSize: number;
};

export type LogFinding =
  /** The stored sequence numbers are not 0, 1, 2, …: `seq` is the stored seq found where `expectedSeq` was due. */
  | { readonly code: 'sequence-broken'; readonly logId: string; readonly seq: number; readonly expectedSeq: number }
  /** Entry `seq`'s prevHash is not the entry hash of the entry stored at seq−1. */
  | { readonly code: 'chain-broken'; readonly logId: string; readonly seq: number }
  /** An anchor's chainHead is not the entry hash of entry treeSize−1, although its root matches. */
  | { readonly code: 'head-mismatch'; readonly logId: string; readonly treeSize: number }
  /** The request id of entry (logId, seq) was already recorded at (firstLogId, firstSeq). */
  | {
      readonly code: 'duplicate-request';
      readonly logId: string;
      readonly seq: number;
      readonly requestId: string;
      readonly firstLogId: string;
      readonly firstSeq: number;
    }
  /**
   * Entry (logId, seq) records another meaning for a pack or graph `name` ("pack <id>@<version>", "graph
   * <id>@<version>") than the first entry recording it, at (firstLogId, firstSeq): the registry was rebound (ADR 0450).
   */
  | {
      readonly code: 'meaning-rebound';
      readonly logId: string;
      readonly seq: number;
      readonly name: string;
      readonly firstLogId: string;
      readonly firstSeq: number;
    }
  /**
   * Entry (logId, seq) is a refusal only a rewritten registry causes: `graph-closure-mismatch` (a rewritten closure,
   * ADR 0450), `pack-unreadable` or `alias-unreadable` (an item the publisher never writes, ADR 0485).
   */
  | { readonly code: 'registry-rewritten'; readonly logId: string; readonly seq: number }
  /** A position marker names (logId, seq) for a request, but no entry is stored there. */
  | {
      readonly code: 'position-without-entry';
      readonly logId: string;
      readonly seq: number;
      readonly requestId: string;
    }
  /** A position marker names (logId, seq) for a request, but the entry stored there records another request. */
  | { readonly code: 'position-mismatch'; readonly logId: string; readonly seq: number; readonly requestId: string };

export type AnchorFinding =
  /** A log with no anchor: not listed by the trust policy (`missing: policy`) or without a valid checkpoint (`missing: checkpoint`). */
  | { readonly code: 'unregistered-log'; readonly logId: string; readonly missing: 'policy' | 'checkpoint' }
  /** A valid checkpoint of a non-empty tree names a log the ledger does not hold at all. */
  | { readonly code: 'anchored-log-missing'; readonly logId: string; readonly treeSize: number }
  /** The log holds fewer entries (`entries`) than a valid checkpoint's tree size. */
  | { readonly code: 'tail-rollback'; readonly logId: string; readonly treeSize: number; readonly entries: number }
  /** The RFC 9162 root over the log's first treeSize stored entries differs from the checkpoint's root. */
  | { readonly code: 'root-mismatch'; readonly logId: string; readonly treeSize: number }
  /** Two valid checkpoints are not consistent: the later one matches the ledger, the earlier one is not its prefix. */
  | {
      readonly code: 'checkpoint-inconsistent';
      readonly logId: string;
      readonly treeSize: number;
      readonly laterTreeSize: number;
    }
  /** Two valid checkpoints for the same log and tree size state different roots or chain heads. */
  | { readonly code: 'checkpoint-equivocation'; readonly logId: string; readonly treeSize: number }
  /** With witnesses: a checkpoint a quorum cosigned is not a prefix of the ledger (fewer entries, or another root). */
  | { readonly code: 'rollback'; readonly logId: string; readonly treeSize: number; readonly entries: number }
  /** With witnesses: the newest checkpoint a quorum cosigned was cosigned before `now − maxAgeSeconds`. */
  | { readonly code: 'stale-anchor'; readonly logId: string; readonly treeSize: number; readonly witnessedAt: number }
  /** With witnesses: the log's newest checkpoint (`treeSize`) has no quorum of cosignatures. */
  | { readonly code: 'unwitnessed-anchor'; readonly logId: string; readonly treeSize: number };

export type Finding = EntryFinding | CheckpointFinding | LogFinding | AnchorFinding;

/** What was checked, so an auditor sees what an `ok` rests on (never compared by the corpus). */
export interface VerifySummary {
  readonly mode: 'checkpoint' | 'all-signatures';
  readonly logs: number;
  readonly entries: number;
  readonly entrySignaturesChecked: number;
  readonly checkpoints: number;
  /** Per log: the largest valid checkpoint whose root matches the ledger (the anchor the verdict rests on). */
  readonly anchors: readonly { readonly logId: string; readonly treeSize: number; readonly time: string }[];
}

export interface Verdict {
  readonly ok: boolean;
  readonly findings: readonly Finding[];
  readonly summary: VerifySummary;
}

/** No verdict could be reached (exit 2): a read cut short, an unreadable export, policy or checkpoint file. */
export interface NoVerdict {
  readonly code:
    | 'store-read-incomplete'
    | 'export-unreadable'
    | 'policy-unreadable'
    | 'checkpoints-unreadable'
    | 'markers-unreadable'
    | 'witness-policy-unreadable'
    | 'notes-unreadable';
  readonly detail: string;
}

/**
 * Every finding code `verify` reports: ONE closed list in verdict order (checkpoint, entry, log, anchor findings).
 * The type is derived from it, `groupOf` maps it exhaustively, the Finding union must use exactly these codes (the
 * assignment below does not compile otherwise), and docs/verify.md documents each (test/verify/finding-codes.test.ts).
 */
export const VERIFY_FINDING_CODES = [
  ...CHECKPOINT_CODES,
  ...ENTRY_CODES,
  'sequence-broken',
  'chain-broken',
  'duplicate-request',
  'meaning-rebound',
  'registry-rewritten',
  'position-without-entry',
  'position-mismatch',
  'unregistered-log',
  'anchored-log-missing',
  'tail-rollback',
  'root-mismatch',
  'head-mismatch',
  'checkpoint-inconsistent',
  'checkpoint-equivocation',
  'rollback',
  'stale-anchor',
  'unwitnessed-anchor',
] as const;
export type FindingCode = (typeof VERIFY_FINDING_CODES)[number];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compile-time: the codes the Finding union carries are exactly the closed list. */
export const FINDING_CODES_CLOSED: Same<Finding['code'], FindingCode> = true;

/** Where the entry, log and anchor groups start in the closed list, which is in verdict order (ADR 0090). */
const GROUP_STARTS: readonly FindingCode[] = ['malformed', 'sequence-broken', 'unregistered-log'];
const GROUPS = new Map(
  VERIFY_FINDING_CODES.map((c, i) => [c, GROUP_STARTS.filter((s) => VERIFY_FINDING_CODES.indexOf(s) <= i).length]),
);

/** The verdict group of a code: checkpoint 0, entry 1, log 2, anchor 3 (ADR 0090). */
export const groupOf = (code: FindingCode): 0 | 1 | 2 | 3 => GROUPS.get(code) as 0 | 1 | 2 | 3;

const at = (f: Finding): number => ('seq' in f ? f.seq : 'treeSize' in f ? f.treeSize : -1);

/** The one order of findings in a verdict: log id, then checkpoint / entry / log / anchor findings, then position, code. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.logId !== b.logId) return a.logId < b.logId ? -1 : 1;
  const g = groupOf(a.code) - groupOf(b.code);
  if (g !== 0) return g;
  const p = at(a) - at(b);
  if (p !== 0) return p;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  const ja = JSON.stringify(a);
  const jb = JSON.stringify(b);
  return ja < jb ? -1 : ja > jb ? 1 : 0;
}
