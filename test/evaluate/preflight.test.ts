import { describe, expect, it } from 'vitest';
import { compilePack } from '../../core/evaluate/compile.js';
import { evaluateCompiled } from '../../core/evaluate/evaluate.js';
import { bytes, compile, exception, fact, lit, outcome, pack, rule, run, validated } from './helpers.js';

const declared = {
  evidenceRequirements: [
    { id: 'form', description: 'A form.', required: true },
    { id: 'note', description: 'A note.', required: false },
  ],
};
const c = compile(pack(declared));
const raw = (facts: Uint8Array | string, evidence?: Uint8Array | string, extensions: string[] = []) =>
  outcome(
    evaluateCompiled(c, {
      facts: typeof facts === 'string' ? bytes(facts) : facts,
      ...(evidence === undefined ? {} : { evidence: typeof evidence === 'string' ? bytes(evidence) : evidence }),
      supportedExtensions: new Set(extensions),
    }),
  );

describe('§8.2 facts preflight', () => {
  const cases: [string, Uint8Array | string, string][] = [
    ['empty input', '', 'facts-empty-input'],
    ['a syntax error', '{"a":', 'facts-syntax'],
    ['trailing data', '{} {}', 'facts-trailing-data'],
    ['a duplicate member name', '{"a":1,"a":1}', 'facts-duplicate-member'],
    ['a duplicate member name after unescaping', '{"a":1,"\\u0061":2}', 'facts-duplicate-member'],
    ['a lone surrogate escape', '{"a":"\\ud800"}', 'facts-lone-surrogate'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'facts-invalid-utf8'],
    ['nesting beyond the depth limit', '['.repeat(65) + ']'.repeat(65), 'facts-limit-depth'],
    ['a document beyond the byte limit', `"${'x'.repeat(2_097_152)}"`, 'facts-limit-document-bytes'],
  ];
  for (const [name, facts, code] of cases) {
    it(`refuses ${name} as malformed-input in preflight (${code})`, () => {
      expect(raw(facts, '{"form":"present"}')).toBe(`error:malformed-input/preflight/${code}`);
    });
  }
  it('admits any JSON value as the facts document, a scalar included', () => {
    expect(raw('42', '{"form":"present"}')).toContain('"outcomeId":"yes"');
  });
});

describe('§8.2 evidence preflight', () => {
  const cases: [string, string, string][] = [
    ['a non-object document', '["form"]', 'evidence-not-object'],
    ['null', 'null', 'evidence-not-object'],
    ['an undeclared member name', '{"form":"present","other":"present"}', 'evidence-undeclared-requirement'],
    ['a prototype-named undeclared member', '{"__proto__":"present"}', 'evidence-undeclared-requirement'],
    ['a value outside present/absent/unknown', '{"form":"yes"}', 'evidence-invalid-value'],
    ['a non-string value', '{"form":true}', 'evidence-invalid-value'],
    ['a differently cased value', '{"form":"Present"}', 'evidence-invalid-value'],
    ['a duplicate member name', '{"form":"present","form":"present"}', 'evidence-duplicate-member'],
    ['a syntax error', '{', 'evidence-syntax'],
  ];
  for (const [name, evidence, code] of cases) {
    it(`refuses ${name} as malformed-input in preflight (${code})`, () => {
      expect(raw('{}', evidence)).toBe(`error:malformed-input/preflight/${code}`);
    });
  }
  it('treats an omitted document as the empty object: required evidence unknown, no error', () => {
    expect(raw('{}')).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}');
    expect(raw('{}', '{}')).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}');
  });
  it('refuses an empty byte string as an evidence document rather than treating it as omitted', () => {
    expect(raw('{}', '')).toBe('error:malformed-input/preflight/evidence-empty-input');
  });
});

describe('§8.2 preflight order and §8.4 precedence', () => {
  const gated = compile(
    pack({
      ...declared,
      applicability: lit(false),
      metadata: { requiredExtensions: ['com.example.policy'] },
      extensions: { 'com.example.policy': {} },
    }),
  );
  const ev = (facts: string, evidence: string | undefined, extensions: string[] = []) =>
    outcome(
      evaluateCompiled(gated, {
        facts: bytes(facts),
        ...(evidence === undefined ? {} : { evidence: bytes(evidence) }),
        supportedExtensions: new Set(extensions),
      }),
    );
  it('a malformed evidence document wins over a not-applicable result', () => {
    expect(ev('{}', '{"nope":"present"}', ['com.example.policy'])).toBe(
      'error:malformed-input/preflight/evidence-undeclared-requirement',
    );
  });
  it('facts are checked before evidence', () => {
    expect(ev('{', '{"nope":"present"}')).toBe('error:malformed-input/preflight/facts-syntax');
  });
  it('malformed-input wins over unsupported-required-extension', () => {
    expect(ev('{}', '[]')).toBe('error:malformed-input/preflight/evidence-not-object');
  });
  it('an unsupported required extension is an error, never a disposition', () => {
    expect(ev('{}', '{}')).toBe('error:unsupported-required-extension/preflight/unsupported-required-extension');
  });
  it('a supported required extension lets evaluation proceed', () => {
    expect(ev('{}', '{}', ['com.example.policy'])).toContain('"kind":"not-applicable"');
  });
  it('an unsupported extension that is merely optional is never required', () => {
    const optional = compile(pack({ extensions: { 'com.example.ignored': { op: 'literal', value: false } } }));
    expect(outcome(run(optional, {}))).toContain('"outcomeId":"yes"');
  });
  it('preflight errors report zero work', () => {
    const r = evaluateCompiled(gated, { facts: bytes('{'), supportedExtensions: new Set() });
    expect(r.work).toBe(0);
  });
});

