/**
 * Sets of JSON values for the §3.3.1 exact overlap analysis, over the universe of every JSON value plus ⊥ (the path
 * does not resolve). Equality is §7.4's type-preserving equality (jsonEquals: numbers by exact value, decimal
 * strings by spelling); ordered comparisons see decimal strings (§2.2) by mathematical value (§7.4).
 *
 * A set is represented as
 *   missing   — whether ⊥ is a member;
 *   others    — its non-decimal-string members: finite (`co` false) or all but finitely many (`co` true);
 *   intervals — sorted disjoint intervals of decimal values: every decimal spelling whose value lies in one is a
 *               member, except the spellings listed in `removed`;
 *   added     — decimal spellings that are members although their value lies outside every interval.
 * Every operation is exact for this representation; sizes stay bounded by the pack's own operands.
 */
import type { JsonString, JsonValue } from '../carrier/json-value.js';
import { compareDecimalStrings, isDecimalString, jsonEquals } from '../carrier/index.js';

export interface Endpoint {
  readonly value: string;
  readonly inclusive: boolean;
}
/** Missing endpoint = unbounded on that side. */
export interface Interval {
  readonly lo?: Endpoint;
  readonly hi?: Endpoint;
}

export interface ValueSet {
  readonly missing: boolean;
  readonly others: { readonly co: boolean; readonly values: readonly JsonValue[] };
  readonly intervals: readonly Interval[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** Counts elementary comparisons so the analysis stays bounded (docs/adr/0024-overlap-analysis.md). */
export class Meter {
  used = 0;
  constructor(readonly limit: number) {}
  charge(units: number): void {
    this.used += units;
    if (this.used > this.limit) throw new MeterExhausted();
  }
}
export class MeterExhausted extends Error {}

const NO_VALUES = Object.freeze({ co: false, values: Object.freeze([]) as readonly JsonValue[] });
const ALL_VALUES = Object.freeze({ co: true, values: Object.freeze([]) as readonly JsonValue[] });
const WHOLE_LINE: readonly Interval[] = Object.freeze([Object.freeze({})]);

export const EMPTY: ValueSet = Object.freeze({
  missing: false,
  others: NO_VALUES,
  intervals: [],
  added: [],
  removed: [],
});
/** Every value and ⊥: what a literal true supplies, and what a condition on another variable leaves open. */
export const FULL: ValueSet = Object.freeze({
  missing: true,
  others: ALL_VALUES,
  intervals: WHOLE_LINE,
  added: [],
  removed: [],
});

export function isDecimalSpelling(v: JsonValue): v is JsonString {
  return v.kind === 'string' && isDecimalString(v.value);
}

/** The finite set of `values` (equality and membership: T of equals / in). */
export function valuesSet(values: readonly JsonValue[], meter: Meter): ValueSet {
  const others: JsonValue[] = [];
  const added: string[] = [];
  for (const v of values) {
    if (isDecimalSpelling(v)) {
      if (!added.includes(v.value)) added.push(v.value);
    } else {
      meter.charge(others.length + 1);
      if (!others.some((o) => jsonEquals(o, v))) others.push(v);
    }
  }
  return { missing: false, others: { co: false, values: others }, intervals: [], added, removed: [] };
}

/** Decimal spellings whose value is in `intervals` (T and F of an ordered comparison). */
export function decimalSet(intervals: readonly Interval[]): ValueSet {
  return { missing: false, others: NO_VALUES, intervals, added: [], removed: [] };
}

/** Complement within the JSON values (⊥ excluded): F of equals / in is the complement of their T. */
export function complementValues(s: ValueSet): ValueSet {
  return { ...complement(s), missing: false };
}

export function complement(s: ValueSet): ValueSet {
  return {
    missing: !s.missing,
    others: { co: !s.others.co, values: s.others.values },
    intervals: complementIntervals(s.intervals),
    added: s.removed,
    removed: s.added,
  };
}

export function intersect(a: ValueSet, b: ValueSet, meter: Meter): ValueSet {
  return combine(a, b, 'and', meter);
}

export function unite(a: ValueSet, b: ValueSet, meter: Meter): ValueSet {
  return combine(a, b, 'or', meter);
}

export function isEmpty(s: ValueSet): boolean {
  // Every decimal value has infinitely many spellings ("1", "1.0", "1.00", …), so a non-empty interval always has a
  // member whatever finitely many spellings `removed` lists.
  return !s.missing && !s.others.co && s.others.values.length === 0 && s.intervals.length === 0 && s.added.length === 0;
}

function combine(a: ValueSet, b: ValueSet, op: 'and' | 'or', meter: Meter): ValueSet {
  const and = op === 'and';
  const missing = and ? a.missing && b.missing : a.missing || b.missing;
  const others = combineOthers(a.others, b.others, and, meter);
  const intervals = and
    ? intersectIntervals(a.intervals, b.intervals, meter)
    : uniteIntervals(a.intervals, b.intervals, meter);
  const added: string[] = [];
  const removed: string[] = [];
  const candidates = new Set<string>([...a.added, ...a.removed, ...b.added, ...b.removed]);
  meter.charge(candidates.size * (a.intervals.length + b.intervals.length + intervals.length + 1));
  for (const d of candidates) {
    const m = and ? hasDecimal(a, d) && hasDecimal(b, d) : hasDecimal(a, d) || hasDecimal(b, d);
    const inside = inIntervals(intervals, d);
    if (m && !inside) added.push(d);
    if (!m && inside) removed.push(d);
  }
  return { missing, others, intervals, added, removed };
}

function combineOthers(a: ValueSet['others'], b: ValueSet['others'], and: boolean, meter: Meter): ValueSet['others'] {
  const has = (list: readonly JsonValue[], v: JsonValue): boolean => {
    meter.charge(list.length + 1);
    return list.some((x) => jsonEquals(x, v));
  };
  const inter = (x: readonly JsonValue[], y: readonly JsonValue[]) => x.filter((v) => has(y, v));
  const minus = (x: readonly JsonValue[], y: readonly JsonValue[]) => x.filter((v) => !has(y, v));
  const union = (x: readonly JsonValue[], y: readonly JsonValue[]) => [...x, ...minus(y, x)];
  if (and) {
    if (!a.co && !b.co) return { co: false, values: inter(a.values, b.values) };
    if (!a.co) return { co: false, values: minus(a.values, b.values) };
    if (!b.co) return { co: false, values: minus(b.values, a.values) };
    return { co: true, values: union(a.values, b.values) };
  }
  if (!a.co && !b.co) return { co: false, values: union(a.values, b.values) };
  if (!a.co) return { co: true, values: minus(b.values, a.values) };
  if (!b.co) return { co: true, values: minus(a.values, b.values) };
  return { co: true, values: inter(a.values, b.values) };
}

function hasDecimal(s: ValueSet, d: string): boolean {
  if (s.added.includes(d)) return true;
  return inIntervals(s.intervals, d) && !s.removed.includes(d);
}

export function inIntervals(intervals: readonly Interval[], d: string): boolean {
  return intervals.some((i) => inInterval(i, d));
}

function inInterval(i: Interval, d: string): boolean {
  if (i.lo !== undefined) {
    const c = compareDecimalStrings(d, i.lo.value);
    if (c < 0 || (c === 0 && !i.lo.inclusive)) return false;
  }
  if (i.hi !== undefined) {
    const c = compareDecimalStrings(d, i.hi.value);
    if (c > 0 || (c === 0 && !i.hi.inclusive)) return false;
  }
  return true;
}

/**
 * Orders two bounds of one side (`side` -1 lower, 1 upper): unbounded is outermost, and at equal values an inclusive
 * bound is the outer one (a lower one starts earlier, an upper one ends later).
 */
function compareBound(side: -1 | 1, a?: Endpoint, b?: Endpoint): number {
  if (a === undefined) return b === undefined ? 0 : side;
  if (b === undefined) return -side;
  const c = compareDecimalStrings(a.value, b.value);
  if (c !== 0) return c;
  return a.inclusive === b.inclusive ? 0 : a.inclusive ? side : -side;
}
const compareLo = (a?: Endpoint, b?: Endpoint): number => compareBound(-1, a, b);
const compareHi = (a?: Endpoint, b?: Endpoint): number => compareBound(1, a, b);

function isEmptyInterval(i: Interval): boolean {
  if (i.lo === undefined || i.hi === undefined) return false;
  const c = compareDecimalStrings(i.lo.value, i.hi.value);
  return c > 0 || (c === 0 && !(i.lo.inclusive && i.hi.inclusive));
}

function intersectIntervals(a: readonly Interval[], b: readonly Interval[], meter: Meter): Interval[] {
  meter.charge(a.length * b.length + 1);
  const out: Interval[] = [];
  for (const x of a) {
    for (const y of b) {
      const lo = compareLo(x.lo, y.lo) >= 0 ? x.lo : y.lo;
      const hi = compareHi(x.hi, y.hi) <= 0 ? x.hi : y.hi;
      const i: Interval = { ...(lo ? { lo } : {}), ...(hi ? { hi } : {}) };
      if (!isEmptyInterval(i)) out.push(i);
    }
  }
  return normalize(out);
}

function uniteIntervals(a: readonly Interval[], b: readonly Interval[], meter: Meter): Interval[] {
  meter.charge(a.length + b.length + 1);
  return normalize([...a, ...b]);
}

/** Sorts and merges overlapping or touching intervals ([a,b) and [b,c] touch; (a,b) and (b,c) do not). */
function normalize(list: Interval[]): Interval[] {
  const sorted = [...list].sort((x, y) => compareLo(x.lo, y.lo));
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && joins(last, i)) {
      out[out.length - 1] = {
        ...(last.lo ? { lo: last.lo } : {}),
        ...(compareHi(last.hi, i.hi) >= 0 ? (last.hi ? { hi: last.hi } : {}) : i.hi ? { hi: i.hi } : {}),
      };
    } else {
      out.push(i);
    }
  }
  return out;
}

/** Whether `next` (sorted after `cur` by lower bound) overlaps or touches `cur`. */
function joins(cur: Interval, next: Interval): boolean {
  if (cur.hi === undefined || next.lo === undefined) return true;
  const c = compareDecimalStrings(next.lo.value, cur.hi.value);
  return c < 0 || (c === 0 && (next.lo.inclusive || cur.hi.inclusive));
}

export function complementIntervals(list: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let lo: Endpoint | undefined; // lower bound of the current gap; undefined = −∞
  let open = true; // whether a gap is running from `lo`
  for (const i of list) {
    if (i.lo !== undefined) {
      const gap: Interval = { ...(lo ? { lo } : {}), hi: { value: i.lo.value, inclusive: !i.lo.inclusive } };
      if (open && !isEmptyInterval(gap)) out.push(gap);
    }
    if (i.hi === undefined) {
      open = false;
      break;
    }
    lo = { value: i.hi.value, inclusive: !i.hi.inclusive };
    open = true;
  }
  if (open) out.push(lo ? { lo } : {});
  return out.filter((i) => !isEmptyInterval(i));
}
