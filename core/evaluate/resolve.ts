import type { JsonValue } from '../carrier/json-value.js';
import { FALSE, TRUE, UNKNOWN, type CompiledPack, type Tri } from './compiled-pack.js';
import { evaluateCondition, prechargeTree, type Meter } from './conditions.js';
import type { EvaluationTrace, Truth } from './types.js';

/** Reasons as bits so the hot path builds no arrays; R_* order is irrelevant (sets are sorted when serialized). */
export const R_NOT_APPLICABLE = 1;
export const R_MISSING_EVIDENCE = 2;
export const R_UNKNOWN = 4;
export const R_CONFLICT = 8;
export const R_NO_MATCH = 16;
export const R_EXCEPTION_ESCALATION = 32;

export type Resolution =
  | { readonly kind: 'outcome'; readonly outcomeId: string; readonly reasons: 0 }
  | { readonly kind: 'not-applicable' | 'unresolved'; readonly reasons: number }
  /** The §8 path needed more work than the budget: `admitted` is the work of the stages paid before (ADR 0032). */
  | { readonly kind: 'exhausted'; readonly admitted: number };

const truth = (t: Tri): Truth => (t === TRUE ? 'true' : t === FALSE ? 'false' : 'unknown');

/** Mutable trace builder, used only when a trace is requested. */
interface TraceAcc {
  applicability: EvaluationTrace['applicability'];
  requiredEvidence: { missing: string[]; unknown: string[] };
  exceptions: { id: string; value: Truth; effect: string; onUnknown: string }[];
  rules: { id: string; value: Truth | 'suppressed'; outcome: string; onUnknown: string }[];
  terminatedAt: string;
}

export const newTrace = (): TraceAcc => ({
  applicability: 'omitted',
  requiredEvidence: { missing: [], unknown: [] },
  exceptions: [],
  rules: [],
  terminatedAt: '',
});

/*
 * Each §8 stage (applicability; all exceptions; all rules not suppressed) is precharged as one unit before any
 * predicate of it runs. Charging a stage as a unit keeps `admitted` independent of declaration order, so rule-order
 * permutations change nothing, not even an error's work figure.
 */

/** §8 steps 1–10 over admitted inputs (preflight already completed, presence table filled). */
export function resolve(c: CompiledPack, facts: JsonValue, m: Meter, trace: TraceAcc | undefined): Resolution {
  // Step 1: omitted applicability is literal true.
  if (c.applicability !== undefined) {
    const admitted = m.work;
    if (!prechargeTree(c.applicability, c, facts, m)) return { kind: 'exhausted', admitted };
    const a = evaluateCondition(c.applicability.root, c);
    if (trace) trace.applicability = truth(a);
    if (a === FALSE) {
      if (trace) trace.terminatedAt = '1-not-applicable';
      return { kind: 'not-applicable', reasons: R_NOT_APPLICABLE };
    }
    if (a === UNKNOWN) {
      if (trace) trace.terminatedAt = '1-applicability-unknown';
      return { kind: 'unresolved', reasons: R_UNKNOWN };
    }
  }

  // Step 2: required evidence, tri-state (§7.5).
  let reasons = 0;
  let anyFalse = false;
  let anyUnknown = false;
  const presence = c.scratch.evidence;
  for (const i of c.requiredEvidence) {
    const p = presence[i];
    if (p === FALSE) {
      anyFalse = true;
      trace?.requiredEvidence.missing.push(c.evidenceIds[i]!);
    } else if (p === UNKNOWN) {
      anyUnknown = true;
      trace?.requiredEvidence.unknown.push(c.evidenceIds[i]!);
    }
  }
  if (anyFalse) reasons |= R_MISSING_EVIDENCE;
  else if (anyUnknown) reasons |= R_UNKNOWN;

  // Step 3: every exception condition, precharged together.
  const suppressed = c.scratch.ruleSuppressed;
  suppressed.fill(0);
  let forced: string | undefined;
  let forcedConflict = false;
  let direct = false;
  if (c.exceptions.length > 0) {
    const admitted = m.work;
    for (const x of c.exceptions) if (!prechargeTree(x.when, c, facts, m)) return { kind: 'exhausted', admitted };
    for (const x of c.exceptions) {
      const v = evaluateCondition(x.when.root, c);
      trace?.exceptions.push({
        id: x.id,
        value: truth(v),
        effect: x.effect,
        onUnknown: x.escalateOnUnknown ? 'escalate' : 'ignore',
      });
      if (v === UNKNOWN) {
        if (x.escalateOnUnknown) reasons |= R_UNKNOWN;
        continue;
      }
      if (v !== TRUE) continue;
      // Step 4: combine effects.
      if (x.effect === 'suppress-rule') suppressed[x.targetRule] = 1;
      else if (x.effect === 'escalate') direct = true;
      else if (forced === undefined) forced = x.outcome;
      else if (forced !== x.outcome) forcedConflict = true;
    }
  }
  // Step 5: blocking state → unresolved with every reason found so far; rules are not evaluated (nor charged).
  if (forcedConflict) reasons |= R_CONFLICT;
  if (direct) reasons |= R_EXCEPTION_ESCALATION;
  if (reasons !== 0) {
    if (trace) trace.terminatedAt = '5-blocked';
    return { kind: 'unresolved', reasons };
  }
  // Step 6: one compatible forced outcome wins without evaluating (or charging) rules.
  if (forced !== undefined) {
    if (trace) trace.terminatedAt = '6-forced-outcome';
    return { kind: 'outcome', outcomeId: forced, reasons: 0 };
  }

  // Step 7: every rule not suppressed, precharged together.
  const admitted = m.work;
  for (let i = 0; i < c.rules.length; i++) {
    if (suppressed[i] === 0 && !prechargeTree(c.rules[i]!.when, c, facts, m)) return { kind: 'exhausted', admitted };
  }
  let candidate: string | undefined;
  let conflict = false;
  for (let i = 0; i < c.rules.length; i++) {
    const r = c.rules[i]!;
    const v = suppressed[i] !== 0 ? undefined : evaluateCondition(r.when.root, c);
    trace?.rules.push({
      id: r.id,
      value: v === undefined ? 'suppressed' : truth(v),
      outcome: r.outcome,
      onUnknown: r.escalateOnUnknown ? 'escalate' : 'ignore',
    });
    if (v === TRUE) {
      if (candidate === undefined) candidate = r.outcome;
      else if (candidate !== r.outcome) conflict = true;
    } else if (v === UNKNOWN && r.escalateOnUnknown) reasons |= R_UNKNOWN;
  }
  // Step 8: conflict and escalate-on-unknown both retained; either blocks.
  if (conflict) reasons |= R_CONFLICT;
  if (reasons !== 0) {
    if (trace) trace.terminatedAt = '8-unresolved';
    return { kind: 'unresolved', reasons };
  }
  // Step 9: one distinct outcome.
  if (candidate !== undefined) {
    if (trace) trace.terminatedAt = '9-outcome';
    return { kind: 'outcome', outcomeId: candidate, reasons: 0 };
  }
  // Step 10: fallback or no-match.
  if (c.fallbackOutcome !== undefined) {
    if (trace) trace.terminatedAt = '10-fallback';
    return { kind: 'outcome', outcomeId: c.fallbackOutcome, reasons: 0 };
  }
  if (trace) trace.terminatedAt = '10-no-match';
  return { kind: 'unresolved', reasons: R_NO_MATCH };
}
