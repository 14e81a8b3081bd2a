import { describe, expect, test } from 'vitest';
import { PackCodes as C } from '../../core/pack/codes.js';
import { findings, load, validate, type Pack, type FixtureName } from './fixtures/index.js';

type Case = readonly [label: string, mutate: (p: Pack) => void, expected: { code: string; pointer?: string }[]];

const route = (name: string, triggers?: string[]): Pack => ({
  target: { kind: 'queue', name },
  ...(triggers ? { triggers } : {}),
});
const routes = (n: number): Pack[] => Array.from({ length: n }, (_, i) => route(`Q${i}`));

/** Violations shared by both versions (their schemas agree on these). */
const COMMON: Case[] = [
  ['a missing title', (p) => delete p.title, [{ code: C.SCHEMA_REQUIRED, pointer: '' }]],
  [
    'a missing decision question',
    (p) => delete p.decision.question,
    [{ code: C.SCHEMA_REQUIRED, pointer: '/decision' }],
  ],
  ['a missing rule onUnknown', (p) => delete p.rules[0].onUnknown, [{ code: C.SCHEMA_REQUIRED, pointer: '/rules/0' }]],
  ['an unknown root member', (p) => (p.priority = 1), [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/priority' }]],
  [
    'an unknown rule member',
    (p) => (p.rules[0].priority = 1),
    [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/rules/0/priority' }],
  ],
  [
    'an unknown condition member',
    (p) => (p.rules[0].when.note = 'x'),
    [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/rules/0/when/note' }],
  ],
  ['a numeric title', (p) => (p.title = 7), [{ code: C.SCHEMA_TYPE, pointer: '/title' }]],
  ['an empty title', (p) => (p.title = ''), [{ code: C.SCHEMA_EMPTY_STRING, pointer: '/title' }]],
  [
    'a string required flag',
    (p) => (p.evidenceRequirements = [{ id: 'e', description: 'E.', required: 'yes' }]),
    [{ code: C.SCHEMA_TYPE, pointer: '/evidenceRequirements/0/required' }],
  ],
  [
    'an unknown onUnknown policy',
    (p) => (p.rules[0].onUnknown = 'skip'),
    [{ code: C.SCHEMA_ENUM, pointer: '/rules/0/onUnknown' }],
  ],
  ['a single outcome', (p) => p.outcomes.pop(), [{ code: C.SCHEMA_TOO_FEW_ITEMS, pointer: '/outcomes' }]],
  ['no rules', (p) => (p.rules = []), [{ code: C.SCHEMA_TOO_FEW_ITEMS, pointer: '/rules' }]],
  [
    'two identical outcomes',
    (p) => p.outcomes.push({ ...p.outcomes[0] }),
    [{ code: C.SCHEMA_DUPLICATE_ITEMS, pointer: '/outcomes/2' }],
  ],
  ['a relative id', (p) => (p.id = 'packs/minimal'), [{ code: C.SCHEMA_FORMAT_URI, pointer: '/id' }]],
  ['an id with a space', (p) => (p.id = 'urn:example:a b'), [{ code: C.SCHEMA_FORMAT_URI, pointer: '/id' }]],
  [
    'a non-date publishedAt',
    (p) => (p.sources = [{ id: 's', title: 'S', locator: { kind: 'uri', value: 'x' }, publishedAt: '2026-02-30' }]),
    [{ code: C.SCHEMA_FORMAT_DATE, pointer: '/sources/0/publishedAt' }],
  ],
  [
    'a date-time publishedAt',
    (p) =>
      (p.sources = [
        { id: 's', title: 'S', locator: { kind: 'uri', value: 'x' }, publishedAt: '2026-02-01T00:00:00Z' },
      ]),
    [{ code: C.SCHEMA_FORMAT_DATE, pointer: '/sources/0/publishedAt' }],
  ],
  [
    'a createdAt without a time zone',
    (p) => (p.metadata = { createdAt: '2026-03-01T12:00:00' }),
    [{ code: C.SCHEMA_FORMAT_DATE_TIME, pointer: '/metadata/createdAt' }],
  ],
  [
    'a date-only reviewedAt',
    (p) => (p.metadata = { reviews: [{ reviewer: 'R', reviewedAt: '2026-03-01', disposition: 'approved' }] }),
    [{ code: C.SCHEMA_FORMAT_DATE_TIME, pointer: '/metadata/reviews/0/reviewedAt' }],
  ],
  [
    'an upper-case local id',
    (p) => (p.outcomes[0].id = 'Yes'),
    [{ code: C.SCHEMA_LOCAL_ID, pointer: '/outcomes/0/id' }],
  ],
  [
    'a local id with a trailing hyphen',
    (p) => (p.rules[0].id = 'always-'),
    [{ code: C.SCHEMA_LOCAL_ID, pointer: '/rules/0/id' }],
  ],
  ['a non-ASCII local id', (p) => (p.rules[0].id = 'régle'), [{ code: C.SCHEMA_LOCAL_ID, pointer: '/rules/0/id' }]],
  ['a version with a leading zero', (p) => (p.version = '1.01.0'), [{ code: C.SCHEMA_VERSION, pointer: '/version' }]],
  [
    'a fact path that is not a pointer',
    (p) => (p.rules[0].when = { op: 'fact', path: 'a/b', operator: 'equals', value: 1 }),
    [{ code: C.SCHEMA_POINTER, pointer: '/rules/0/when/path' }],
  ],
  [
    'a fact path with a bad escape',
    (p) => (p.rules[0].when = { op: 'fact', path: '/a~2', operator: 'equals', value: 1 }),
    [{ code: C.SCHEMA_POINTER, pointer: '/rules/0/when/path' }],
  ],
  [
    'an ordered operand that is a JSON number',
    (p) => (p.rules[0].when = { op: 'fact', path: '/x', operator: 'greater-than', value: 5 }),
    [{ code: C.SCHEMA_TYPE, pointer: '/rules/0/when/value' }],
  ],
  ...(['1e3', '+1', '01', '1.', '.5', 'NaN', '-', '1.0.0', ' 1'] as const).map((v): Case => [
    `the ordered operand "${v}"`,
    (p) => (p.rules[0].when = { op: 'fact', path: '/x', operator: 'less-than-or-equal', value: v }),
    [{ code: C.SCHEMA_DECIMAL, pointer: '/rules/0/when/value' }],
  ]),
  [
    'an empty in list',
    (p) => (p.rules[0].when = { op: 'fact', path: '/x', operator: 'in', value: [] }),
    [{ code: C.SCHEMA_TOO_FEW_ITEMS, pointer: '/rules/0/when/value' }],
  ],
  [
    'an in operand that is not an array',
    (p) => (p.rules[0].when = { op: 'fact', path: '/x', operator: 'in', value: 'a' }),
    [{ code: C.SCHEMA_TYPE, pointer: '/rules/0/when/value' }],
  ],
  [
    'an unknown fact operator',
    (p) => (p.rules[0].when = { op: 'fact', path: '/x', operator: 'contains', value: 'a' }),
    [{ code: C.SCHEMA_ENUM, pointer: '/rules/0/when/operator' }],
  ],
  [
    'an unknown condition op',
    (p) => (p.rules[0].when = { op: 'xor', conditions: [] }),
    [{ code: C.SCHEMA_CONDITION_OP, pointer: '/rules/0/when/op' }],
  ],
  [
    'a condition without op',
    (p) => (p.rules[0].when = { value: true }),
    [{ code: C.SCHEMA_CONDITION_OP, pointer: '/rules/0/when' }],
  ],
  [
    'a condition that is not an object',
    (p) => (p.rules[0].when = true),
    [{ code: C.SCHEMA_TYPE, pointer: '/rules/0/when' }],
  ],
  [
    'an empty all',
    (p) => (p.rules[0].when = { op: 'all', conditions: [] }),
    [{ code: C.SCHEMA_TOO_FEW_ITEMS, pointer: '/rules/0/when/conditions' }],
  ],
  [
    'a literal with a string value',
    (p) => (p.rules[0].when = { op: 'literal', value: 'true' }),
    [{ code: C.SCHEMA_TYPE, pointer: '/rules/0/when/value' }],
  ],
  [
    'a bad condition nested three levels deep',
    (p) =>
      (p.rules[0].when = {
        op: 'not',
        condition: {
          op: 'any',
          conditions: [
            { op: 'literal', value: true },
            { op: 'all', conditions: [{ op: 'evidence-present', evidenceRequirement: 'Bad' }] },
          ],
        },
      }),
    [{ code: C.SCHEMA_LOCAL_ID, pointer: '/rules/0/when/condition/conditions/1/conditions/0/evidenceRequirement' }],
  ],
  [
    'a bad applicability',
    (p) => (p.applicability = { op: 'fact', path: '/x', operator: 'equals' }),
    [{ code: C.SCHEMA_REQUIRED, pointer: '/applicability' }],
  ],
  [
    'a suppress-rule exception without targetRule',
    (p) =>
      (p.exceptions = [
        {
          id: 'x',
          description: 'X.',
          when: { op: 'literal', value: true },
          effect: 'suppress-rule',
          onUnknown: 'ignore',
        },
      ]),
    [{ code: C.SCHEMA_REQUIRED, pointer: '/exceptions/0' }],
  ],
  [
    'a suppress-rule exception with an outcome',
    (p) =>
      (p.exceptions = [
        {
          id: 'x',
          description: 'X.',
          when: { op: 'literal', value: true },
          effect: 'suppress-rule',
          targetRule: 'always-yes',
          outcome: 'yes',
          onUnknown: 'ignore',
        },
      ]),
    [{ code: C.SCHEMA_EXCEPTION_EFFECT_MEMBERS, pointer: '/exceptions/0' }],
  ],
  [
    'an escalate exception with a targetRule',
    (p) =>
      (p.exceptions = [
        {
          id: 'x',
          description: 'X.',
          when: { op: 'literal', value: true },
          effect: 'escalate',
          targetRule: 'always-yes',
          onUnknown: 'ignore',
        },
      ]),
    [{ code: C.SCHEMA_EXCEPTION_EFFECT_MEMBERS, pointer: '/exceptions/0' }],
  ],
  [
    'a reserved extension name',
    (p) => (p.extensions = { 'org.judgmentpack.future': 1 }),
    [{ code: C.SCHEMA_EXTENSION_NAME, pointer: '/extensions/org.judgmentpack.future' }],
  ],
  [
    'a single-label extension name',
    (p) => (p.extensions = { example: 1 }),
    [{ code: C.SCHEMA_EXTENSION_NAME, pointer: '/extensions/example' }],
  ],
  [
    'an unknown escalation trigger',
    (p) => (p.escalation = { triggers: ['timeout'], target: { kind: 'queue', name: 'Q' } }),
    [{ code: C.SCHEMA_ENUM, pointer: '/escalation/triggers/0' }],
  ],
  [
    'no escalation triggers',
    (p) => (p.escalation = { triggers: [], target: { kind: 'queue', name: 'Q' } }),
    [{ code: C.SCHEMA_TOO_FEW_ITEMS, pointer: '/escalation/triggers' }],
  ],
  [
    'an empty target name',
    (p) => (p.escalation = { triggers: ['unknown'], target: { kind: 'queue', name: '' } }),
    [{ code: C.SCHEMA_EMPTY_STRING, pointer: '/escalation/target/name' }],
  ],
  [
    'an unknown target kind',
    (p) => (p.escalation = { triggers: ['unknown'], target: { kind: 'email', name: 'Q' } }),
    [{ code: C.SCHEMA_ENUM, pointer: '/escalation/target/kind' }],
  ],
  [
    'a member named __proto__',
    (p) => Object.defineProperty(p.decision, '__proto__', { value: 1, enumerable: true }),
    [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/decision/__proto__' }],
  ],
];

const ONLY_030: Case[] = [
  [
    'escalation with both target and routes',
    (p) => (p.escalation = { triggers: ['unknown'], target: { kind: 'queue', name: 'Q' }, routes: [route('R')] }),
    [{ code: C.SCHEMA_ESCALATION_TARGET_AND_ROUTES, pointer: '/escalation' }],
  ],
  [
    'escalation with neither target nor routes',
    (p) => (p.escalation = { triggers: ['unknown'] }),
    [{ code: C.SCHEMA_ESCALATION_NO_TARGET_OR_ROUTES, pointer: '/escalation' }],
  ],
  [
    'zero routes',
    (p) => (p.escalation = { triggers: ['unknown'], routes: [] }),
    [{ code: C.SCHEMA_TOO_FEW_ITEMS, pointer: '/escalation/routes' }],
  ],
  [
    'nine routes under base',
    (p) => (p.escalation = { triggers: ['unknown'], routes: routes(9) }),
    [{ code: C.SCHEMA_TOO_MANY_ITEMS, pointer: '/escalation/routes' }],
  ],
  [
    'nine routes under an explicit base',
    (p) => ((p.profile = 'base'), (p.escalation = { triggers: ['unknown'], routes: routes(9) })),
    [{ code: C.SCHEMA_TOO_MANY_ITEMS, pointer: '/escalation/routes' }],
  ],
  [
    'seventeen routes under extended',
    (p) => ((p.profile = 'extended'), (p.escalation = { triggers: ['unknown'], routes: routes(17) })),
    [{ code: C.SCHEMA_TOO_MANY_ITEMS, pointer: '/escalation/routes' }],
  ],
  [
    'a route with an extra member',
    (p) => (p.escalation = { triggers: ['unknown'], routes: [{ ...route('R'), priority: 1 }] }),
    [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/escalation/routes/0/priority' }],
  ],
  [
    'a route without target',
    (p) => (p.escalation = { triggers: ['unknown'], routes: [{ triggers: ['unknown'] }] }),
    [{ code: C.SCHEMA_REQUIRED, pointer: '/escalation/routes/0' }],
  ],
  [
    'a route target with an extra member',
    (p) =>
      (p.escalation = { triggers: ['unknown'], routes: [{ target: { kind: 'queue', name: 'R', url: 'https://x' } }] }),
    [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/escalation/routes/0/target/url' }],
  ],
  [
    'empty route triggers',
    (p) => (p.escalation = { triggers: ['unknown'], routes: [route('R', [])] }),
    [{ code: C.SCHEMA_TOO_FEW_ITEMS, pointer: '/escalation/routes/0/triggers' }],
  ],
  [
    'duplicate route triggers',
    (p) => (p.escalation = { triggers: ['unknown'], routes: [route('R', ['unknown', 'unknown'])] }),
    [{ code: C.SCHEMA_DUPLICATE_ITEMS, pointer: '/escalation/routes/0/triggers/1' }],
  ],
  [
    'a route trigger outside the vocabulary',
    (p) => (p.escalation = { triggers: ['unknown'], routes: [route('R', ['timeout'])] }),
    [{ code: C.SCHEMA_ENUM, pointer: '/escalation/routes/0/triggers/0' }],
  ],
  [
    'a route trigger not among the escalation triggers',
    (p) =>
      (p.escalation = {
        triggers: ['unknown', 'no-match'],
        routes: [route('R', ['unknown']), route('S', ['no-match', 'conflict'])],
      }),
    [{ code: C.ROUTE_TRIGGER_NOT_DECLARED, pointer: '/escalation/routes/1/triggers/1' }],
  ],
];

const ONLY_020: Case[] = [
  [
    'escalation routes',
    (p) => (p.escalation = { triggers: ['unknown'], routes: [route('R')] }),
    [
      { code: C.SCHEMA_REQUIRED, pointer: '/escalation' },
      { code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/escalation/routes' },
    ],
  ],
  [
    'escalation routes beside a target',
    (p) => (p.escalation = { triggers: ['unknown'], target: { kind: 'queue', name: 'Q' }, routes: [route('R')] }),
    [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/escalation/routes' }],
  ],
  ['a profile member', (p) => (p.profile = 'base'), [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/profile' }]],
  [
    'an extended profile member',
    (p) => (p.profile = 'extended'),
    [{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/profile' }],
  ],
  [
    'an escalation without a target',
    (p) => (p.escalation = { triggers: ['unknown'] }),
    [{ code: C.SCHEMA_REQUIRED, pointer: '/escalation' }],
  ],
];

function run(fixture: FixtureName, cases: Case[]): void {
  for (const [label, mutate, expected] of cases) {
    test(`${label} is a structural refusal with exactly the expected diagnostics`, () => {
      const p = load(fixture);
      mutate(p);
      const r = validate(p);
      expect(findings(r)).toEqual(expected);
      expect(r).toMatchObject({ conformant: false, class: 'structural' });
      for (const d of r.diagnostics) {
        expect(d.severity).toBe('error');
        expect(d.message.length).toBeGreaterThan(0);
      }
    });
  }
}

describe('structural conformance of 0.3.0 (§3.2)', () => {
  run('minimal-0.3.0', [...COMMON, ...ONLY_030]);

  test('sixteen routes under extended are accepted (the extended ceiling)', () => {
    expect(validate(load('extended-16-routes-0.3.0')).conformant).toBe(true);
  });
  test('eight routes under base are accepted (the base ceiling)', () => {
    const p = load('minimal-0.3.0');
    p.escalation = { triggers: ['unknown'], routes: routes(8) };
    expect(validate(p).conformant).toBe(true);
  });
  test('nine routes are accepted once the document declares extended', () => {
    const p = load('minimal-0.3.0');
    p.profile = 'extended';
    p.escalation = { triggers: ['unknown'], routes: routes(9) };
    expect(validate(p).conformant).toBe(true);
  });
  test('duplicate route targets stay distinct routes and are accepted (§6.7)', () => {
    const p = load('minimal-0.3.0');
    p.escalation = { triggers: ['unknown'], routes: [route('R'), route('R')] };
    expect(validate(p).conformant).toBe(true);
  });
  test('formats accept their RFC 3339 and RFC 3986 forms', () => {
    const p = load('rich-0.3.0');
    p.id = 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66';
    p.sources[0].publishedAt = '2024-02-29';
    p.metadata.createdAt = '2026-12-31T23:59:60Z';
    p.metadata.reviews[0].reviewedAt = '2026-03-01t10:00:00.123-05:00';
    expect(validate(p).diagnostics).toEqual([]);
  });
  test('several violations are all reported, each with a pointer', () => {
    const p = load('minimal-0.3.0');
    p.title = '';
    p.rules[0].outcome = 'Yes';
    p.extra = true;
    expect(findings(validate(p))).toEqual([
      { code: C.SCHEMA_UNKNOWN_MEMBER, pointer: '/extra' },
      { code: C.SCHEMA_EMPTY_STRING, pointer: '/title' },
      { code: C.SCHEMA_LOCAL_ID, pointer: '/rules/0/outcome' },
    ]);
  });
});

describe('structural conformance of 0.2.0-draft under its own published schema (§11)', () => {
  run('minimal-0.2.0-draft', [...COMMON, ...ONLY_020]);

  test('a rich 0.2.0-draft pack with a target-only escalation is conformant with no diagnostics', () => {
    expect(validate(load('rich-0.2.0-draft')).diagnostics).toEqual([]);
  });
});

describe('prototype-named members are data to the schema (§10 untrusted input)', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    test(`a root member named ${name} is reported as an unknown member, never inherited or dropped`, () => {
      const text = JSON.stringify(load('minimal-0.3.0')).replace('{', `{"${name}":{"specVersion":"9"},`);
      const r = validate(text);
      expect(findings(r)).toEqual([{ code: C.SCHEMA_UNKNOWN_MEMBER, pointer: `/${name}` }]);
    });
  }

  test('an extension named like a prototype member stays an ordinary extension key', () => {
    const p = load('minimal-0.3.0');
    const text = JSON.stringify(p).replace('"rules":', '"extensions":{"__proto__":1},"rules":');
    expect(findings(validate(text))).toEqual([{ code: C.SCHEMA_EXTENSION_NAME, pointer: '/extensions/__proto__' }]);
  });
});

describe('non-object escalations', () => {
  for (const value of [null, [], 'queue', 1]) {
    test(`an escalation of ${JSON.stringify(value)} is one type error, not an exactly-one-of finding`, () => {
      const p = load('minimal-0.3.0');
      p.escalation = value;
      expect(findings(validate(p))).toEqual([{ code: C.SCHEMA_TYPE, pointer: '/escalation' }]);
    });
  }
});
