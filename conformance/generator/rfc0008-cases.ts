/**
 * RFC 0008 (draft) rows: every row of its Conformance section, run only when the reader enables the draft feature
 * `rfc0008-quantifiers` (docs/adr/0193-draft-corpus.md). Expected values are written from RFC 0008's Specification
 * and Conformance text, never from our evaluator; each limit-accounting total is the RFC's own arithmetic (its
 * legend), reproduced in the row's description, and yields two rows: budget T answers, T − 1 is
 * resource-exhaustion in phase evaluation.
 */
import {
  all,
  evReq,
  any,
  ev,
  fact,
  FALSE,
  lit,
  not,
  pack,
  probe,
  raw,
  rule,
  TRUE,
  UNKNOWN,
  type Json,
  type Raw,
} from './builders.js';
import type { DocCaseDef, EvalCaseDef, PackRef } from './case-types.js';

type Cond = { [k: string]: Json };
const exists = (path: string, where: Cond): Cond => ({ op: 'exists', path, where });
const every = (path: string, where: Cond): Cond => ({ op: 'every', path, where });
const uniform = (path: string, at: string): Cond => ({ op: 'uniform', path, at });
const OK = fact('/ok', 'equals', true);

const evReqs = (...ids: string[]) => ids.map((id) => evReq(id, false));
/** probe: true → yes, false → no, unknown → unresolved [unknown]; probeIgnore: unknown → the fallback "no". */
const probeIgnore = (c: Cond, parts: Record<string, Json> = {}) =>
  pack({ rules: [rule('r1', c, 'yes', 'ignore')], fallbackOutcome: 'no', ...parts });

const evals: EvalCaseDef[] = [];
const packs = new Map<string, PackRef>();
function ref(name: string, doc: Record<string, Json> | Raw): PackRef {
  const known = packs.get(name);
  if (known !== undefined) return known;
  const r = { name: `q-${name}`, doc };
  packs.set(name, r);
  return r;
}
function row(
  id: string,
  description: string,
  p: PackRef,
  facts: Json | Raw,
  expected: Record<string, Json>,
  more: Partial<EvalCaseDef> = {},
): void {
  evals.push({ id: `q-${id}`, description, pack: p, facts, expect: { disposition: expected }, ...more });
}

// ---- Positive and negative -------------------------------------------------------------------------------------
const pExists = ref('exists-ok', probe(exists('/xs', OK)));
const pEvery = ref('every-ok', probe(every('/xs', OK)));
row(
  'exists-one-of-three',
  'exists true where one of three elements matches.',
  pExists,
  { xs: [{ ok: false }, { ok: true }, { ok: false }] },
  TRUE,
);
row(
  'every-all-match',
  'every true where all elements match.',
  pEvery,
  { xs: [{ ok: true }, { ok: true }, { ok: true }] },
  TRUE,
);
row(
  'depth-two-nesting',
  'A depth-two nesting: exists a row every item of which is ok → true.',
  ref('exists-every', probe(exists('/rows', every('/items', OK)))),
  { rows: [{ items: [{ ok: true }, { ok: false }] }, { items: [{ ok: true }, { ok: true }] }] },
  TRUE,
);
row(
  'exists-all-false',
  'exists false over a non-empty all-false array.',
  pExists,
  { xs: [{ ok: false }, { ok: false }] },
  FALSE,
);
row(
  'every-one-false',
  'every false where exactly one element is false.',
  pEvery,
  { xs: [{ ok: true }, { ok: false }, { ok: true }] },
  FALSE,
);
row(
  'where-member-absent',
  'A where naming a member no element carries → unknown, not false.',
  pExists,
  { xs: [{ no: 1 }, { no: 2 }] },
  UNKNOWN,
);

