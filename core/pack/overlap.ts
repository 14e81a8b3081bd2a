/**
 * §3.3.1 recommended rule-overlap check (non-normative lint): JPS-RULES-OVERLAP for every pair of rules naming
 * different outcomes whose conditions can both be true for one facts document.
 *
 * Exact when, between them, the two conditions read at most one fact path and no evidence: the true/false value
 * sets of §3.3.1 are computed (core/pack/value-set.ts) and the pair overlaps iff the true sets intersect. Otherwise
 * each variable (fact path, or evidence requirement) is projected separately — nodes on other variables leave it
 * unconstrained — and the pair is excluded when some variable's projections do not intersect (sound: a true
 * condition's value at that variable lies in its projection); if none excludes it, the result is `not-excluded`
 * and no relation between two paths is invented. Bounded by a comparison meter; choices in
 * docs/adr/0022-strict-overlap-verdict.md and docs/adr/0024-overlap-analysis.md.
 */
import { DiagnosticCap } from './diagnostic-cap.js';
import type { JsonObject, JsonValue } from '../carrier/json-value.js';
import { toPlain } from '../carrier/index.js';
import type { Diagnostic } from './types.js';
import { PackCodes } from './codes.js';
import {
  EMPTY,
  FULL,
  Meter,
  MeterExhausted,
  complement,
  complementIntervals,
  complementValues,
  decimalSet,
  intersect,
  isEmpty,
  unite,
  valuesSet,
  type Interval,
  type ValueSet,
} from './value-set.js';
import { factsPlacing, pickMember } from './overlap-witness.js';

export const OVERLAP_EFFECT = 'Core §8 records conflict; the disposition is unresolved.';
/** Elementary comparisons the whole analysis may spend (docs/adr/0024-overlap-analysis.md). */
export const DEFAULT_OVERLAP_BUDGET = 2_000_000;

interface Sets {
  readonly t: ValueSet;
  readonly f: ValueSet;
}

/** A variable: a fact path ("f" + path) or an evidence requirement ("e" + id). */
type VarKey = string;

interface RuleInfo {
  readonly index: number;
  readonly id: string;
  readonly outcome: string;
  readonly when: JsonObject;
  readonly vars: ReadonlySet<VarKey>;
  readonly cache: Map<VarKey | '', Sets>;
}

export interface OverlapOptions {
  readonly strict: boolean;
  readonly budget?: number;
}

export function checkOverlaps(pack: JsonObject, options: OverlapOptions): Diagnostic[] {
  const meter = new Meter(options.budget ?? DEFAULT_OVERLAP_BUDGET);
  const rules = readRules(pack);
  // Capped while analysing, not after: n rules can overlap in n²/2 pairs (core/pack/diagnostic-cap.ts).
  const out = new DiagnosticCap();
  let pairs = 0;
  try {
    for (let i = 0; i < rules.length; i++) {
      for (let j = i + 1; j < rules.length; j++) {
        const a = rules[i]!;
        const b = rules[j]!;
        if (a.outcome === b.outcome) continue;
        meter.charge(1);
        const finding = comparePair(a, b, meter, options.strict);
        if (finding !== undefined) out.offer(PackCodes.RULES_OVERLAP, finding.severity, finding.build);
        pairs++;
      }
    }
  } catch (e) {
    if (!(e instanceof MeterExhausted)) throw e;
    out.push({
      code: PackCodes.OVERLAP_ANALYSIS_BOUNDED,
      severity: 'warning',
      message: `the rule-overlap analysis stopped at its bound of ${meter.limit} comparison units after ${pairs} rule pair(s); later pairs were not analysed (§3.3.1 permits bounding it)`,
      pairsAnalysed: pairs,
    });
  }
  return out.result();
}

function readRules(pack: JsonObject): RuleInfo[] {
  const rules = pack.members.get('rules');
  if (rules?.kind !== 'array') return [];
  return rules.items.map((r, index) => {
    const m = (r as JsonObject).members;
    const when = m.get('when') as JsonObject;
    return {
      index,
      id: str(m.get('id')),
      outcome: str(m.get('outcome')),
      when,
      vars: variablesOf(when),
      cache: new Map(),
    };
  });
}

