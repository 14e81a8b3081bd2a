import { describe, expect, test } from 'vitest';
import { PackCodes as C } from '../../core/pack/codes.js';
import { OVERLAP_EFFECT } from '../../core/pack/overlap.js';
import { checkOverlaps } from '../../core/pack/overlap.js';
import { readJson } from '../../core/carrier/index.js';
import type { JsonObject } from '../../core/carrier/json-value.js';
import { bytes, fact, packWithRules, rule, validate, type Pack } from './fixtures/index.js';

const overlaps = (p: Pack, strict = false) =>
  validate(p, { strict }).diagnostics.filter((d) => d.code === C.RULES_OVERLAP);
const pair = (a: Pack, b: Pack, outcomes: [string, string] = ['a', 'b']) =>
  packWithRules([rule('first', outcomes[0], a), rule('second', outcomes[1], b)]);

/** An independent §7 oracle over plain JSON (test data only: small values, no huge numbers). */
function truth(c: Pack, facts: unknown): boolean | undefined {
  const at = (path: string): { v: unknown } | undefined => {
    let cur: unknown = facts;
    for (const t of path === ''
      ? []
      : path
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))) {
      if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, t)) return undefined;
      cur = (cur as Record<string, unknown>)[t];
    }
    return { v: cur };
  };
  const canon = (x: unknown): string =>
    Array.isArray(x)
      ? `[${x.map(canon).join(',')}]`
      : x !== null && typeof x === 'object'
        ? `{${Object.keys(x)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canon((x as Record<string, unknown>)[k])}`)
            .join(',')}}`
        : JSON.stringify(x);
  const eq = (x: unknown, y: unknown): boolean => canon(x) === canon(y);
  const dec = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
  switch (c.op) {
    case 'literal':
      return c.value;
    case 'not': {
      const r = truth(c.condition, facts);
      return r === undefined ? undefined : !r;
    }
    case 'all': {
      const rs = c.conditions.map((x: Pack) => truth(x, facts));
      return rs.includes(false) ? false : rs.includes(undefined) ? undefined : true;
    }
    case 'any': {
      const rs = c.conditions.map((x: Pack) => truth(x, facts));
      return rs.includes(true) ? true : rs.includes(undefined) ? undefined : false;
    }
    case 'evidence-present':
      return undefined;
    case 'fact': {
      const s = at(c.path);
      if (s === undefined) return undefined;
      if (c.operator === 'equals') return eq(s.v, c.value);
      if (c.operator === 'not-equals') return !eq(s.v, c.value);
      if (c.operator === 'in') return c.value.some((x: unknown) => eq(s.v, x));
      if (typeof s.v !== 'string' || !dec.test(s.v)) return undefined;
      const d = Number(s.v) - Number(c.value); // test values are small and exact in binary here
      return {
        'greater-than': d > 0,
        'greater-than-or-equal': d >= 0,
        'less-than': d < 0,
        'less-than-or-equal': d <= 0,
      }[c.operator as string];
    }
  }
  throw new Error('bad condition');
}

describe('§3.3.1 exact overlap on one fact path', () => {
  test('ascending bands overlap exactly and the lower rule is rewritten as §3.3.1 shows', () => {
    const p = pair(fact('/score', 'greater-than-or-equal', '40'), fact('/score', 'greater-than-or-equal', '70'));
    const r = validate(p);
    expect(r).toMatchObject({ conformant: true, class: 'valid' });
    expect(r.pack).toBeDefined();
    expect(r.diagnostics).toEqual([
      {
        code: 'JPS-RULES-OVERLAP',
        certainty: 'exact',
        severity: 'warning',
        pointer: '/rules/0',
        message: expect.any(String),
        rules: [
          { id: 'first', outcome: 'a', pointer: '/rules/0' },
          { id: 'second', outcome: 'b', pointer: '/rules/1' },
        ],
        region: { path: '/score', from: { value: '70', inclusive: true } },
        witness: { facts: { score: '70' } },
        effect: 'Core §8 records conflict; the disposition is unresolved.',
        suggestion: {
          rule: 'first',
          pointer: '/rules/0/when',
          when: {
            op: 'all',
            conditions: [fact('/score', 'greater-than-or-equal', '40'), fact('/score', 'less-than', '70')],
          },
          message: expect.any(String),
        },
      },
    ]);
    expect(OVERLAP_EFFECT).toBe('Core §8 records conflict; the disposition is unresolved.');
  });

  test('when the broader rule comes second, the second rule is the one rewritten', () => {
    const [d] = overlaps(pair(fact('/score', 'less-than-or-equal', '10'), fact('/score', 'less-than-or-equal', '50')));
    expect(d?.['suggestion']).toMatchObject({
      rule: 'second',
      when: {
        op: 'all',
        conditions: [fact('/score', 'less-than-or-equal', '50'), fact('/score', 'greater-than', '10')],
      },
    });
    expect(d?.['region']).toEqual({ path: '/score', to: { value: '10', inclusive: true } });
  });

  test('ranges that meet only at an endpoint excluded by either range do not overlap', () => {
    expect(overlaps(pair(fact('/s', 'less-than', '70'), fact('/s', 'greater-than-or-equal', '70')))).toEqual([]);
    expect(overlaps(pair(fact('/s', 'less-than-or-equal', '70'), fact('/s', 'greater-than', '70')))).toEqual([]);
    expect(overlaps(pair(fact('/s', 'less-than', '70'), fact('/s', 'greater-than', '70')))).toEqual([]);
  });

  test('ranges that share a closed endpoint overlap at exactly that point', () => {
    const [d] = overlaps(pair(fact('/s', 'less-than-or-equal', '70'), fact('/s', 'greater-than-or-equal', '70.00')));
    expect(d?.['region']).toEqual({
      path: '/s',
      from: { value: '70.00', inclusive: true },
      to: { value: '70', inclusive: true },
    });
    expect(d?.['certainty']).toBe('exact');
  });

  test('decimal order is exact for long decimals that a double cannot tell apart', () => {
    const lo = '0.10000000000000000001';
    expect(overlaps(pair(fact('/s', 'less-than', lo), fact('/s', 'greater-than', '0.1')))).toHaveLength(1);
    expect(overlaps(pair(fact('/s', 'less-than-or-equal', '0.1'), fact('/s', 'greater-than', '0.1')))).toEqual([]);
  });

  test('an open band between two endpoints yields a witness strictly inside it', () => {
    const [d] = overlaps(
      pair(
        { op: 'all', conditions: [fact('/s', 'greater-than', '1'), fact('/s', 'less-than', '2')] },
        fact('/s', 'greater-than', '1.5'),
      ),
    );
    expect(d?.['region']).toEqual({
      path: '/s',
      from: { value: '1.5', inclusive: false },
      to: { value: '2', inclusive: false },
    });
    const w = (d?.['witness'] as { facts: { s: string } }).facts.s;
    expect(Number(w) > 1.5 && Number(w) < 2).toBe(true);
  });

  const cases: [string, Pack, Pack, unknown][] = [
    [
      'equals and in sharing a value',
      fact('/x', 'equals', 'red'),
      fact('/x', 'in', ['blue', 'red']),
      { path: '/x', values: ['red'] },
    ],
    [
      'equal JSON numbers with different spellings',
      fact('/n', 'equals', 1),
      fact('/n', 'equals', 1.0),
      { path: '/n', values: [1] },
    ],
    [
      'objects equal regardless of member order',
      fact('/o', 'equals', { a: 1, b: [true] }),
      fact('/o', 'in', [{ b: [true], a: 1 }]),
      { path: '/o', values: [{ a: 1, b: [true] }] },
    ],
    [
      'a decimal string equal to an ordered bound',
      fact('/s', 'equals', '5'),
      fact('/s', 'greater-than-or-equal', '5'),
      { path: '/s', values: ['5'] },
    ],
    [
      'two not-equals',
      fact('/x', 'not-equals', 'a'),
      fact('/x', 'not-equals', 'b'),
      { path: '/x', allOtherValuesExcept: ['a', 'b'] },
    ],
    [
      'any and all on one path',
      { op: 'any', conditions: [fact('/x', 'equals', 'a'), fact('/x', 'equals', 'b')] },
      { op: 'all', conditions: [fact('/x', 'not-equals', 'a'), fact('/x', 'not-equals', 'c')] },
      { path: '/x', values: ['b'] },
    ],
    [
      'literal true against a fact',
      { op: 'literal', value: true },
      fact('/x', 'equals', null),
      { path: '/x', values: [null] },
    ],
    ['two literal trues', { op: 'literal', value: true }, { op: 'literal', value: true }, { pathMissing: true }],
  ];
  for (const [label, a, b, region] of cases) {
    test(`${label} overlap exactly, with a witness that makes both rules true`, () => {
      const ds = overlaps(pair(a, b));
      expect(ds).toHaveLength(1);
      expect(ds[0]).toMatchObject({ certainty: 'exact', severity: 'warning' });
      expect(ds[0]?.['region']).toMatchObject(region as object);
      const facts = (ds[0]?.['witness'] as { facts: unknown }).facts;
      expect(truth(a, facts)).toBe(true);
      expect(truth(b, facts)).toBe(true);
    });
  }

  const disjoint: [string, Pack, Pack][] = [
    [
      'decimal strings with different spellings under equals',
      fact('/s', 'equals', '1.0'),
      fact('/s', 'equals', '1.00'),
    ],
    ['a string and a Boolean', fact('/x', 'equals', 'true'), fact('/x', 'equals', true)],
    ['a JSON number and an ordered comparison', fact('/n', 'equals', 5), fact('/n', 'greater-than', '0')],
    ['a decimal string below a bound', fact('/s', 'equals', '1.0'), fact('/s', 'less-than', '1')],
    [
      'a condition and its negation',
      fact('/s', 'greater-than-or-equal', '70'),
      { op: 'not', condition: fact('/s', 'greater-than-or-equal', '70') },
    ],
    ['equals and not-equals of one value', fact('/x', 'equals', 'a'), fact('/x', 'not-equals', 'a')],
    ['in lists with no common value', fact('/x', 'in', ['a', 'b']), fact('/x', 'in', ['c', 1, '1'])],
    ['literal false against anything', { op: 'literal', value: false }, { op: 'literal', value: true }],
    [
      'an unsatisfiable all',
      { op: 'all', conditions: [fact('/x', 'equals', 'a'), fact('/x', 'equals', 'b')] },
      fact('/x', 'not-equals', 'z'),
    ],
    [
      'a not-equals whose only other values are excluded',
      { op: 'all', conditions: [fact('/x', 'not-equals', 'a'), fact('/x', 'in', ['a'])] },
      { op: 'literal', value: true },
    ],
  ];
  for (const [label, a, b] of disjoint) {
    test(`${label} do not overlap`, () => {
      expect(overlaps(pair(a, b))).toEqual([]);
    });
  }

  test('rules naming the same outcome are never compared', () => {
    expect(overlaps(pair(fact('/s', 'greater-than', '1'), fact('/s', 'greater-than', '2'), ['a', 'a']))).toEqual([]);
  });

  test('every pair is reported, in rule order', () => {
    const p = packWithRules([
      rule('r1', 'a', { op: 'literal', value: true }),
      rule('r2', 'b', { op: 'literal', value: true }),
      rule('r3', 'c', { op: 'literal', value: true }),
    ]);
    expect(overlaps(p).map((d) => (d['rules'] as { id: string }[]).map((r) => r.id))).toEqual([
      ['r1', 'r2'],
      ['r1', 'r3'],
      ['r2', 'r3'],
    ]);
  });
});

describe('§3.3.1 suggested rewrites remove the overlap they report', () => {
  const samples: [Pack, Pack][] = [
    [fact('/s', 'greater-than-or-equal', '40'), fact('/s', 'greater-than-or-equal', '70')],
    [fact('/s', 'less-than', '10'), fact('/s', 'less-than-or-equal', '50')],
    [fact('/x', 'equals', 'a'), fact('/x', 'in', ['a', 'b'])],
    [fact('/x', 'not-equals', 'a'), fact('/x', 'not-equals', 'b')],
    [
      { op: 'all', conditions: [fact('/s', 'greater-than', '1'), fact('/s', 'less-than', '9')] },
      { op: 'any', conditions: [fact('/s', 'equals', '5'), fact('/s', 'greater-than', '8')] },
    ],
    [fact('/x', 'greater-than', '1'), fact('/y', 'greater-than', '1')],
    [
      { op: 'literal', value: true },
      { op: 'not', condition: fact('/x', 'equals', 'a') },
    ],
  ];
  for (const [a, b] of samples) {
    test(`rewriting as suggested leaves no overlap between ${JSON.stringify(a)} and ${JSON.stringify(b)}`, () => {
      const p = pair(a, b);
      const [d] = overlaps(p);
      expect(d).toBeDefined();
      const s = d!['suggestion'] as { rule: string; pointer: string; when: Pack };
      const index = s.rule === 'first' ? 0 : 1;
      expect(s.pointer).toBe(`/rules/${index}/when`);
      p.rules[index].when = s.when;
      expect(overlaps(p)).toEqual([]);
    });
  }
});

describe('§3.3.1 overlap across paths and evidence', () => {
  test('conditions on different paths that nothing excludes are reported as not-excluded', () => {
    const [d, ...rest] = overlaps(
      pair(fact('/x', 'greater-than-or-equal', '5'), fact('/y', 'greater-than-or-equal', '5')),
    );
    expect(rest).toEqual([]);
    expect(d).toMatchObject({
      code: C.RULES_OVERLAP,
      certainty: 'not-excluded',
      severity: 'warning',
      pointer: '/rules/0',
      rules: [
        { id: 'first', outcome: 'a' },
        { id: 'second', outcome: 'b' },
      ],
      paths: ['/x', '/y'],
      effect: OVERLAP_EFFECT,
      suggestion: {
        rule: 'first',
        when: {
          op: 'all',
          conditions: [
            fact('/x', 'greater-than-or-equal', '5'),
            { op: 'not', condition: fact('/y', 'greater-than-or-equal', '5') },
          ],
        },
      },
    });
    expect(d).not.toHaveProperty('witness');
  });

  test('a cross-path pair excluded on a shared path is not reported', () => {
    expect(
      overlaps(
        pair(fact('/x', 'greater-than-or-equal', '5'), {
          op: 'all',
          conditions: [fact('/x', 'less-than', '3'), fact('/y', 'equals', 1)],
        }),
      ),
    ).toEqual([]);
  });

  test('a cross-path pair is not excluded when the shared path can be missing on one side', () => {
    const b = { op: 'any', conditions: [fact('/x', 'less-than', '3'), fact('/y', 'equals', 1)] };
    expect(overlaps(pair(fact('/x', 'greater-than-or-equal', '5'), b)).map((d) => d['certainty'])).toEqual([
      'not-excluded',
    ]);
  });

  test('evidence presence and its negation exclude each other', () => {
    const e = { op: 'evidence-present', evidenceRequirement: 'doc' };
    const p = pair(e, { op: 'not', condition: e });
    p.evidenceRequirements = [{ id: 'doc', description: 'Doc.', required: false }];
    expect(overlaps(p)).toEqual([]);
  });

  test('evidence is not a fact path, so evidence against a literal is not-excluded rather than exact', () => {
    const p = pair({ op: 'evidence-present', evidenceRequirement: 'doc' }, { op: 'literal', value: true });
    p.evidenceRequirements = [{ id: 'doc', description: 'Doc.', required: false }];
    expect(overlaps(p).map((d) => d['certainty'])).toEqual(['not-excluded']);
  });
});

describe('§3.3.1 strict mode (docs/adr/0022-strict-overlap-verdict.md)', () => {
  test('strict mode reports an exact overlap as an error and the pack does not pass the strict gate', () => {
    const p = pair(fact('/s', 'greater-than-or-equal', '40'), fact('/s', 'greater-than-or-equal', '70'));
    const r = validate(p, { strict: true });
    expect(r).toMatchObject({ conformant: false, class: 'semantic' });
    expect(r.pack).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d['certainty'], d.severity])).toEqual([
      [C.RULES_OVERLAP, 'exact', 'error'],
    ]);
  });

  test('not-excluded stays a warning under strict mode and the pack passes', () => {
    const r = validate(pair(fact('/x', 'equals', 1), fact('/y', 'equals', 1)), { strict: true });
    expect(r).toMatchObject({ conformant: true, class: 'valid' });
    expect(r.diagnostics.map((d) => [d['certainty'], d.severity])).toEqual([['not-excluded', 'warning']]);
  });

  test('plain mode reports the same exact overlap as a warning on a conformant pack', () => {
    const r = validate(pair(fact('/s', 'greater-than-or-equal', '40'), fact('/s', 'greater-than-or-equal', '70')));
    expect(r.conformant).toBe(true);
    expect(r.diagnostics.map((d) => d.severity)).toEqual(['warning']);
  });

  test('the overlap check runs for 0.2.0-draft packs too', () => {
    const p = packWithRules(
      [rule('r1', 'a', fact('/s', 'greater-than', '1')), rule('r2', 'b', fact('/s', 'greater-than', '2'))],
      '0.2.0-draft',
    );
    expect(validate(p).diagnostics.map((d) => d['certainty'])).toEqual(['exact']);
  });
});

describe('the overlap analysis is bounded (docs/adr/0024-overlap-analysis.md)', () => {
  const tree = (p: Pack): JsonObject => {
    const r = readJson(bytes(p));
    if (!r.ok || r.value.kind !== 'object') throw new Error('fixture');
    return r.value;
  };

  test('a spent budget stops the analysis with one warning saying how far it got', () => {
    const rules = Array.from({ length: 12 }, (_, i) =>
      rule(`r${i}`, i % 2 ? 'a' : 'b', fact('/s', 'greater-than', String(i))),
    );
    const ds = checkOverlaps(tree(packWithRules(rules)), { strict: false, budget: 50 });
    const bounded = ds.filter((d) => d.code === C.OVERLAP_ANALYSIS_BOUNDED);
    expect(bounded).toHaveLength(1);
    expect(bounded[0]?.severity).toBe('warning');
    expect(ds[ds.length - 1]).toBe(bounded[0]);
    expect(ds.length).toBeLessThan(1 + 36);
  });

  test('the default budget analyses a hundred rules completely', () => {
    const rules = Array.from({ length: 100 }, (_, i) =>
      rule(`r${i}`, i % 2 ? 'a' : 'b', fact('/s', 'greater-than', String(i))),
    );
    const ds = checkOverlaps(tree(packWithRules(rules)), { strict: false });
    expect(ds.filter((d) => d.code === C.OVERLAP_ANALYSIS_BOUNDED)).toEqual([]);
    // every a/b pair shares the ray: 50 × 50 found, the first 100 kept and the rest counted (ADR 0153)
    expect(ds.filter((d) => d.code === C.RULES_OVERLAP)).toHaveLength(100);
    expect(ds.find((d) => d.code === C.DIAGNOSTICS_OMITTED)?.['omitted']).toBe(50 * 50 - 100);
  });
});

describe('skipping the overlap lint', () => {
  const p = () => pair(fact('/s', 'greater-than-or-equal', '40'), fact('/s', 'greater-than-or-equal', '70'));
  test('overlapCheck: false skips the lint without changing the plain verdict', () => {
    const r = validate(p(), { overlapCheck: false });
    expect(r).toMatchObject({ conformant: true, class: 'valid', diagnostics: [] });
  });
  test('strict mode runs the lint even when overlapCheck is false', () => {
    expect(validate(p(), { overlapCheck: false, strict: true }).conformant).toBe(false);
  });
});
