import { describe, expect, it } from 'vitest';
import { all, any, ev, fact, lit, not, truthOf } from './helpers.js';

const T = lit(true);
const F = lit(false);
const U = fact('/missing', 'equals', 1); // an unresolved pointer is unknown (§7.4)

describe('§7.1–7.3 strong three-valued logic', () => {
  const cases: [string, unknown, string][] = [
    ['all of true and true is true', all(T, T), 'true'],
    ['all with a false child is false even beside an unknown', all(U, F), 'false'],
    ['all of true and unknown is unknown', all(T, U), 'unknown'],
    ['any with a true child is true even beside an unknown', any(U, T), 'true'],
    ['any of false and unknown is unknown', any(F, U), 'unknown'],
    ['any of false and false is false', any(F, F), 'false'],
    ['not true is false', not(T), 'false'],
    ['not false is true', not(F), 'true'],
    ['not unknown stays unknown', not(U), 'unknown'],
    ['a literal false is false', F, 'false'],
    ['nested not(all(any(unknown,false),true)) is unknown', not(all(any(U, F), T)), 'unknown'],
  ];
  for (const [name, when, expected] of cases) it(name, () => expect(truthOf(when, {})).toBe(expected));
});

describe('§7.4 equals and not-equals', () => {
  const facts = {
    s: 'abc',
    n: 1,
    big: 9007199254740993,
    t: true,
    z: null,
    a: [1, 'x', { k: [] }],
    o: { p: 1, q: [true] },
  };
  const cases: [string, unknown, string][] = [
    ['equal strings are equal', fact('/s', 'equals', 'abc'), 'true'],
    ['a string never equals a number spelling it', fact('/n', 'equals', '1'), 'false'],
    ['null equals null', fact('/z', 'equals', null), 'true'],
    ['false does not equal null', fact('/z', 'equals', false), 'false'],
    ['booleans compare by value', fact('/t', 'equals', true), 'true'],
    ['arrays compare recursively in order', fact('/a', 'equals', [1, 'x', { k: [] }]), 'true'],
    ['arrays in another order differ', fact('/a', 'equals', ['x', 1, { k: [] }]), 'false'],
    ['objects compare without regard to member order', fact('/o', 'equals', { q: [true], p: 1 }), 'true'],
    ['objects with an extra member differ', fact('/o', 'equals', { q: [true], p: 1, r: 2 }), 'false'],
    ['not-equals is the inverse of equals', fact('/s', 'not-equals', 'abd'), 'true'],
    ['not-equals of equal values is false', fact('/s', 'not-equals', 'abc'), 'false'],
    ['equals on an unresolved path is unknown', fact('/nope', 'equals', 'abc'), 'unknown'],
    ['not-equals on an unresolved path is unknown', fact('/nope', 'not-equals', 'abc'), 'unknown'],
  ];
  for (const [name, when, expected] of cases) it(name, () => expect(truthOf(when, facts)).toBe(expected));

  it('numbers compare by exact value from their lexemes: 1, 1.0 and 1e0 are equal', () => {
    const facts = '{"a":1.0,"b":1e0,"c":10E-1}';
    expect(truthOf(fact('/a', 'equals', 1), facts)).toBe('true');
    expect(truthOf(fact('/b', 'equals', 1), facts)).toBe('true');
    expect(truthOf(fact('/c', 'equals', 1), facts)).toBe('true');
  });
  it('numbers beyond double precision are never rounded into equality', () => {
    // 9007199254740993 becomes …992 through a double; exact comparison keeps them apart.
    expect(
      truthOf({ op: 'fact', path: '/n', operator: 'equals', value: 9007199254740992 }, '{"n":9007199254740993}'),
    ).toBe('false');
    expect(truthOf(fact('/n', 'equals', 9007199254740992), '{"n":9007199254740992.0}')).toBe('true');
  });
  it('numbers with huge exponents are compared exactly, never unknown', () => {
    expect(truthOf(fact('/n', 'equals', 1), '{"n":1e999999999}')).toBe('false');
    expect(truthOf(fact('/n', 'not-equals', 1), '{"n":1e999999999}')).toBe('true');
  });
  it('decimal strings are compared as strings under equals: "1.0" is not "1.00"', () => {
    expect(truthOf(fact('/d', 'equals', '1.0'), { d: '1.00' })).toBe('false');
    expect(truthOf(fact('/d', 'not-equals', '1.0'), { d: '1.00' })).toBe('true');
  });
  it('the empty pointer selects the whole facts document', () => {
    expect(truthOf(fact('', 'equals', { a: 1 }), { a: 1 })).toBe('true');
    expect(truthOf(fact('', 'equals', 'root'), '"root"')).toBe('true');
  });
  it('RFC 6901 escapes ~0 and ~1 select the members they spell', () => {
    expect(truthOf(fact('/a~1b/m~0n', 'equals', 1), { 'a/b': { 'm~n': 1 } })).toBe('true');
  });
  it('array indices select elements; a leading zero, "-" and out-of-range indices are unknown', () => {
    const facts = { xs: ['a', 'b'] };
    expect(truthOf(fact('/xs/1', 'equals', 'b'), facts)).toBe('true');
    expect(truthOf(fact('/xs/01', 'equals', 'b'), facts)).toBe('unknown');
    expect(truthOf(fact('/xs/-', 'equals', 'b'), facts)).toBe('unknown');
    expect(truthOf(fact('/xs/2', 'equals', 'b'), facts)).toBe('unknown');
    expect(truthOf(fact('/xs/a', 'equals', 'b'), facts)).toBe('unknown');
  });
  it('traversing through a scalar is unknown (an invalid traversal at runtime)', () => {
    expect(truthOf(fact('/s/x', 'equals', 'abc'), { s: 'abc' })).toBe('unknown');
  });
});

