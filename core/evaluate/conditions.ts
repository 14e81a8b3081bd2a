import { compareDecimalStrings, isDecimalString, jsonEquals, resolvePointer } from '../carrier/index.js';
import type { JsonValue } from '../carrier/json-value.js';
import {
  CMP_EQ,
  CMP_GE,
  CMP_GT,
  CMP_IN,
  CMP_LE,
  CMP_LT,
  CMP_NE,
  FALSE,
  OP_ALL,
  OP_ANY,
  OP_EVERY,
  OP_EVIDENCE,
  OP_EXISTS,
  OP_FACT,
  OP_LITERAL,
  OP_NOT,
  OP_UNIFORM,
  TRUE,
  UNKNOWN,
  type CompiledCondition,
  type CompiledPack,
  type CompiledTree,
  type Tri,
} from './compiled-pack.js';

/** The running work total of one evaluation (RFC 0008 "Composition": one total for the whole §8 path). */
export interface Meter {
  work: number;
  readonly budget: number;
}

/**
 * RFC 0008 "Condition precharge": price a whole tree — resolving its pointers, each resolution charged — before any
 * predicate of it runs. Returns false as soon as the running total exceeds the budget (the total is a monotone sum,
 * so the first overrun is the decision the whole total would have produced), before the priced step runs.
 * A top-level tree (`store`) keeps its resolved values in the scratch slots so evaluation does not resolve again; a
 * where tree is priced once per element, the element being the root its pointers resolve against.
 */
export function prechargeTree(t: CompiledTree, c: CompiledPack, root: JsonValue, m: Meter, store = true): boolean {
  m.work += t.staticCharge;
  if (m.work > m.budget) return false;
  const facts = t.facts;
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i] as CompiledCondition;
    if (!chargeResolution(f.pointer, c, m)) return false; // a failed resolution still costs its lookup
    const selected = resolveAt(f.pointer, c, root);
    if (store) c.scratch.slots[f.slot] = selected;
    if (selected !== undefined) {
      // V(selected value); `in` charges it once per candidate.
      m.work += selected.v * f.candidates;
      if (m.work > m.budget) return false;
    }
  }
  const aggregates = t.aggregates;
  for (let i = 0; i < aggregates.length; i++) {
    if (!prechargeAggregate(aggregates[i] as CompiledCondition, c, root, m, store)) return false;
  }
  return true;
}

/**
 * RFC 0008 "Limit accounting": the compile charge of an authored pointer on first use in this evaluation, then one
 * resolution (1 per reference token plus the tokens' bytes, never less than 1). False when it cannot be reserved.
 */
function chargeResolution(pointer: number, c: CompiledPack, m: Meter): boolean {
  const s = c.scratch;
  if (s.pointerEpoch[pointer] !== s.epoch) {
    s.pointerEpoch[pointer] = s.epoch;
    m.work += c.pointers[pointer]!.compileCost;
    if (m.work > m.budget) return false;
  }
  m.work += c.pointers[pointer]!.resolveCost;
  return m.work <= m.budget;
}

/**
 * RFC 0008 "Aggregates": path compile on first use and one resolution; an unresolved or non-array path costs that
 * and nothing more. exists/every: their where once per element present. uniform: per member one resolution of at
 * (failures included) and V of the selected value, then the reread term (n − 1) × max over the n resolved values.
 * Every term is reserved before the work it prices, and abandoned at the first overrun.
 */
function prechargeAggregate(a: CompiledCondition, c: CompiledPack, root: JsonValue, m: Meter, store: boolean): boolean {
  if (!chargeResolution(a.pointer, c, m)) return false;
  const selected = resolveAt(a.pointer, c, root);
  if (store) c.scratch.slots[a.slot] = selected;
  if (selected === undefined || selected.kind !== 'array') return true;
  const items = selected.items;
  if (a.op !== OP_UNIFORM) {
    const where = a.where as CompiledTree;
    for (let i = 0; i < items.length; i++) if (!prechargeTree(where, c, items[i] as JsonValue, m, false)) return false;
    return true;
  }
  const at = c.pointers[a.at]!.tokens as string[];
  let resolved = 0;
  let max = 0;
  for (let i = 0; i < items.length; i++) {
    if (!chargeResolution(a.at, c, m)) return false;
    const v = resolvePointer(items[i] as JsonValue, at);
    if (v === undefined) continue;
    resolved++;
    if (v.v > max) max = v.v;
    m.work += v.v;
    if (m.work > m.budget) return false;
  }
  if (resolved >= 2) m.work += (resolved - 1) * max;
  return m.work <= m.budget;
}

/** §7.4 type-preserving equality; scalar strings and booleans short-cut the carrier's general comparison. */
function equal(a: JsonValue, b: JsonValue): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'string') return a.value === (b as typeof a).value;
  if (a.kind === 'boolean') return a.value === (b as typeof a).value;
  if (a.kind === 'null') return true;
  return jsonEquals(a, b);
}