// ---- Boundary ----------------------------------------------------------------------------------------------------
row('exists-empty', 'Empty array: exists → false (pinned).', pExists, { xs: [] }, FALSE);
row('every-empty', 'Empty array: every → true (pinned, vacuous truth).', pEvery, { xs: [] }, TRUE);
row(
  'exists-unknown-none-true',
  'One unknown and none true → exists unknown.',
  pExists,
  { xs: [{}, { ok: false }] },
  UNKNOWN,
);
row('exists-unknown-one-true', 'One unknown and one true → exists true.', pExists, { xs: [{}, { ok: true }] }, TRUE);
row(
  'every-unknown-rest-true',
  'One unknown and the rest true → every unknown.',
  pEvery,
  { xs: [{ ok: true }, {}, { ok: true }] },
  UNKNOWN,
);
row('every-unknown-one-false', 'One unknown and one false → every false.', pEvery, { xs: [{}, { ok: false }] }, FALSE);
for (const state of ['present', 'absent']) {
  const parts = { evidenceRequirements: evReqs('e1') };
  row(
    `every-empty-evidence-${state}`,
    `Empty array, evidence-present as the whole where, evidence ${state}: every → true (emptiness overrides).`,
    ref('every-ev', probe(every('/xs', ev('e1')), parts)),
    { xs: [] },
    TRUE,
    { evidence: { e1: state } },
  );
  row(
    `exists-empty-evidence-${state}`,
    `Empty array, evidence-present as the whole where, evidence ${state}: exists → false (emptiness overrides).`,
    ref('exists-ev', probe(exists('/xs', ev('e1')), parts)),
    { xs: [] },
    FALSE,
    { evidence: { e1: state } },
  );
}
for (const [name, value] of [
  ['object', { ok: true }],
  ['string', 'a'],
  ['number', 1],
  ['null', null],
  ['true', true],
] as const) {
  row(
    `exists-non-array-${name}`,
    `A ${name} at path is not an array → exists unknown.`,
    pExists,
    { xs: value },
    UNKNOWN,
  );
  row(`every-non-array-${name}`, `A ${name} at path is not an array → every unknown.`, pEvery, { xs: value }, UNKNOWN);
}
row('exists-unresolved-path', 'An unresolved path → exists unknown.', pExists, { ys: [] }, UNKNOWN);
row('every-unresolved-path', 'An unresolved path → every unknown.', pEvery, { ys: [] }, UNKNOWN);
row(
  'exists-permuted-first',
  'Permutation: the matching element first → true.',
  pExists,
  { xs: [{ ok: true }, { ok: false }, {}] },
  TRUE,
);
row(
  'exists-permuted-last',
  'Permutation: the matching element last → true.',
  pExists,
  { xs: [{}, { ok: false }, { ok: true }] },
  TRUE,
);
row(
  'exists-duplicated',
  'A duplicated element → the same disposition.',
  pExists,
  { xs: [{}, { ok: true }, { ok: true }, { ok: false }] },
  TRUE,
);
row(
  'every-duplicated-false',
  'A duplicated false element → every false, as without it.',
  pEvery,
  { xs: [{ ok: false }, { ok: true }, { ok: false }] },
  FALSE,
);

