import { describe, expect, test } from 'vitest';
import { PackCodes as C } from '../../core/pack/codes.js';
import { findings, load, validate, type Pack, type FixtureName } from './fixtures/index.js';

type Case = readonly [label: string, mutate: (p: Pack) => void, expected: { code: string; pointer?: string }[]];

const ev = (id: string): Pack => ({ op: 'evidence-present', evidenceRequirement: id });

const CASES: Case[] = [
  // ids unique within their collections
  [
    'a duplicate outcome id',
    (p) => p.outcomes.push({ id: 'approve', label: 'Again' }),
    [
      { code: C.DUPLICATE_ID, pointer: '/outcomes/3/id' },
      { code: C.AMBIGUOUS_REFERENCE, pointer: '/rules/0/outcome' },
    ],
  ],
  [
    'a duplicate rule id',
    (p) => p.rules.push({ ...p.rules[2], description: 'Copy.' }),
    [{ code: C.DUPLICATE_ID, pointer: '/rules/3/id' }],
  ],
  [
    'a duplicate evidence requirement id',
    (p) => p.evidenceRequirements.push({ id: 'id-check', description: 'Again.', required: true }),
    [
      { code: C.DUPLICATE_ID, pointer: '/evidenceRequirements/2/id' },
      { code: C.AMBIGUOUS_REFERENCE, pointer: '/exceptions/2/when/conditions/1/evidenceRequirement' },
    ],
  ],
  [
    'a duplicate source id',
    (p) => p.sources.push({ id: 'policy', title: 'Other', locator: { kind: 'other', value: 'x' } }),
    [
      { code: C.DUPLICATE_ID, pointer: '/sources/1/id' },
      { code: C.AMBIGUOUS_REFERENCE, pointer: '/rules/0/sourceRefs/0' },
      { code: C.AMBIGUOUS_REFERENCE, pointer: '/exceptions/0/sourceRefs/0' },
    ],
  ],
  [
    'a duplicate exception id',
    (p) => p.exceptions.push({ ...p.exceptions[2], description: 'Copy.' }),
    [{ code: C.DUPLICATE_ID, pointer: '/exceptions/3/id' }],
  ],
  // references
  [
    'a rule outcome that names no outcome',
    (p) => (p.rules[0].outcome = 'accept'),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/rules/0/outcome' }],
  ],
  [
    'a rule outcome that names a rule',
    (p) => (p.rules[0].outcome = 'decline-low'),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/rules/0/outcome' }],
  ],
  [
    'a fallback outcome that names no outcome',
    (p) => (p.fallbackOutcome = 'maybe'),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/fallbackOutcome' }],
  ],
  [
    'a fallback outcome that names a source',
    (p) => (p.fallbackOutcome = 'policy'),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/fallbackOutcome' }],
  ],
  [
    'a rule evidence reference that names nothing',
    (p) => (p.rules[0].evidenceRequirementRefs = ['income-proof', 'payslip']),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/rules/0/evidenceRequirementRefs/1' }],
  ],
  [
    'a rule evidence reference that names a source',
    (p) => (p.rules[0].evidenceRequirementRefs = ['policy']),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/rules/0/evidenceRequirementRefs/0' }],
  ],
  [
    'a rule source reference that names nothing',
    (p) => (p.rules[0].sourceRefs = ['handbook']),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/rules/0/sourceRefs/0' }],
  ],
  [
    'a rule source reference that names an evidence requirement',
    (p) => (p.rules[0].sourceRefs = ['income-proof']),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/rules/0/sourceRefs/0' }],
  ],
  [
    'an evidence-present in a rule naming nothing',
    (p) => (p.rules[2].when = ev('payslip')),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/rules/2/when/evidenceRequirement' }],
  ],
  [
    'an evidence-present naming an outcome',
    (p) => (p.rules[2].when = ev('approve')),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/rules/2/when/evidenceRequirement' }],
  ],
  [
    'an evidence-present nested in all/any/not in a rule',
    (p) =>
      (p.rules[2].when = {
        op: 'all',
        conditions: [
          { op: 'literal', value: true },
          { op: 'any', conditions: [{ op: 'not', condition: ev('payslip') }] },
        ],
      }),
    [
      {
        code: C.UNRESOLVED_REFERENCE,
        pointer: '/rules/2/when/conditions/1/conditions/0/condition/evidenceRequirement',
      },
    ],
  ],
  [
    'an evidence-present in applicability',
    (p) => (p.applicability = { op: 'not', condition: ev('payslip') }),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/applicability/condition/evidenceRequirement' }],
  ],
  [
    'an evidence-present nested in an exception',
    (p) => (p.exceptions[2].when.conditions[1] = { op: 'any', conditions: [ev('id-check'), ev('payslip')] }),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/exceptions/2/when/conditions/1/conditions/1/evidenceRequirement' }],
  ],
  [
    'an exception target that names no rule',
    (p) => (p.exceptions[1].targetRule = 'review-all'),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/exceptions/1/targetRule' }],
  ],
  [
    'an exception target that names an outcome',
    (p) => (p.exceptions[1].targetRule = 'review'),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/exceptions/1/targetRule' }],
  ],
  [
    'an exception outcome that names no outcome',
    (p) => (p.exceptions[0].outcome = 'refuse'),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/exceptions/0/outcome' }],
  ],
  [
    'an exception outcome that names a rule',
    (p) => (p.exceptions[0].outcome = 'decline-low'),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/exceptions/0/outcome' }],
  ],
  [
    'an exception source reference that names nothing',
    (p) => (p.exceptions[0].sourceRefs = ['policy', 'memo']),
    [{ code: C.UNRESOLVED_REFERENCE, pointer: '/exceptions/0/sourceRefs/1' }],
  ],
  [
    'an exception source reference that names an exception',
    (p) => (p.exceptions[0].sourceRefs = ['vip']),
    [{ code: C.WRONG_KIND_REFERENCE, pointer: '/exceptions/0/sourceRefs/0' }],
  ],
  // resolves exactly once
  [
    'a reference to a duplicated outcome id',
    (p) => p.outcomes.push({ id: 'decline', label: 'Decline again' }),
    [
      { code: C.DUPLICATE_ID, pointer: '/outcomes/3/id' },
      { code: C.AMBIGUOUS_REFERENCE, pointer: '/rules/2/outcome' },
      { code: C.AMBIGUOUS_REFERENCE, pointer: '/exceptions/0/outcome' },
    ],
  ],
  // §9 required extensions
  [
    'a required extension without a value anywhere',
    (p) => p.metadata.requiredExtensions.push('com.example.audit'),
    [{ code: C.REQUIRED_EXTENSION_UNDECLARED, pointer: '/metadata/requiredExtensions/1' }],
  ],
  [
    'a required extension whose only key was removed',
    (p) => delete p.evidenceRequirements[1].extensions,
    [{ code: C.REQUIRED_EXTENSION_UNDECLARED, pointer: '/metadata/requiredExtensions/0' }],
  ],
];