/** An overlap found for a pair; its diagnostic is built only when the cap keeps it (its metered work is done). */
interface Finding {
  readonly severity: Diagnostic['severity'];
  readonly build: () => Diagnostic;
}

function comparePair(a: RuleInfo, b: RuleInfo, meter: Meter, strict: boolean): Finding | undefined {
  const vars = new Set<VarKey>([...a.vars, ...b.vars]);
  const onlyVar = [...vars][0];
  const exact = vars.size === 0 || (vars.size === 1 && onlyVar!.startsWith('f'));
  if (exact) {
    const key = onlyVar ?? '';
    const ta = setsOf(a, key, meter).t;
    const tb = setsOf(b, key, meter).t;
    const shared = intersect(ta, tb, meter);
    if (isEmpty(shared)) return undefined;
    const path = onlyVar?.slice(1);
    return exactDiagnostic(a, b, shared, path, ta, tb, meter, strict);
  }
  for (const v of vars) {
    if (isEmpty(intersect(setsOf(a, v, meter).t, setsOf(b, v, meter).t, meter))) return undefined;
  }
  return { severity: 'warning', build: () => notExcludedDiagnostic(a, b, vars) };
}

function setsOf(rule: RuleInfo, v: VarKey | '', meter: Meter): Sets {
  // A variable the rule never reads: its projection is everything if the rule can be true at all, else nothing.
  const key = rule.vars.has(v) ? v : '';
  let s = rule.cache.get(key);
  if (s === undefined) {
    s = setsFor(rule.when, key, meter);
    rule.cache.set(key, s);
  }
  return s;
}

/** §3.3.1 true/false sets of `node` for variable `v` ('' = none: every fact/evidence node is unconstrained). */
function setsFor(node: JsonObject, v: VarKey | '', meter: Meter): Sets {
  meter.charge(1);
  const m = node.members;
  const op = str(m.get('op'));
  switch (op) {
    case 'literal':
      // A literal supplies the corresponding full and empty sets.
      return bool(m.get('value')) ? { t: FULL, f: EMPTY } : { t: EMPTY, f: FULL };
    case 'not': {
      const c = setsFor(m.get('condition') as JsonObject, v, meter);
      return { t: c.f, f: c.t };
    }
    case 'all':
    case 'any': {
      const children = (m.get('conditions') as { items: readonly JsonValue[] }).items.map((c) =>
        setsFor(c as JsonObject, v, meter),
      );
      let t = children[0]!.t;
      let f = children[0]!.f;
      for (const c of children.slice(1)) {
        // all intersects true sets and unites false sets; any does the reverse.
        t = op === 'all' ? intersect(t, c.t, meter) : unite(t, c.t, meter);
        f = op === 'all' ? unite(f, c.f, meter) : intersect(f, c.f, meter);
      }
      return { t, f };
    }
    case 'evidence-present': {
      if (v !== 'e' + str(m.get('evidenceRequirement'))) return { t: FULL, f: FULL };
      return { t: valuesSet([TRUE], meter), f: valuesSet([FALSE], meter) };
    }
    case 'fact': {
      if (v !== 'f' + str(m.get('path'))) return { t: FULL, f: FULL };
      return factSets(str(m.get('operator')), m.get('value')!, meter);
    }
    case 'exists':
    case 'every':
    case 'uniform':
      // RFC 0008 draft aggregates read element-relative pointers: no projection onto a fact path is claimed.
      return { t: FULL, f: FULL };
  }
  throw new TypeError(`unreachable: structurally valid condition op ${op}`);
}

const TRUE: JsonValue = { kind: 'boolean', value: true, v: 5 };
const FALSE: JsonValue = { kind: 'boolean', value: false, v: 6 };

