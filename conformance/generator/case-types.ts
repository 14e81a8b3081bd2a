import type { Json, Raw } from './builders.js';

/** A pack used by evaluation cases, written once to evaluation/packs/<name>.json. */
export interface PackRef {
  readonly name: string;
  readonly doc: Record<string, Json> | Raw;
}

export type Expectation =
  | { readonly disposition: Record<string, Json> }
  | {
      readonly errorClass:
        'pack-not-conformant' | 'malformed-input' | 'unsupported-required-extension' | 'resource-exhaustion';
      readonly errorPhase: 'preflight' | 'evaluation';
    };

/** One evaluation case (§3.4.1 case carrier). Inline JSON inputs are serialized compactly; Raw inputs become files. */
export interface EvalCaseDef {
  readonly id: string;
  readonly description: string;
  readonly pack: PackRef;
  readonly facts: Json | Raw;
  /** Omitted = the evidence-availability document is absent (§8.2). */
  readonly evidence?: Json | Raw;
  readonly supportedExtensions?: readonly string[];
  readonly workBudget?: number;
  readonly expect: Expectation;
}

/** One document-conformance case (§§3.1–3.3). */
export interface DocCaseDef {
  readonly id: string;
  readonly description: string;
  readonly document: Json | Raw;
  readonly expectedConformant: boolean;
  /** The first failing layer, or valid; omitted where the spec names no layer. */
  readonly expectedClass?: 'valid' | 'carrier' | 'structural' | 'semantic';
  /** The class under strict validation (§3.3.1), when it differs. */
  readonly expectedStrictClass?: 'valid' | 'carrier' | 'structural' | 'semantic';
  /** Spec-defined diagnostic codes that must be reported (e.g. JPS-RULES-OVERLAP). */
  readonly expectedCodes?: readonly string[];
  /** §4.1: profiles the reader supports for this case; default both. */
  readonly readerProfiles?: readonly ('base' | 'extended')[];
  /** Exact diagnostics (code + the named members) the spec prescribes, e.g. profile-unsupported. */
  readonly expectedDiagnostics?: readonly Record<string, Json>[];
}