// ---- Ragged arrays, one row per operator; the unknown rows under both onUnknown values --------------------------
row(
  'ragged-exists-true',
  'Ragged exists: one element lacks /ok, another is true → true.',
  pExists,
  { xs: [{}, { ok: true }] },
  TRUE,
);
row(
  'ragged-every-false',
  'Ragged every: one element lacks /ok, another is false → false.',
  pEvery,
  { xs: [{}, { ok: false }] },
  FALSE,
);
row(
  'ragged-exists-unknown-escalate',
  'Ragged exists: missing and false → unknown; onUnknown escalate → unresolved [unknown].',
  pExists,
  { xs: [{}, { ok: false }] },
  UNKNOWN,
);
row(
  'ragged-exists-unknown-ignore',
  'Ragged exists: missing and false → unknown; onUnknown ignore → the rule stops contributing, fallback "no".',
  ref('exists-ok-ignore', probeIgnore(exists('/xs', OK))),
  { xs: [{}, { ok: false }] },
  FALSE,
);
row(
  'ragged-every-unknown-escalate',
  'Ragged every: missing and true → unknown; onUnknown escalate → unresolved [unknown].',
  pEvery,
  { xs: [{}, { ok: true }] },
  UNKNOWN,
);
row(
  'ragged-every-unknown-ignore',
  'Ragged every: missing and true → unknown; onUnknown ignore → fallback "no".',
  ref('every-ok-ignore', probeIgnore(every('/xs', OK))),
  { xs: [{}, { ok: true }] },
  FALSE,
);
const pUniV = ref('uniform-v', probe(uniform('/xs', '/v')));
row(
  'ragged-uniform-unknown-escalate',
  'Ragged uniform: two equal, one missing → unknown; escalate → unresolved [unknown].',
  pUniV,
  { xs: [{ v: 1 }, {}, { v: 1 }] },
  UNKNOWN,
);
row(
  'ragged-uniform-unknown-ignore',
  'Ragged uniform: two equal, one missing → unknown; ignore → fallback "no".',
  ref('uniform-v-ignore', probeIgnore(uniform('/xs', '/v'))),
  { xs: [{ v: 1 }, {}, { v: 1 }] },
  FALSE,
);

// ---- Singleton ---------------------------------------------------------------------------------------------------
for (const [name, el, want] of [
  ['true', { ok: true }, TRUE],
  ['false', { ok: false }, FALSE],
  ['missing', {}, UNKNOWN],
] as const) {
  row(
    `singleton-exists-${name}`,
    `Singleton ${JSON.stringify(el)} with where /ok equals true → exists.`,
    pExists,
    { xs: [el] },
    want,
  );
  row(
    `singleton-every-${name}`,
    `Singleton ${JSON.stringify(el)} with where /ok equals true → every.`,
    pEvery,
    { xs: [el] },
    want,
  );
}

// ---- Scope and re-rooting ----------------------------------------------------------------------------------------
const pGold = ref('every-gold', probe(every('/xs', fact('', 'equals', 'gold'))));
row(
  'scope-empty-pointer-true',
  'The empty pointer in where selects the element: ["gold","gold"] → every true.',
  pGold,
  { xs: ['gold', 'gold'] },
  TRUE,
);
row(
  'scope-empty-pointer-false',
  'The empty pointer in where selects the element: ["gold","silver"] → every false.',
  pGold,
  { xs: ['gold', 'silver'] },
  FALSE,
);
row(
  'scope-collision',
  '/status at the facts root is "open" and on each element "closed": the element decides inside where → false.',
  ref('exists-status', probe(exists('/xs', fact('/status', 'equals', 'open')))),
  { status: 'open', xs: [{ status: 'closed' }, { status: 'closed' }] },
  FALSE,
);
row(
  'scope-outer-intended',
  'A where naming /customer/tier, present only at the facts root, is element-relative → unknown.',
  ref('exists-tier', probe(exists('/xs', fact('/customer/tier', 'equals', 'gold')))),
  { customer: { tier: 'gold' }, xs: [{ id: 1 }, { id: 2 }] },
  UNKNOWN,
);
row(
  'scope-nested-path-outer-only',
  'A nested exists whose inner path /ys resolves only at the facts root, not within the element → unknown.',
  ref('exists-exists-ys', probe(exists('/xs', exists('/ys', OK)))),
  { ys: [{ ok: true }], xs: [{ id: 1 }] },
  UNKNOWN,
);
row(
  'scope-inner-reroot',
  'Inner where /tag resolves on the outer element but not on the inner member → unknown (root replaced, not accumulated).',
  ref('exists-exists-tag', probe(exists('/xs', exists('/ys', fact('/tag', 'equals', 'a'))))),
  { xs: [{ tag: 'a', ys: [{ id: 1 }] }] },
  UNKNOWN,
);