describe('prototype-named members are ordinary data', () => {
  it('a pointer to __proto__, constructor or toString does not resolve when the facts lack them', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(truthOf(fact(`/${name}`, 'equals', null), {}), name).toBe('unknown');
      expect(truthOf(fact(`/x/${name}`, 'not-equals', 1), { x: {} }), name).toBe('unknown');
    }
  });
  it('a facts member named __proto__ is selected like any other member', () => {
    expect(truthOf(fact('/__proto__/polluted', 'equals', true), '{"__proto__":{"polluted":true}}')).toBe('true');
    expect(truthOf(fact('/constructor', 'equals', 'c'), '{"constructor":"c"}')).toBe('true');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('an object operand with a __proto__ member compares it as data', () => {
    const facts = '{"o":{"__proto__":1}}';
    expect(truthOf(JSON.parse('{"op":"fact","path":"/o","operator":"equals","value":{"__proto__":1}}'), facts)).toBe(
      'true',
    );
    expect(truthOf(fact('/o', 'equals', {}), facts)).toBe('false');
  });
});

describe('§7.4 ordered comparisons', () => {
  const facts = {
    d: '10.5',
    neg: '-3',
    int: '7',
    n: 10.5,
    bad: '1e3',
    plus: '+1',
    lead: '01',
    long: '123456789012345678901234567890.000000000000000000001',
  };
  const cases: [string, unknown, string][] = [
    ['greater-than holds between decimal strings by value', fact('/d', 'greater-than', '9.99'), 'true'],
    ['greater-than is false at equality', fact('/d', 'greater-than', '10.50'), 'false'],
    [
      'greater-than-or-equal holds at equal value with different scale',
      fact('/d', 'greater-than-or-equal', '10.50'),
      'true',
    ],
    ['less-than compares negative values', fact('/neg', 'less-than', '-2.999'), 'true'],
    ['less-than-or-equal holds at equality', fact('/int', 'less-than-or-equal', '7.0'), 'true'],
    ['less-than is false above', fact('/int', 'less-than', '6'), 'false'],
    ['a JSON number is never coerced: unknown', fact('/n', 'greater-than', '1'), 'unknown'],
    ['exponent notation is not a decimal string: unknown', fact('/bad', 'greater-than', '1'), 'unknown'],
    ['a leading plus sign is not a decimal string: unknown', fact('/plus', 'less-than', '5'), 'unknown'],
    ['a leading zero is not a decimal string: unknown', fact('/lead', 'less-than', '5'), 'unknown'],
    ['an unresolved path is unknown', fact('/none', 'less-than', '5'), 'unknown'],
    [
      'long decimal strings are ordered exactly',
      fact('/long', 'greater-than', '123456789012345678901234567890'),
      'true',
    ],
    [
      'long decimal strings are ordered exactly below',
      fact('/long', 'less-than', '123456789012345678901234567890.000000000000000000002'),
      'true',
    ],
  ];
  for (const [name, when, expected] of cases) it(name, () => expect(truthOf(when, facts)).toBe(expected));

  it('booleans, null, arrays and objects selected for an ordered comparison are unknown', () => {
    for (const v of [true, null, ['1'], { a: '1' }])
      expect(truthOf(fact('/v', 'greater-than', '0'), { v })).toBe('unknown');
  });
});

describe('§7.4 in', () => {
  it('is true when the selected value equals a candidate', () => {
    expect(truthOf(fact('/x', 'in', ['a', 2, null]), { x: 2.0 })).toBe('true');
    expect(truthOf(fact('/x', 'in', ['a', 2, null]), { x: null })).toBe('true');
    expect(truthOf(fact('/x', 'in', [[1], { a: 1 }]), { x: { a: 1 } })).toBe('true');
  });
  it('is false when no candidate matches, including values of another type', () => {
    expect(truthOf(fact('/x', 'in', ['2', 3]), { x: 2 })).toBe('false');
  });
  it('is unknown when the path does not resolve', () => {
    expect(truthOf(fact('/y', 'in', ['a']), { x: 'a' })).toBe('unknown');
  });
});

describe('§7.5 evidence-present', () => {
  const extra = {
    evidenceRequirements: [
      { id: 'form', description: 'A form.', required: false },
      { id: 'other', description: 'Another.', required: false },
    ],
  };
  it('is true for present, false for absent, unknown for unknown and for an omitted key', () => {
    expect(truthOf(ev('form'), {}, { form: 'present' }, extra)).toBe('true');
    expect(truthOf(ev('form'), {}, { form: 'absent' }, extra)).toBe('false');
    expect(truthOf(ev('form'), {}, { form: 'unknown' }, extra)).toBe('unknown');
    expect(truthOf(ev('form'), {}, { other: 'present' }, extra)).toBe('unknown');
  });
  it('is unknown when no evidence document is supplied at all', () => {
    expect(truthOf(ev('form'), {}, undefined, extra)).toBe('unknown');
  });
});
