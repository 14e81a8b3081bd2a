import type { JsonValue } from '../carrier/json-value.js';
import type { DispositionContext } from './disposition.js';
import type { DraftFeature } from '../pack/index.js';
import type { HandoffTarget, TriggerReason } from './types.js';

/** Condition node tags (§7). Plain numbers keep every compiled node one monomorphic shape. */
export const OP_LITERAL = 0;
export const OP_ALL = 1;
export const OP_ANY = 2;
export const OP_NOT = 3;
export const OP_FACT = 4;
export const OP_EVIDENCE = 5;
/** RFC 0008 draft aggregates (only reachable from a pack validated with the feature enabled). */
export const OP_EXISTS = 6;
export const OP_EVERY = 7;
export const OP_UNIFORM = 8;

/** §7.4 operators. */
export const CMP_EQ = 0;
export const CMP_NE = 1;
export const CMP_GT = 2;
export const CMP_GE = 3;
export const CMP_LT = 4;
export const CMP_LE = 5;
export const CMP_IN = 6;

/** Three-valued results (§7): numbers so the hot path allocates nothing. */
export const FALSE = 0;
export const TRUE = 1;
export const UNKNOWN = 2;
export type Tri = 0 | 1 | 2;

/** An authored RFC 6901 pointer, compiled once per pack; its two RFC 0008 charges are fixed by its text. */
export interface CompiledPointer {
  readonly text: string;
  readonly tokens: readonly string[];
  /** RFC 0008: compiling costs the pointer's byte length, once per distinct pointer per evaluation. */
  readonly compileCost: number;
  /** RFC 0008: one unit per reference token plus the tokens' bytes, never less than one. */
  readonly resolveCost: number;
}

export interface CompiledCondition {
  readonly op: number;
  readonly children: readonly CompiledCondition[];
  readonly literal: boolean;
  /** Index into CompiledPack.pointers (fact nodes), else -1. */
  readonly pointer: number;
  readonly cmp: number;
  /** The authored operand (fact nodes). */
  readonly operand: JsonValue | undefined;
  /** Decimal operand of an ordered comparison ('' when the operand is not a §2.2 decimal string). */
  readonly decimal: string;
  /** Candidate count of `in`: V(selected) is charged once per candidate (RFC 0008). */
  readonly candidates: number;
  /** Index into the per-evaluation selected-value slots (fact nodes), else -1. */
  readonly slot: number;
  /** Index of the evidence requirement (evidence-present nodes), else -1. */
  readonly evidence: number;
  /** RFC 0008: exists/every's inner condition, evaluated once per element with the element as root. */
  readonly where: CompiledTree | undefined;
  /** RFC 0008: uniform's member-relative pointer (index into CompiledPack.pointers), else -1. */
  readonly at: number;
  /** True inside a where: pointers resolve against the current element, at evaluation time, not from slots. */
  readonly scoped: boolean;
}

/** One authored condition tree with the part of its charge that does not depend on the facts. */
export interface CompiledTree {
  readonly root: CompiledCondition;
  /** Σ node units + V(authored operands) + evidence id bytes. */
  readonly staticCharge: number;
  /** Fact nodes of the tree, in document order; each is resolved during the precharge. */
  readonly facts: readonly CompiledCondition[];
  /** RFC 0008 aggregates of the tree outside any nested where; each is priced per element during the precharge. */
  readonly aggregates: readonly CompiledCondition[];
}

export interface CompiledRule {
  readonly id: string;
  readonly when: CompiledTree;
  readonly outcome: string;
  readonly escalateOnUnknown: boolean;
}

export interface CompiledException {
  readonly id: string;
  readonly when: CompiledTree;
  readonly effect: 'suppress-rule' | 'force-outcome' | 'escalate';
  /** Rule index for suppress-rule, else -1. */
  readonly targetRule: number;
  readonly outcome: string | undefined;
  readonly escalateOnUnknown: boolean;
}

export interface CompiledRoute {
  readonly target: HandoffTarget;
  /** Omitted route triggers = unconditional once a request is made (§6.7). */
  readonly triggers: readonly TriggerReason[] | undefined;
}

export interface CompiledEscalation {
  readonly triggers: ReadonlySet<TriggerReason>;
  readonly routes: readonly CompiledRoute[] | undefined;
}

/** Mutable per-evaluation scratch, allocated once per compiled pack (evaluation is synchronous and not re-entrant). */
export interface Scratch {
  readonly slots: (JsonValue | undefined)[];
  /** Pointer i was compiled (charged) in this evaluation iff pointerEpoch[i] === epoch. */
  readonly pointerEpoch: Uint32Array;
  epoch: number;
  /** Evidence presence per requirement index (§7.5): TRUE present, FALSE absent, UNKNOWN otherwise. */
  readonly evidence: Uint8Array;
  readonly ruleSuppressed: Uint8Array;
}

export interface CompiledPack {
  readonly specVersion: '0.3.0' | '0.2.0-draft';
  /** Draft features the pack was validated under (sorted; empty for a Core-only evaluation). */
  readonly draftFeatures: readonly DraftFeature[];
  readonly applicability: CompiledTree | undefined;
  readonly evidenceIds: readonly string[];
  /** Map (never an object) so an id such as "__proto__" is ordinary data. */
  readonly evidenceIndex: ReadonlyMap<string, number>;
  readonly requiredEvidence: readonly number[];
  readonly exceptions: readonly CompiledException[];
  readonly rules: readonly CompiledRule[];
  readonly fallbackOutcome: string | undefined;
  readonly escalation: CompiledEscalation | undefined;
  readonly requiredExtensions: readonly string[];
  readonly pointers: readonly CompiledPointer[];
  readonly context: DispositionContext;
  readonly scratch: Scratch;
}