// ---- uniform -----------------------------------------------------------------------------------------------------
const pUniWhole = ref('uniform-whole', probe(uniform('/xs', '')));
const uniRows: [string, string, Json | Raw, Record<string, Json>, PackRef][] = [
  [
    'empty-at-equal',
    'Empty at compares whole elements: equal objects → true.',
    { xs: [{ a: [1, { b: null }] }, { a: [1, { b: null }] }] },
    TRUE,
    pUniWhole,
  ],
  [
    'empty-at-unequal',
    'Empty at compares whole elements: unequal → false.',
    { xs: [{ a: 1 }, { a: 2 }] },
    FALSE,
    pUniWhole,
  ],
  [
    'null-everywhere',
    'null at at in every element → true (null equals null).',
    { xs: [{ v: null }, { v: null }] },
    TRUE,
    pUniV,
  ],
  [
    'array-same-order',
    'Array-valued at [1,2] against [1,2] → true.',
    { xs: [{ v: [1, 2] }, { v: [1, 2] }] },
    TRUE,
    pUniV,
  ],
  [
    'array-other-order',
    'Array-valued at [1,2] against [2,1] → false (§7.4 arrays are ordered).',
    { xs: [{ v: [1, 2] }, { v: [2, 1] }] },
    FALSE,
    pUniV,
  ],
  [
    'object-member-order',
    'Object-valued at differing only in member order → true.',
    { xs: [{ v: { a: 1, b: 2 } }, { v: { b: 2, a: 1 } }] },
    TRUE,
    pUniV,
  ],
  [
    'missing-others-equal',
    'at missing in one element of three, the other two equal → unknown (clause 4).',
    { xs: [{ v: 1 }, { v: 1 }, {}] },
    UNKNOWN,
    pUniV,
  ],
  [
    'missing-others-unequal',
    '[1, 2, ‹at missing›] → false: clause 3 before clause 4.',
    { xs: [{ v: 1 }, { v: 2 }, {}] },
    FALSE,
    pUniV,
  ],
  [
    'missing-others-unequal-permuted',
    'Permutation [‹at missing›, 2, 1] → false.',
    { xs: [{}, { v: 2 }, { v: 1 }] },
    FALSE,
    pUniV,
  ],
  ['singleton-missing', 'Singleton whose at is missing → unknown, not true.', { xs: [{}] }, UNKNOWN, pUniV],
  ['empty', 'Empty array → true (clause 2).', { xs: [] }, TRUE, pUniV],
  ['non-array', 'A path selecting a non-array → unknown (clause 1).', { xs: { v: 1 } }, UNKNOWN, pUniV],
  [
    'huge-exponent-unequal',
    '1e999999999 vs 2e999999999 → false, decided exactly (§7.4 numeric equality).',
    raw('{"xs":[1e999999999,2e999999999]}'),
    FALSE,
    pUniWhole,
  ],
  [
    'huge-exponent-equal',
    '1e999999999 vs 10e999999998 vs 0.1e1000000000 → true.',
    raw('{"xs":[1e999999999,10e999999998,0.1e1000000000]}'),
    TRUE,
    pUniWhole,
  ],
];
for (const [id, d, facts, want, p] of uniRows) row(`uniform-${id}`, d, p, facts, want);

// ---- Adversarial -------------------------------------------------------------------------------------------------
row(
  'vacuous-every-permits',
  'An empty-array every gating a permissive outcome permits (the vacuous-truth advisory exists for this row).',
  ref('every-available', probe(every('/items', fact('/available', 'equals', true)))),
  { items: [] },
  TRUE,
);

// ---- Limit accounting (RFC 0008 Conformance legend; the arithmetic is the RFC's) --------------------------------
const E = (n: number, place: 'first' | 'last'): Raw => {
  const rows = Array.from({ length: n }, (_, i) =>
    (place === 'first' ? i === 0 : i === n - 1) ? '{"v":1}' : '{"v":0}',
  );
  return raw(`{"rows":[${rows.join(',')}]}`);
};
const Qv = (p: string, x: Json): Cond => exists('/rows', fact(p, 'equals', x));
const rowsOf = (items: readonly string[]): Raw => raw(`{"rows":[${items.join(',')}]}`);
const times = (n: number, s: string): string[] => Array.from({ length: n }, () => s);