function compare(n: CompiledCondition, selected: JsonValue | undefined): Tri {
  if (selected === undefined) return UNKNOWN; // §7.4: a pointer that does not resolve yields unknown
  const operand = n.operand as JsonValue;
  switch (n.cmp) {
    case CMP_EQ:
      return equal(selected, operand) ? TRUE : FALSE;
    case CMP_NE:
      return equal(selected, operand) ? FALSE : TRUE;
    case CMP_IN: {
      // §7.4: the selected value is compared for equality with each candidate; a match is true, none false.
      if (operand.kind !== 'array') return UNKNOWN;
      const items = operand.items;
      for (let i = 0; i < items.length; i++) if (equal(selected, items[i] as JsonValue)) return TRUE;
      return FALSE;
    }
    default: {
      // §7.4/§2.2: ordered comparison only between two decimal strings, by exact mathematical value.
      if (n.decimal === '' || selected.kind !== 'string' || !isDecimalString(selected.value)) return UNKNOWN;
      const r = compareDecimalStrings(selected.value, n.decimal);
      switch (n.cmp) {
        case CMP_GT:
          return r > 0 ? TRUE : FALSE;
        case CMP_GE:
          return r >= 0 ? TRUE : FALSE;
        case CMP_LT:
          return r < 0 ? TRUE : FALSE;
        case CMP_LE:
          return r <= 0 ? TRUE : FALSE;
        default:
          return UNKNOWN;
      }
    }
  }
}

/**
 * §7: strong three-valued evaluation of a precharged tree. Short-circuiting only skips work already paid for.
 * `root` is set inside a where (RFC 0008 "Element scope"): the element every pointer resolves against (the empty
 * pointer selects it). Roots are passed down, so they are restored per level and never accumulated; without one, a
 * fact or aggregate reads the value its precharge kept in the scratch slots.
 */
export function evaluateCondition(n: CompiledCondition, c: CompiledPack, root?: JsonValue): Tri {
  switch (n.op) {
    case OP_LITERAL:
      return n.literal ? TRUE : FALSE;
    case OP_ALL:
    case OP_ANY: {
      // §7.1 all: false if any child is false, true if all are true; §7.2 any the dual; unknown otherwise.
      const dominant = n.op === OP_ALL ? FALSE : TRUE;
      let sawUnknown = false;
      const ch = n.children;
      for (let i = 0; i < ch.length; i++) {
        const r = evaluateCondition(ch[i] as CompiledCondition, c, root);
        if (r === dominant) return dominant;
        if (r === UNKNOWN) sawUnknown = true;
      }
      return sawUnknown ? UNKNOWN : dominant === FALSE ? TRUE : FALSE;
    }
    case OP_NOT: {
      // §7.3: unknown stays unknown.
      const r = evaluateCondition(n.children[0] as CompiledCondition, c, root);
      return r === UNKNOWN ? UNKNOWN : r === TRUE ? FALSE : TRUE;
    }
    case OP_FACT:
      return compare(n, root === undefined ? c.scratch.slots[n.slot] : resolveAt(n.pointer, c, root));
    case OP_EVIDENCE:
      // §7.5: present → true, absent → false, unknown or omitted → unknown.
      return c.scratch.evidence[n.evidence] as Tri;
    case OP_EXISTS:
    case OP_EVERY:
    case OP_UNIFORM:
      return aggregate(n, c, root === undefined ? c.scratch.slots[n.slot] : resolveAt(n.pointer, c, root));
    default:
      return UNKNOWN;
  }
}

const resolveAt = (pointer: number, c: CompiledPack, root: JsonValue): JsonValue | undefined =>
  resolvePointer(root, c.pointers[pointer]!.tokens as string[]);

/**
 * RFC 0008 "Evaluation": an unresolved or non-array path is unknown. exists/every are the §7.2/§7.1 tables over the
 * per-element results (empty: exists false, every true), short-circuiting only on the dominant value, never on unknown.
 */
function aggregate(n: CompiledCondition, c: CompiledPack, selected: JsonValue | undefined): Tri {
  if (selected === undefined || selected.kind !== 'array') return UNKNOWN;
  const items = selected.items;
  if (n.op === OP_UNIFORM) return uniform(n, c, items);
  const dominant = n.op === OP_EXISTS ? TRUE : FALSE;
  const where = (n.where as CompiledTree).root;
  let sawUnknown = false;
  for (let i = 0; i < items.length; i++) {
    const r = evaluateCondition(where, c, items[i] as JsonValue);
    if (r === dominant) return dominant;
    if (r === UNKNOWN) sawUnknown = true;
  }
  return sawUnknown ? UNKNOWN : dominant === TRUE ? FALSE : TRUE;
}

/**
 * RFC 0008 uniform, its clauses in order (1, unresolved or non-array path, is decided by the caller): 2 empty → true;
 * 3 two resolved at-values unequal under §7.4 → false, before 4 an unresolved at in any member → unknown; 5 → true.
 * §7.4 equality is an equivalence, so comparing each value with the first resolved one decides clause 3 for all pairs.
 */
function uniform(n: CompiledCondition, c: CompiledPack, items: readonly JsonValue[]): Tri {
  const at = c.pointers[n.at]!.tokens as string[];
  let representative: JsonValue | undefined;
  let missing = false;
  for (let i = 0; i < items.length; i++) {
    const v = resolvePointer(items[i] as JsonValue, at);
    if (v === undefined) missing = true;
    else if (representative === undefined) representative = v;
    else if (!jsonEquals(representative, v)) return FALSE;
  }
  return missing ? UNKNOWN : TRUE;
}