describe('facts and evidence for a 0.2.0-draft pack (ADR 0030)', () => {
  const legacy = pack({
    specVersion: '0.2.0-draft',
    rules: [rule('r', fact('/name', 'equals', '\ud800'), 'yes', 'escalate')],
    escalation: { triggers: ['no-match'], target: { kind: 'queue', name: 'Desk' } },
  });
  it('are read under the 0.2.0-draft carrier, which admitted a lone surrogate escape', () => {
    const c2 = compilePack(validated(legacy));
    expect(outcome(run(c2, '{"name":"\\ud800"}'))).toContain('"outcomeId":"yes"');
  });
  it('are read under the strict 0.3.0 carrier for a 0.3.0 pack', () => {
    const c3 = compile(pack({ rules: [rule('r', fact('/name', 'equals', 'x'), 'yes')] }));
    expect(outcome(run(c3, '{"name":"\\ud800"}'))).toBe('error:malformed-input/preflight/facts-lone-surrogate');
  });
  it('still reject duplicate members and invalid UTF-8 under 0.2.0-draft', () => {
    const c2 = compilePack(validated(legacy));
    expect(outcome(run(c2, '{"a":1,"a":2}'))).toBe('error:malformed-input/preflight/facts-duplicate-member');
  });
});

describe('exceptions with hostile optional extensions stay inert', () => {
  it('an extension value shaped like a condition changes nothing', () => {
    const c2 = compile(
      pack({
        extensions: { 'com.example.evil': { op: 'literal', value: false, __proto__: { polluted: true } } },
        exceptions: [exception('x', lit(false), { effect: 'escalate', extensions: { 'com.example.x': 'force' } })],
      }),
    );
    expect(outcome(run(c2, {}))).toBe('{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]}');
  });
});

describe('evidence admission is memoized without changing any answer (ADR 0037)', () => {
  const m = compile(
    pack({
      ...declared,
      rules: [rule('r', { op: 'evidence-present', evidenceRequirement: 'note' }, 'yes', 'escalate')],
    }),
  );
  const docs = [
    '{"form":"present","note":"present"}',
    '{"form":"present","note":"absent"}',
    '{"form":"present"}',
    '{"form":"maybe"}',
    '{"form":"present","x":"present"}',
  ];
  const fresh = docs.map((d) =>
    outcome(
      run(
        compile(
          pack({
            ...declared,
            rules: [rule('r', { op: 'evidence-present', evidenceRequirement: 'note' }, 'yes', 'escalate')],
          }),
        ),
        {},
        { evidence: d },
      ),
    ),
  );
  it('repeated and interleaved evidence documents give the answers of a fresh read', () => {
    for (let round = 0; round < 3; round++) {
      docs.forEach((d, i) => expect(outcome(run(m, {}, { evidence: d }))).toBe(fresh[i]));
    }
    expect(fresh).toEqual([
      '{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]}',
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["no-match"]}',
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}',
      'error:malformed-input/preflight/evidence-invalid-value',
      'error:malformed-input/preflight/evidence-undeclared-requirement',
    ]);
  });
  it('keeps answering correctly after more distinct documents than the memo holds', () => {
    for (let i = 0; i < 600; i++) {
      const d =
        i % 2 === 0
          ? `{"form":"present","note":"present"${' '.repeat(i)}}`
          : `{"form":"present","note":"absent"${' '.repeat(i)}}`;
      expect(outcome(run(m, {}, { evidence: d })).includes('"outcomeId":"yes"')).toBe(i % 2 === 0);
    }
  });
  it('an omitted document after a memoized one is still all unknown', () => {
    run(m, {}, { evidence: docs[0] });
    expect(outcome(run(m, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}');
  });
});

describe('the evidence memo compares exact bytes', () => {
  it('a caller reusing its buffer with different content gets a fresh read', () => {
    const m = compile(pack(declared));
    const buf = bytes('{"form":"present"}');
    expect(
      outcome(evaluateCompiled(m, { facts: bytes('{}'), evidence: buf, supportedExtensions: new Set() })),
    ).toContain('"outcomeId":"yes"');
    buf.set(bytes('{"form":"absent" }'));
    expect(
      outcome(evaluateCompiled(m, { facts: bytes('{}'), evidence: buf, supportedExtensions: new Set() })),
    ).toContain('"missing-required-evidence"');
  });
});
