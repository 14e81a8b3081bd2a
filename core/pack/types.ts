/**
 * Public value types of pack document conformance (Core §§2.1, 3.1–3.3.1, 4.1, 11). Shapes only.
 */
import type { JsonObject } from '../carrier/json-value.js';
import type { CarrierLimits } from '../carrier/index.js';
import type { DraftFeature } from './draft-features.js';

/** §11: the exact selectors this reader dispatches on. Anything else is refused. */
export type SpecVersion = '0.3.0' | '0.2.0-draft';
/** §4.1 document ceiling profiles. */
export type Profile = 'base' | 'extended';

/** The first failing layer (carrier → structural → semantic), or `valid`. */
export type ConformanceClass = 'valid' | 'carrier' | 'structural' | 'semantic';

export interface Diagnostic {
  /** Stable machine code (core/pack/codes.ts; carrier failures carry the carrier's own code). */
  readonly code: string;
  readonly severity: 'error' | 'warning';
  /** RFC 6901 pointer into the pack document, when the finding has a location. */
  readonly pointer?: string;
  /** For people; never compared. */
  readonly message: string;
  readonly [member: string]: unknown;
}

export interface ValidatedPack {
  readonly specVersion: SpecVersion;
  /** The selected profile: the declared one, or `base` when absent (§4.1). The document itself is never edited. */
  readonly profile: Profile;
  /** The carrier tree (exact number lexemes, Map members). */
  readonly document: JsonObject;
  /** Plain JS projection of `document` (toPlain): convenient to read, lossy for numbers beyond double precision. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly plain: any;
  /** The exact bytes validated (digest and identity use these, §4.1). */
  readonly bytes: Uint8Array;
  /** Draft features enabled when it was validated (present only when some were; ADR 0190). */
  readonly draftFeatures?: readonly DraftFeature[];
}

export interface PackValidation {
  readonly conformant: boolean;
  readonly class: ConformanceClass;
  readonly diagnostics: readonly Diagnostic[];
  /** Present iff conformant. */
  readonly pack?: ValidatedPack;
}

export interface ValidatePackOptions {
  /** §3.3.1 strict mode: an exact, non-empty rule overlap is an error (docs/adr/0022-strict-overlap-verdict.md). */
  readonly strict?: boolean;
  /** §4.1 profiles this reader admits. Default: both (`SUPPORTED_PROFILES`). */
  readonly supportedProfiles?: ReadonlySet<Profile> | readonly Profile[];
  /**
   * Run the §3.3.1 overlap lint (default true). It cannot change a non-strict verdict, so a caller that only needs
   * conformance (the evaluator's preflight) may skip it; it always runs under `strict`.
   */
  readonly overlapCheck?: boolean;
  /** Carrier limits (§10); defaults are the carrier's documented ones. */
  readonly limits?: Partial<CarrierLimits>;
  /** Draft grammar the caller explicitly enables (docs/adr/0190-draft-feature-opt-in.md). Default: none. */
  readonly draftFeatures?: ReadonlySet<DraftFeature> | readonly DraftFeature[];
  /** The most JSON values the pack may hold (§10, ADR 0202); default MAX_PACK_VALUES. Benches raise it. */
  readonly maxValues?: number;
}