interface LimitRow {
  id: string;
  arithmetic: string;
  total: number;
  pack: PackRef;
  facts: Raw;
  expected?: Record<string, Json>;
  evidence?: Json;
  /** Budgets refused when the answering budget would exceed what this evaluator accepts (ADR 0192). */
  refuseOnlyAt?: readonly number[];
}
const limit: LimitRow[] = [];
const pQ = ref('limit-q-v-1', probe(Qv('/v', 1)));
for (const n of [200, 202])
  for (const place of ['first', 'last'] as const)
    limit.push({
      id: `limit-q-e${n}-${place}`,
      arithmetic: `Q("/v",1) over E(${n}) with the 1 ${place}: 11 + 2 + 7×${n} = ${11 + 2 + 7 * n}`,
      total: 11 + 2 + 7 * n,
      pack: pQ,
      facts: E(n, place),
      expected: TRUE,
    });
for (const m of [600, 900]) {
  const per = m / 3;
  const items = (k: number) =>
    `{"items":[${Array.from({ length: per }, (_, i) => (k === 2 && i === per - 1 ? '{"v":1}' : '{"v":0}')).join(',')}]}`;
  limit.push({
    id: `limit-ragged-nesting-m${m}`,
    arithmetic: `exists /rows (3 rows) of exists /items of Q("/v",1), ${m} inner members: 11 + 6 + 2 + 3×(1+6) + 7×${m} = ${11 + 6 + 2 + 21 + 7 * m}`,
    total: 11 + 6 + 2 + 21 + 7 * m,
    pack: ref('limit-ragged', probe(exists('/rows', exists('/items', fact('/v', 'equals', 1))))),
    facts: rowsOf([items(0), items(1), items(2)]),
    expected: TRUE,
  });
}
limit.push({
  id: 'limit-unreached-branch',
  arithmetic: 'any [literal true, Q over E(200)]: 1 (any) + 1 (literal) + 1,413 = 1,415 (every branch is charged)',
  total: 1415,
  pack: ref('limit-unreached', probe(any(lit(true), Qv('/v', 1)))),
  facts: E(200, 'last'),
  expected: TRUE,
});
const MEGA = `/${'a'.repeat(1_048_575)}`;
limit.push({
  id: 'limit-megabyte-pointer',
  arithmetic:
    'Q(1,048,576-byte pointer, true) over 10,000 rows: 11 + 1,048,576 + 10,000 × (1 + 1,048,576 + 5) = 10,486,868,587; refused at 100,000 (by the compile charge, before any element) and at 100,000,000',
  total: 10_486_868_587,
  pack: ref('limit-megabyte', probe(Qv(MEGA, true))),
  facts: rowsOf(times(10_000, '{"v":0}')),
  refuseOnlyAt: [100_000, 100_000_000],
});
limit.push(
  {
    id: 'limit-empty-tokens-100',
    arithmetic: 'Q("/"×100, true) over 1,000 rows: 11 + 100 + 1,000 × (1 + 100 + 5) = 106,111',
    total: 106_111,
    pack: ref('limit-empty-tokens-100', probe(Qv('/'.repeat(100), true))),
    facts: rowsOf(times(1000, '{"v":0}')),
    expected: UNKNOWN,
  },
  {
    id: 'limit-empty-tokens-1',
    arithmetic: 'Q("/", true) over 1,000 rows: 11 + 1 + 1,000 × (1 + 1 + 5) = 7,012',
    total: 7012,
    pack: ref('limit-empty-tokens-1', probe(Qv('/', true))),
    facts: rowsOf(times(1000, '{"v":0}')),
    expected: UNKNOWN,
  },
);
const DIGITS = `1${'0'.repeat(999)}`;
limit.push(
  {
    id: 'limit-long-operand',
    arithmetic: 'Q("/v", 1,000-digit number) over E(200): 11 + 2 + 200 × (1 + 2 + 1,001 + 2) = 201,213',
    total: 201_213,
    pack: ref(
      'limit-long-operand',
      raw(JSON.stringify(probe(Qv('/v', 0)), null, 2).replace('"value": 0', `"value": ${DIGITS}`)),
    ),
    facts: E(200, 'last'),
    expected: FALSE,
  },
  {
    id: 'limit-long-string-value',
    arithmetic:
      'Q("/v", "a") over 200 rows whose v is a 1,000-byte string: 11 + 2 + 200 × (1 + 2 + 4 + 1,003) = 202,013',
    total: 202_013,
    pack: ref('limit-q-v-a', probe(Qv('/v', 'a'))),
    facts: rowsOf(times(200, `{"v":"${'b'.repeat(1000)}"}`)),
    expected: FALSE,
  },
  {
    id: 'limit-long-number-value',
    arithmetic:
      'Q("/v", 1) over 200 rows whose v is a 1,000-digit number: 11 + 2 + 200 × (1 + 2 + 2 + 1,001) = 201,213',
    total: 201_213,
    pack: pQ,
    facts: rowsOf(times(200, `{"v":${DIGITS}}`)),
    expected: FALSE,
  },
);
for (const len of [1000, 1]) {
  const id = 'a'.repeat(len);
  limit.push({
    id: `limit-evidence-id-${len}`,
    arithmetic: `exists /rows where evidence-present of a ${len}-byte id over 200 rows: 11 + 200 × (1 + ${len}) = ${11 + 200 * (1 + len)}`,
    total: 11 + 200 * (1 + len),
    pack: ref(`limit-evidence-${len}`, probe(exists('/rows', ev(id)), { evidenceRequirements: evReqs(id) })),
    facts: E(200, 'last'),
    expected: UNKNOWN,
  });
}
for (const M of [64, 1000]) {
  const big = `1${'0'.repeat(M - 1)}`;
  limit.push({
    id: `limit-uniform-reread-m${M}`,
    arithmetic: `uniform /rows at /v over 1,000 rows, 999 of v 0 and one of an ${M}-byte number: 11 + 2 + 1,000×2 + (999×2 + (1+${M})) + 999×(1+${M}) = ${11 + 2 + 2000 + 1998 + 1 + M + 999 * (1 + M)}`,
    total: 11 + 2 + 2000 + 1998 + 1 + M + 999 * (1 + M),
    pack: ref('limit-uniform-v', probe(uniform('/rows', '/v'))),
    facts: rowsOf([...times(999, '{"v":0}'), `{"v":${big}}`]),
    expected: FALSE,
  });
}
const W = `[${times(10_000, '[]').join(',')}]`;
for (const m of [2, 4])
  limit.push({
    id: `limit-empty-containers-m${m}`,
    arithmetic: `uniform /rows at "" over ${m} copies of W₁₀₀₀₀ (V = 1 + 2×10,000 = 20,001): 11 + ${m}×1 + ${m}×20,001 + ${m - 1}×20,001 = ${11 + m + m * 20001 + (m - 1) * 20001}`,
    total: 11 + m + m * 20001 + (m - 1) * 20001,
    pack: ref('limit-uniform-whole', probe(uniform('/rows', ''))),
    facts: rowsOf(times(m, W)),
    expected: TRUE,
  });

