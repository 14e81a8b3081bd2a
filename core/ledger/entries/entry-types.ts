/**
 * The ledger entry, formats "docket.ledger-entry/1", "/2" and "/3" (docs/ledger-format.md;
 * schema/ledger-entry.schema.json). Shapes only; invariants live in entry-rules.ts (graph runs: graph-run-rules.ts),
 * bytes in entry.ts.
 */
import type { Disposition, EvaluationErrorClass } from '../../evaluate/types.js';

export const ENTRY_FORMAT = 'docket.ledger-entry/1';
/** Version 1 plus `draftFeatures`: written only by an evaluator with draft features enabled (ADR 0220). */
export const ENTRY_FORMAT_V2 = 'docket.ledger-entry/2';
/**
 * The format of a graph run's entry (kind `graph-run`, and only that kind): a reader that predates graphs reports it
 * `unsupported-version`, never `malformed` (docs/adr/0360-graph-runs-in-the-pipeline.md).
 */
export const ENTRY_FORMAT_V3 = 'docket.ledger-entry/3';
export const ENTRY_FORMAT_PREFIX = 'docket.ledger-entry/';
/** Every entry format this reader reads; another version of the family is `unsupported-version`. */
export const ENTRY_FORMATS: readonly string[] = Object.freeze([ENTRY_FORMAT, ENTRY_FORMAT_V2, ENTRY_FORMAT_V3]);
export type EntryFormat = typeof ENTRY_FORMAT | typeof ENTRY_FORMAT_V2 | typeof ENTRY_FORMAT_V3;

/**
 * The format of an entry whose evaluator enabled these draft features: version 1 (byte-identical to every entry
 * written before version 2 existed) without any, version 2 with some (ADR 0220); a graph run is always version 3
 * (ADR 0360).
 */
export function entryFormatFor(draftFeatures: readonly string[] | undefined, kind?: EntryKind): EntryFormat {
  if (kind === 'graph-run') return ENTRY_FORMAT_V3;
  return draftFeatures !== undefined && draftFeatures.length > 0 ? ENTRY_FORMAT_V2 : ENTRY_FORMAT;
}

export type EntryKind = 'disposition' | 'evaluation-error' | 'admission-refusal' | 'graph-run';
export const ENTRY_KINDS: readonly EntryKind[] = ['disposition', 'evaluation-error', 'admission-refusal', 'graph-run'];

/** The pack the request named. `id`/`version` are present once the pack's bytes were found and read. */
export interface PackRef {
  readonly id?: string;
  readonly version?: string;
  /** SHA-256 (hex) of the exact pack bytes. */
  readonly digest: string;
}

export interface EvaluatorRef {
  readonly name: string;
  readonly version: string;
  /** SHA-256 (hex) identifying the deployed evaluator build (e.g. of its bundle). */
  readonly buildDigest: string;
}

/** Core §8.4 error as recorded. `message` is capped (ENTRY_LIMITS.errorMessageBytes); see capErrorMessage. */
export interface EntryError {
  readonly class: EvaluationErrorClass;
  readonly phase: 'preflight' | 'evaluation';
  readonly code: string;
  readonly message: string;
}

/** Why our own admission refused the request before evaluation (docs/adr/0052-admission-refusals-and-absent-members.md). */
export const REFUSAL_CODES = [
  'request-malformed',
  'request-too-large',
  'unsupported-request-format',
  'unknown-pack-digest',
  'unknown-pack-alias',
  'work-budget-out-of-range',
  'entry-would-not-fit',
  'graphs-not-enabled',
  'unknown-graph-digest',
  'unknown-graph-alias',
  'graph-unreadable',
  'graph-closure-mismatch',
  'pack-unreadable',
  'alias-unreadable',
] as const;
/**
 * The one closed list above is the type. Its consumers handle every code or fail to compile: admission gives each its
 * check (`REFUSAL_STEP`, core/admission/admit.ts), replay judges each (core/replay/refusal.ts); the schemas' enums
 * and docs/ledger-format.md's table are tested against it (ADR 0335).
 */
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface EntryRefusal {
  readonly code: RefusalCode;
  readonly message: string;
}

/** Members common to every kind. Absent-vs-null rules per kind are in docs/ledger-format.md. */
interface EntryCommon {
  readonly format: typeof ENTRY_FORMAT | typeof ENTRY_FORMAT_V2;
  readonly logId: string;
  readonly seq: number;
  /** Entry hash of entry seq−1 of the same log; null exactly when seq = 0. */
  readonly prevHash: string | null;
  readonly requestId: string;
  /** SHA-256 (hex) of the exact request bytes. */
  readonly requestDigest: string;
  /** Correlation metadata copied from the request (string values only), or null. */
  readonly correlation: Readonly<Record<string, string>> | null;
  readonly pack: PackRef | null;
  readonly specVersion: string | null;
  readonly factsDigest: string | null;
  readonly evidenceDigest: string | null;
  /** The deployed evaluator's supported extensions: sorted ascending (code units), duplicate-free. */
  readonly supportedExtensions: readonly string[];
  readonly workBudget: number | null;
  /**
   * Present exactly in format /2, never empty: the draft features the deployed evaluator enabled (ADR 0190), sorted
   * ascending, duplicate-free. A property of the deployment, like supportedExtensions (ADR 0220).
   */
  readonly draftFeatures?: readonly string[];
  /** Work units charged (RFC 0008 Limit accounting); 0 for an admission refusal. */
  readonly work: number;
  readonly evaluator: EvaluatorRef;
  /** RFC 3339 UTC time supplied by the caller (core has no clock). */
  readonly time: string;
  readonly keyId: string;
}

