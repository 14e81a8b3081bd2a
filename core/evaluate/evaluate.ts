import type { JsonValue } from '../carrier/json-value.js';
import type { CompiledPack } from './compiled-pack.js';
import { canonicalDisposition } from './disposition.js';
import { selectHandoff } from './handoff.js';
import { admitBudget, admitEvidence, admitEvidenceValue, admitFacts, checkExtensions } from './preflight.js';
import {
  R_CONFLICT,
  R_EXCEPTION_ESCALATION,
  R_MISSING_EVIDENCE,
  R_NO_MATCH,
  R_NOT_APPLICABLE,
  R_UNKNOWN,
  newTrace,
  resolve,
  type Resolution,
} from './resolve.js';
import type {
  Disposition,
  EvaluationError,
  EvaluationInput,
  EvaluationResult,
  ParsedEvaluationInput,
  Reason,
} from './types.js';

/** Reason bits in ascending code-point order of their names (§8.3 serialization order). */
const ORDERED_REASONS: readonly [number, Reason][] = [
  [R_CONFLICT, 'conflict'],
  [R_EXCEPTION_ESCALATION, 'exception-escalation'],
  [R_MISSING_EVIDENCE, 'missing-required-evidence'],
  [R_NO_MATCH, 'no-match'],
  [R_NOT_APPLICABLE, 'not-applicable'],
  [R_UNKNOWN, 'unknown'],
];

const reasonList = (mask: number): Reason[] => ORDERED_REASONS.filter(([bit]) => (mask & bit) !== 0).map(([, r]) => r);

interface Rendered {
  readonly disposition: Disposition;
  readonly bytes: string;
}

/**
 * A compiled pack yields few distinct dispositions (kind × outcome × reason set), so each is built and serialized once
 * by canonicalDisposition and then shared, deeply frozen (ADR 0036).
 */
interface RenderCache {
  readonly outcomes: Map<string, Rendered>;
  /** Indexed by reason mask (< 64); not-applicable has its own slot. */
  readonly unresolved: (Rendered | undefined)[];
  notApplicable: Rendered | undefined;
}
const rendered = new WeakMap<CompiledPack, RenderCache>();

function deepFreeze<T>(x: T): T {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

function build(c: CompiledPack, r: Exclude<Resolution, { kind: 'exhausted' }>): Rendered {
  const reasons = reasonList(r.reasons);
  const handoff = selectHandoff(c.escalation, reasons);
  const disposition: Disposition =
    r.kind === 'outcome'
      ? { kind: 'outcome', outcomeId: r.outcomeId, reasons, handoff }
      : { kind: r.kind, reasons, handoff };
  return { disposition: deepFreeze(disposition), bytes: canonicalDisposition(disposition, c.context) };
}

function render(c: CompiledPack, r: Exclude<Resolution, { kind: 'exhausted' }>): Rendered {
  let cache = rendered.get(c);
  if (cache === undefined) rendered.set(c, (cache = { outcomes: new Map(), unresolved: [], notApplicable: undefined }));
  if (r.kind === 'outcome') {
    let hit = cache.outcomes.get(r.outcomeId);
    if (hit === undefined) cache.outcomes.set(r.outcomeId, (hit = build(c, r)));
    return hit;
  }
  if (r.kind === 'not-applicable') return (cache.notApplicable ??= build(c, r));
  return (cache.unresolved[r.reasons] ??= build(c, r));
}

export const failure = (error: EvaluationError, work: number): EvaluationResult => ({ kind: 'error', error, work });

function nextEpoch(c: CompiledPack): void {
  const s = c.scratch;
  if (s.epoch === 0xffffffff) {
    s.pointerEpoch.fill(0);
    s.epoch = 0;
  }
  s.epoch++;
}

/**
 * Evaluate a compiled pack: §8.2 preflight (facts → evidence → required extensions; the budget argument first, ADR
 * 0033), completed before step 1, then §8 steps 1–10 under the work budget. Exactly one disposition or one error.
 */
export function evaluateCompiled(c: CompiledPack, input: EvaluationInput): EvaluationResult {
  const budget = admitBudget(input.workBudget);
  if (!budget.ok) return failure(budget.error, 0);
  const facts = admitFacts(c, input.facts);
  if (!facts.ok) return failure(facts.error, 0);
  const evidenceError = admitEvidence(c, input.evidence);
  if (evidenceError !== undefined) return failure(evidenceError, 0);
  const extensionError = checkExtensions(c, input.supportedExtensions);
  if (extensionError !== undefined) return failure(extensionError, 0);
  return run(c, facts.value, budget.value, input.trace === true);
}

/**
 * evaluateCompiled for facts and evidence a caller has already read with the strict carrier (a batch line holds
 * both, ADR 0200): the same preflight order and the same §8 path, without reading the same bytes twice. The caller
 * guarantees the trees are the ones admitFacts and admitEvidence would read from the bytes.
 */
export function evaluateParsed(c: CompiledPack, input: ParsedEvaluationInput): EvaluationResult {
  const budget = admitBudget(input.workBudget);
  if (!budget.ok) return failure(budget.error, 0);
  const evidenceError = admitEvidenceValue(c, input.evidence);
  if (evidenceError !== undefined) return failure(evidenceError, 0);
  const extensionError = checkExtensions(c, input.supportedExtensions);
  if (extensionError !== undefined) return failure(extensionError, 0);
  return run(c, input.facts, budget.value, input.trace === true);
}

function run(c: CompiledPack, facts: JsonValue, budget: number, wantTrace: boolean): EvaluationResult {
  nextEpoch(c);
  const meter = { work: 0, budget };
  const trace = wantTrace ? newTrace() : undefined;
  const slots = c.scratch.slots;
  let r: Resolution;
  try {
    r = resolve(c, facts, meter, trace);
  } finally {
    slots.fill(undefined); // drop references to the facts tree so it can be collected
  }
  if (r.kind === 'exhausted') {
    return failure(
      {
        class: 'resource-exhaustion',
        phase: 'evaluation',
        code: 'work-budget-exceeded',
        message: `the §8 path needs more than the work budget of ${budget} units (§10, RFC 0008 Limit accounting)`,
      },
      r.admitted,
    );
  }
  const { disposition, bytes } = render(c, r);
  return trace === undefined
    ? { kind: 'disposition', disposition, bytes, work: meter.work }
    : { kind: 'disposition', disposition, bytes, work: meter.work, trace };
}