const EXHAUSTED = { errorClass: 'resource-exhaustion', errorPhase: 'evaluation' } as const;
for (const l of limit) {
  if (l.refuseOnlyAt !== undefined) {
    for (const b of l.refuseOnlyAt)
      evals.push({
        id: `q-${l.id}-refused-at-${b}`,
        description: `${l.arithmetic}. Budget ${b} < total → resource-exhaustion (evaluation).`,
        pack: l.pack,
        facts: l.facts,
        workBudget: b,
        expect: EXHAUSTED,
      });
    continue;
  }
  evals.push({
    id: `q-${l.id}-at-total`,
    description: `${l.arithmetic}. Budget = total → answers.`,
    pack: l.pack,
    facts: l.facts,
    ...(l.evidence !== undefined ? { evidence: l.evidence } : {}),
    workBudget: l.total,
    expect: { disposition: l.expected! },
  });
  evals.push({
    id: `q-${l.id}-below-total`,
    description: `${l.arithmetic}. Budget = total − 1 → resource-exhaustion (evaluation).`,
    pack: l.pack,
    facts: l.facts,
    workBudget: l.total - 1,
    expect: EXHAUSTED,
  });
}

export const rfc0008EvaluationCases = (): EvalCaseDef[] => evals;

// ---- Structural rows (document suite) ----------------------------------------------------------------------------
const docPack = (when: Cond, parts: Record<string, Json> = {}) => probe(when, parts);
export const rfc0008DocumentCases = (): DocCaseDef[] => [
  {
    id: 'q-doc-exists-valid',
    description: 'An exists in a rule keeps "specVersion": "0.3.0" and is valid under the opt-in.',
    document: docPack(exists('/xs', OK)),
    expectedConformant: true,
    expectedClass: 'valid',
  },
  {
    id: 'q-doc-sibling-exists-in-where',
    description: 'Two sibling exists under an all inside one where: both at depth two, valid.',
    document: docPack(exists('/xs', all(exists('/a', OK), exists('/b', OK)))),
    expectedConformant: true,
    expectedClass: 'valid',
  },
  {
    id: 'q-doc-depth-three-through-all',
    description:
      'An exists reached only through an all inside a where, whose own where has an aggregate: depth three, invalid.',
    document: docPack(exists('/xs', all(exists('/a', exists('/b', OK))))),
    expectedConformant: false,
    expectedClass: 'structural',
    expectedCodes: ['JPS-SCHEMA-CONDITION-OP'],
  },
  {
    id: 'q-doc-depth-three-through-not',
    description: 'The same with not instead of all: invalid, not does not launder depth.',
    document: docPack(exists('/xs', not(exists('/a', exists('/b', OK))))),
    expectedConformant: false,
    expectedClass: 'structural',
    expectedCodes: ['JPS-SCHEMA-CONDITION-OP'],
  },
  {
    id: 'q-doc-uniform-depth-two',
    description: 'A uniform inside a where: depth two, valid.',
    document: docPack(exists('/xs', uniform('/ys', '/v'))),
    expectedConformant: true,
    expectedClass: 'valid',
  },
  {
    id: 'q-doc-uniform-depth-three',
    description: 'A uniform inside an inner where: depth three, invalid (uniform counts as an aggregate).',
    document: docPack(exists('/xs', every('/ys', uniform('/zs', '/v')))),
    expectedConformant: false,
    expectedClass: 'structural',
    expectedCodes: ['JPS-SCHEMA-CONDITION-OP'],
  },
  {
    id: 'q-doc-exists-without-where',
    description: 'exists requires where.',
    document: docPack({ op: 'exists', path: '/xs' }),
    expectedConformant: false,
    expectedClass: 'structural',
  },
  {
    id: 'q-doc-exists-extra-member',
    description: 'exists admits no other member (additionalProperties false).',
    document: docPack({ ...exists('/xs', OK), at: '/v' }),
    expectedConformant: false,
    expectedClass: 'structural',
  },
  {
    id: 'q-doc-uniform-without-at',
    description: 'uniform requires at.',
    document: docPack({ op: 'uniform', path: '/xs' }),
    expectedConformant: false,
    expectedClass: 'structural',
  },
  {
    id: 'q-doc-path-not-pointer',
    description: "path has fact.path's RFC 6901 pattern.",
    document: docPack(exists('xs', OK)),
    expectedConformant: false,
    expectedClass: 'structural',
  },
  {
    id: 'q-doc-where-evidence-undeclared',
    description: '§3.3 recurses into where: an evidence-present naming no declared requirement is a semantic failure.',
    document: docPack(exists('/xs', ev('nope'))),
    expectedConformant: false,
    expectedClass: 'semantic',
    expectedCodes: ['JPS-UNRESOLVED-REFERENCE'],
  },
];