function run(fixture: FixtureName): void {
  for (const [label, mutate, expected] of CASES) {
    test(`${label} is a semantic refusal with exactly the expected diagnostics`, () => {
      const p = load(fixture);
      mutate(p);
      const r = validate(p);
      expect(findings(r)).toEqual(expected);
      expect(r).toMatchObject({ conformant: false, class: 'semantic' });
      expect(r.pack).toBeUndefined();
    });
  }
}

describe('semantic conformance of 0.3.0 (§3.3)', () => {
  run('rich-0.3.0');

  test('a required extension declared only in a nested Core extensions object is satisfied (§9 "anywhere")', () => {
    for (const place of [
      'decision',
      'escalation',
      'metadata',
      'outcome',
      'rule',
      'exception',
      'source',
      'root',
    ] as const) {
      const p = load('rich-0.3.0');
      delete p.evidenceRequirements[1].extensions;
      const holder =
        place === 'root'
          ? p
          : place === 'outcome'
            ? p.outcomes[1]
            : place === 'rule'
              ? p.rules[1]
              : place === 'exception'
                ? p.exceptions[0]
                : place === 'source'
                  ? p.sources[0]
                  : p[place];
      holder.extensions = { ...(holder.extensions ?? {}), 'com.example.kyc': null };
      expect(validate(p).diagnostics, place).toEqual([]);
    }
  });

  test("a key inside an extension value is that extension's data, not a declaration", () => {
    const p = load('rich-0.3.0');
    delete p.evidenceRequirements[1].extensions;
    p.extensions['com.example.owner'] = { extensions: { 'com.example.kyc': true } };
    expect(findings(validate(p))).toEqual([
      { code: C.REQUIRED_EXTENSION_UNDECLARED, pointer: '/metadata/requiredExtensions/0' },
    ]);
  });

  test('identical ids in different collections are allowed: uniqueness is per collection', () => {
    const p = load('rich-0.3.0');
    p.sources[0].id = 'approve';
    p.rules[0].sourceRefs = ['approve'];
    p.exceptions[0].sourceRefs = ['approve'];
    expect(validate(p).diagnostics).toEqual([]);
  });

  test('a diagnostic names the id, the kind expected and the kind found', () => {
    const p = load('rich-0.3.0');
    p.rules[0].outcome = 'decline-low';
    expect(validate(p).diagnostics[0]).toMatchObject({
      id: 'decline-low',
      expectedKind: 'outcome',
      foundKind: 'rule',
      severity: 'error',
    });
  });

  test('a prototype-named reference does not resolve through the prototype chain', () => {
    const p = load('rich-0.3.0');
    p.rules[0].outcome = 'constructor';
    expect(findings(validate(p))).toEqual([{ code: C.UNRESOLVED_REFERENCE, pointer: '/rules/0/outcome' }]);
  });

  test('every semantic finding is reported, in document order', () => {
    const p = load('rich-0.3.0');
    p.rules[0].outcome = 'x';
    p.fallbackOutcome = 'y';
    p.exceptions[1].targetRule = 'z';
    expect(findings(validate(p)).map((f) => f.pointer)).toEqual([
      '/rules/0/outcome',
      '/fallbackOutcome',
      '/exceptions/1/targetRule',
    ]);
  });
});

describe('semantic conformance of 0.2.0-draft (§3.3 unchanged in substance)', () => {
  run('rich-0.2.0-draft');
});