export interface DispositionEntryBody extends EntryCommon {
  readonly kind: 'disposition';
  readonly disposition: Disposition;
  /** SHA-256 (hex) of the RFC 8785 bytes of `disposition`. */
  readonly dispositionDigest: string;
}
export interface ErrorEntryBody extends EntryCommon {
  readonly kind: 'evaluation-error';
  readonly error: EntryError;
}
export interface RefusalEntryBody extends EntryCommon {
  readonly kind: 'admission-refusal';
  readonly refusal: EntryRefusal;
}

/** The published graph a run used (ADR 0340): the SHA-256 (hex) of its exact bytes, and its own id and version. */
export interface EntryGraphRef {
  readonly digest: string;
  readonly id: string;
  readonly version: string;
}

/**
 * One graph run (format /3, ADR 0360): the graph, its closed set, the digests of the exact inputs, the budget and the
 * work, and the run's answer as the exact text of the output contract (core/graph/output.ts, graph-semantics.md
 * "Output contract") — evaluated or refused. The pack-shaped members of the other kinds are absent (`?: never`, so
 * code reading them off any entry must handle their absence).
 */
export interface GraphRunEntryBody {
  readonly format: typeof ENTRY_FORMAT_V3;
  readonly kind: 'graph-run';
  readonly logId: string;
  readonly seq: number;
  readonly prevHash: string | null;
  readonly requestId: string;
  /** SHA-256 (hex) of the exact request bytes. */
  readonly requestDigest: string;
  readonly correlation: Readonly<Record<string, string>> | null;
  readonly graph: EntryGraphRef;
  /** The closure's packs (ADR 0340): jpack.json decision id → SHA-256 (hex) of the pack's exact bytes. */
  readonly packs: Readonly<Record<string, string>>;
  /** The closure's subgraphs: jpack.json graph name → SHA-256 (hex) of its exact bytes; `{}` for a flat graph. */
  readonly graphs: Readonly<Record<string, string>>;
  /** SHA-256 (hex) of the exact bytes of the request's `inputs` document, or null when it carries none (A10). */
  readonly inputsDigest: string | null;
  readonly supportedExtensions: readonly string[];
  /** Never empty, and always names `judgment-graphs`: the opt-in the run needed (ADR 0360). */
  readonly draftFeatures: readonly string[];
  readonly workBudget: number;
  /** RFC 0008 units the whole run used, refused runs included (ADR 0313). */
  readonly work: number;
  /** The output contract object's exact text, as `docket graph evaluate` prints it. */
  readonly run: string;
  readonly evaluator: EvaluatorRef;
  readonly time: string;
  readonly keyId: string;
  readonly pack?: never;
  readonly specVersion?: never;
  readonly factsDigest?: never;
  readonly evidenceDigest?: never;
}

/** An entry before signing (the signed message is its RFC 8785 bytes after the domain prefix). */
export type UnsignedEntry = DispositionEntryBody | ErrorEntryBody | RefusalEntryBody | GraphRunEntryBody;

/** An entry as stored: the unsigned members plus `signature` (hex of the 64-byte Ed25519 signature). */
export type SignedEntry = UnsignedEntry & { readonly signature: string };

/** Documented limits of the entry format (docs/ledger-format.md). */
export const ENTRY_LIMITS = Object.freeze({
  logIdBytes: 64,
  requestIdBytes: 256,
  correlationMembers: 16,
  correlationNameBytes: 64,
  correlationValueBytes: 256,
  packIdBytes: 256,
  packVersionBytes: 64,
  specVersionBytes: 32,
  extensionNameBytes: 256,
  supportedExtensions: 64,
  evaluatorNameBytes: 64,
  evaluatorVersionBytes: 64,
  errorCodeBytes: 64,
  errorMessageBytes: 1024,
  refusalMessageBytes: 1024,
  draftFeatureNameBytes: 64,
  draftFeatures: 16,
  /** Graph runs (ADR 0360): a graph id (any non-empty string, A1) and version; names of closure members. */
  graphIdBytes: 1024,
  graphVersionBytes: 64,
  closureNameBytes: 256,
  /** At most one pack and one subgraph per leaf instance (GRAPH_LIMITS: 256 leaves). */
  closureMembers: 256,
});
