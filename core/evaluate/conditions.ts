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
  OP_EVIDENCE,
  OP_FACT,
  OP_LITERAL,
  OP_NOT,
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
 * predicate of it runs. Resolved values are kept in the scratch slots so evaluation does not resolve again.
 * Returns false as soon as the running total exceeds the budget (the total is a monotone sum, so the first overrun
 * is the decision the whole total would have produced), before the priced step runs.
 */
export function prechargeTree(t: CompiledTree, c: CompiledPack, facts: JsonValue, m: Meter): boolean {
  m.work += t.staticCharge;
  if (m.work > m.budget) return false;
  const s = c.scratch;
  const facts_ = t.facts;
  for (let i = 0; i < facts_.length; i++) {
    const f = facts_[i] as CompiledCondition;
    const p = c.pointers[f.pointer]!;
    // Compile charge once per distinct authored pointer per evaluation.
    if (s.pointerEpoch[f.pointer] !== s.epoch) {
      s.pointerEpoch[f.pointer] = s.epoch;
      m.work += p.compileCost;
    }
    m.work += p.resolveCost; // a failed resolution still costs its lookup
    if (m.work > m.budget) return false;
    const selected = resolvePointer(facts, p.tokens as string[]);
    s.slots[f.slot] = selected;
    if (selected !== undefined) {
      // V(selected value); `in` charges it once per candidate.
      m.work += selected.v * f.candidates;
      if (m.work > m.budget) return false;
    }
  }
  return true;
}

/** §7.4 type-preserving equality; scalar strings and booleans short-cut the carrier's general comparison. */
function equal(a: JsonValue, b: JsonValue): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'string') return a.value === (b as typeof a).value;
  if (a.kind === 'boolean') return a.value === (b as typeof a).value;
  if (a.kind === 'null') return true;
  return jsonEquals(a, b);
}

function fact(n: CompiledCondition, c: CompiledPack): Tri {
  const selected = c.scratch.slots[n.slot];
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

/** §7: strong three-valued evaluation of a precharged tree. Short-circuiting only skips work already paid for. */
export function evaluateCondition(n: CompiledCondition, c: CompiledPack): Tri {
  switch (n.op) {
    case OP_LITERAL:
      return n.literal ? TRUE : FALSE;
    case OP_ALL: {
      // §7.1: false if any child is false; true if all are true; unknown otherwise.
      let sawUnknown = false;
      const ch = n.children;
      for (let i = 0; i < ch.length; i++) {
        const r = evaluateCondition(ch[i] as CompiledCondition, c);
        if (r === FALSE) return FALSE;
        if (r === UNKNOWN) sawUnknown = true;
      }
      return sawUnknown ? UNKNOWN : TRUE;
    }
    case OP_ANY: {
      // §7.2: true if any child is true; false if all are false; unknown otherwise.
      let sawUnknown = false;
      const ch = n.children;
      for (let i = 0; i < ch.length; i++) {
        const r = evaluateCondition(ch[i] as CompiledCondition, c);
        if (r === TRUE) return TRUE;
        if (r === UNKNOWN) sawUnknown = true;
      }
      return sawUnknown ? UNKNOWN : FALSE;
    }
    case OP_NOT: {
      // §7.3: unknown stays unknown.
      const r = evaluateCondition(n.children[0] as CompiledCondition, c);
      return r === UNKNOWN ? UNKNOWN : r === TRUE ? FALSE : TRUE;
    }
    case OP_FACT:
      return fact(n, c);
    case OP_EVIDENCE:
      // §7.5: present → true, absent → false, unknown or omitted → unknown.
      return c.scratch.evidence[n.evidence] as Tri;
    default:
      return UNKNOWN;
  }
}