function factSets(operator: string, operand: JsonValue, meter: Meter): Sets {
  switch (operator) {
    case 'equals': {
      const t = valuesSet([operand], meter);
      return { t, f: complementValues(t) };
    }
    case 'not-equals': {
      // not-equals swaps the equality true and false sets.
      const f = valuesSet([operand], meter);
      return { t: complementValues(f), f };
    }
    case 'in': {
      const t = valuesSet((operand as { items: readonly JsonValue[] }).items, meter);
      return { t, f: complementValues(t) };
    }
  }
  // Ordered: true and false sets are complementary intervals of decimal strings; every other value is unknown.
  const value = str(operand);
  const inclusive = operator.endsWith('-or-equal');
  const t: Interval = operator.startsWith('greater') ? { lo: { value, inclusive } } : { hi: { value, inclusive } };
  return { t: decimalSet([t]), f: decimalSet(complementIntervals([t])) };
}

function variablesOf(root: JsonObject): Set<VarKey> {
  const vars = new Set<VarKey>();
  const stack: JsonObject[] = [root];
  while (stack.length > 0) {
    const m = stack.pop()!.members;
    const op = str(m.get('op'));
    if (op === 'fact') vars.add('f' + str(m.get('path')));
    else if (op === 'evidence-present') vars.add('e' + str(m.get('evidenceRequirement')));
    // An aggregate is its own opaque variable, so a pair reading one is never analysed as exact (sound: not-excluded).
    else if (op === 'exists' || op === 'every' || op === 'uniform') vars.add(`q${vars.size}`);
    else if (op === 'not') stack.push(m.get('condition') as JsonObject);
    else if (op === 'all' || op === 'any')
      for (const c of (m.get('conditions') as { items: readonly JsonValue[] }).items) stack.push(c as JsonObject);
  }
  return vars;
}

function exactDiagnostic(
  a: RuleInfo,
  b: RuleInfo,
  shared: ValueSet,
  path: string | undefined,
  ta: ValueSet,
  tb: ValueSet,
  meter: Meter,
  strict: boolean,
): Finding {
  // Rewrite the broader rule so it excludes the narrower one (§3.3.1's banding example); when neither contains the
  // other, rewrite the first rule of the pair. Decided here, metered, whether or not the diagnostic is kept.
  const bInsideA = isEmpty(intersect(tb, complement(ta), meter));
  const aInsideB = !bInsideA && isEmpty(intersect(ta, complement(tb), meter));
  const severity = strict ? 'error' : 'warning';
  return { severity, build: () => buildExact(a, b, shared, path, aInsideB, strict) };
}

function buildExact(
  a: RuleInfo,
  b: RuleInfo,
  shared: ValueSet,
  path: string | undefined,
  aInsideB: boolean,
  strict: boolean,
): Diagnostic {
  const member = pickMember(shared);
  const missing = member !== null && member.value === undefined;
  const witnessValue = member?.value === undefined ? undefined : toPlain(member.value);
  const [rewrite, keep] = aInsideB ? [b, a] : [a, b];
  return {
    code: PackCodes.RULES_OVERLAP,
    certainty: 'exact',
    severity: strict ? 'error' : 'warning',
    pointer: `/rules/${a.index}`,
    message:
      `rules "${a.id}" (outcome "${a.outcome}") and "${b.id}" (outcome "${b.outcome}") can both be true for one facts document` +
      (strict
        ? '; strict mode reports an exact overlap as an error (§3.3.1), although Core still counts the pack conforming'
        : ''),
    rules: [ruleRef(a), ruleRef(b)],
    region: describeRegion(shared, path),
    witness: { facts: factsPlacing(path, witnessValue, missing) },
    effect: OVERLAP_EFFECT,
    suggestion: suggestion(rewrite, keep, true),
  };
}

