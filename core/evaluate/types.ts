/**
 * The evaluator's public value types: its inputs (§8.2), its one portable result (§8.3) and the errors that replace a
 * result (§8.4). Shapes only; behaviour lives in the files named for it.
 */
import type { JsonValue } from '../carrier/json-value.js';

/** §8 reason vocabulary: the five generated reasons (= escalation triggers) plus exception-escalation. */
export type TriggerReason = 'not-applicable' | 'missing-required-evidence' | 'unknown' | 'conflict' | 'no-match';
export type Reason = TriggerReason | 'exception-escalation';

export const TRIGGER_REASONS: readonly TriggerReason[] = [
  'not-applicable',
  'missing-required-evidence',
  'unknown',
  'conflict',
  'no-match',
];
export const REASONS: readonly Reason[] = [...TRIGGER_REASONS, 'exception-escalation'];

/** §6.7 target shape (a display name, never an address). */
export interface HandoffTarget {
  readonly kind: 'human-role' | 'queue' | 'system';
  readonly name: string;
}

/** §8.3 handoff member. */
export interface Handoff {
  readonly state: 'none' | 'requested';
  readonly triggeredBy?: readonly Reason[];
  readonly routes?: readonly HandoffTarget[];
}

/** §8.3 the portable disposition: these members and no others. */
export type Disposition =
  | {
      readonly kind: 'outcome';
      readonly outcomeId: string;
      readonly reasons: readonly Reason[];
      readonly handoff: Handoff;
    }
  | { readonly kind: 'not-applicable' | 'unresolved'; readonly reasons: readonly Reason[]; readonly handoff: Handoff };

/**
 * §8.4 Core classes, in precedence order: the one closed list. The type, the ledger's check and the ledger entry
 * schema's enum derive from it (test/ledger/closed-lists.test.ts).
 */
export const EVALUATION_ERROR_CLASSES = [
  'pack-not-conformant',
  'malformed-input',
  'unsupported-required-extension',
  'resource-exhaustion',
] as const;
export type EvaluationErrorClass = (typeof EVALUATION_ERROR_CLASSES)[number];

export interface EvaluationError {
  readonly class: EvaluationErrorClass;
  /** preflight = §8.2 admission; evaluation = §8 steps under the work budget. */
  readonly phase: 'preflight' | 'evaluation';
  /** Stable machine code; the list is docs/adr/0035-evaluation-error-codes.md. */
  readonly code: string;
  readonly message: string;
}

/** §8.2 inputs other than the pack. Documents are exact bytes: the evaluator reads them with the strict carrier. */
export interface EvaluationInput {
  readonly facts: Uint8Array;
  /** Omitted = the implicit empty object (§8.2): every declared requirement unknown. */
  readonly evidence?: Uint8Array;
  readonly supportedExtensions: ReadonlySet<string>;
  /** Work units (RFC 0008 Limit accounting). Default DEFAULT_WORK_BUDGET; 1..MAX_WORK_BUDGET. */
  readonly workBudget?: number;
  /** When true a diagnostic trace is returned beside (never inside) the disposition (§8.3). */
  readonly trace?: boolean;
}

/**
 * EvaluationInput with facts and evidence already read by the strict carrier (§2.1) under the pack's own contract
 * (ADR 0030) and within the default carrier limits: exactly the trees `readJson` yields for their bytes (ADR 0200).
 */
export interface ParsedEvaluationInput extends Omit<EvaluationInput, 'facts' | 'evidence'> {
  readonly facts: JsonValue;
  readonly evidence?: JsonValue;
}

export type EvaluationResult =
  | {
      readonly kind: 'disposition';
      readonly disposition: Disposition;
      readonly bytes: string;
      readonly work: number;
      readonly trace?: EvaluationTrace;
    }
  | { readonly kind: 'error'; readonly error: EvaluationError; readonly work: number };

/** Three-valued condition result (§7). */
export type Truth = 'true' | 'false' | 'unknown';

/** Diagnostic trace (§8.3 permits one outside the disposition; its content changes no member of it). */
export interface EvaluationTrace {
  readonly applicability: Truth | 'omitted';
  readonly requiredEvidence: { readonly missing: readonly string[]; readonly unknown: readonly string[] };
  readonly exceptions: readonly {
    readonly id: string;
    readonly value: Truth;
    readonly effect: string;
    readonly onUnknown: string;
  }[];
  readonly rules: readonly {
    readonly id: string;
    readonly value: Truth | 'suppressed';
    readonly outcome: string;
    readonly onUnknown: string;
  }[];
  /** The step at which §8 terminated, e.g. "1-not-applicable", "5-blocked", "6-forced-outcome", "9-outcome". */
  readonly terminatedAt: string;
}