function notExcludedDiagnostic(a: RuleInfo, b: RuleInfo, vars: ReadonlySet<VarKey>): Diagnostic {
  const paths = [...vars].filter((v) => v.startsWith('f')).map((v) => v.slice(1));
  const evidence = [...vars].filter((v) => v.startsWith('e')).map((v) => v.slice(1));
  return {
    code: PackCodes.RULES_OVERLAP,
    certainty: 'not-excluded',
    severity: 'warning', // not-excluded remains a warning in every mode (§3.3.1)
    pointer: `/rules/${a.index}`,
    message: `rules "${a.id}" (outcome "${a.outcome}") and "${b.id}" (outcome "${b.outcome}") read different facts or evidence and neither condition excludes the other`,
    rules: [ruleRef(a), ruleRef(b)],
    paths,
    ...(evidence.length > 0 ? { evidenceRequirements: evidence } : {}),
    effect: OVERLAP_EFFECT,
    suggestion: suggestion(a, b, false),
  };
}

function ruleRef(r: RuleInfo): { id: string; outcome: string; pointer: string } {
  return { id: r.id, outcome: r.outcome, pointer: `/rules/${r.index}` };
}

/**
 * The replacement `when` for `rewrite`: its condition conjoined with the negation of `keep`'s. In the exact case a
 * single fact node is negated by its complementary operator (≥ ↔ <, > ↔ ≤, equals ↔ not-equals), which has exactly
 * the false set of the original; otherwise `not` (which preserves unknown, §7.3) wraps it.
 */
function suggestion(rewrite: RuleInfo, keep: RuleInfo, exact: boolean): Record<string, unknown> {
  const base = toPlain(rewrite.when) as { op: string; conditions?: unknown[] };
  const negated = negate(toPlain(keep.when) as Record<string, unknown>, exact);
  const when =
    base.op === 'all'
      ? { op: 'all', conditions: [...(base.conditions ?? []), negated] }
      : { op: 'all', conditions: [base, negated] };
  return {
    rule: rewrite.id,
    pointer: `/rules/${rewrite.index}/when`,
    when,
    message: `replace the when of rule "${rewrite.id}" so it excludes rule "${keep.id}"`,
  };
}

const FLIP: Record<string, string> = {
  'greater-than-or-equal': 'less-than',
  'greater-than': 'less-than-or-equal',
  'less-than': 'greater-than-or-equal',
  'less-than-or-equal': 'greater-than',
  equals: 'not-equals',
  'not-equals': 'equals',
};

function negate(c: Record<string, unknown>, exact: boolean): unknown {
  if (c['op'] === 'not') return c['condition'];
  if (exact && c['op'] === 'fact' && FLIP[String(c['operator'])] !== undefined) {
    return { op: 'fact', path: c['path'], operator: FLIP[String(c['operator'])], value: c['value'] };
  }
  return { op: 'not', condition: c };
}

/** The overlapping region: fact path, the first interval's endpoints with inclusivity, shared values. */
function describeRegion(s: ValueSet, path: string | undefined): Record<string, unknown> {
  const region: Record<string, unknown> = {};
  if (path !== undefined) region['path'] = path;
  const first = s.intervals[0];
  if (first !== undefined) {
    if (first.lo !== undefined) region['from'] = { value: first.lo.value, inclusive: first.lo.inclusive };
    if (first.hi !== undefined) region['to'] = { value: first.hi.value, inclusive: first.hi.inclusive };
    if (s.intervals.length > 1) {
      region['intervals'] = s.intervals.map((i) => ({
        ...(i.lo ? { from: { ...i.lo } } : {}),
        ...(i.hi ? { to: { ...i.hi } } : {}),
      }));
    }
    if (s.removed.length > 0) region['exceptSpellings'] = [...s.removed];
  }
  const values = [...s.added, ...(!s.others.co ? s.others.values.map((v) => toPlain(v)) : [])];
  if (values.length > 0) region['values'] = values;
  if (s.others.co) region['allOtherValuesExcept'] = s.others.values.map((v) => toPlain(v));
  if (s.missing) region['pathMissing'] = true;
  return region;
}

function str(v: JsonValue | undefined): string {
  return v?.kind === 'string' ? v.value : '';
}

function bool(v: JsonValue | undefined): boolean {
  return v?.kind === 'boolean' && v.value;
}
