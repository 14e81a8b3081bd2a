import { describe, expect, it } from 'vitest';
import { compile, ev, exception, fact, lit, outcome, pack, rule, run } from './helpers.js';

const U = fact('/missing', 'equals', 1);
const esc = {
  triggers: ['not-applicable', 'missing-required-evidence', 'unknown', 'conflict', 'no-match'],
  target: { kind: 'queue', name: 'Desk' },
};
const requiredEvidence = [
  { id: 'form', description: 'A form.', required: true },
  { id: 'note', description: 'A note.', required: true },
  { id: 'extra', description: 'Optional.', required: false },
];
const allPresent = { form: 'present', note: 'present' };

describe('§8 step 1: applicability', () => {
  it('false applicability is a terminal not-applicable result, even when rules would decide', () => {
    const c = compile(pack({ applicability: lit(false) }));
    expect(outcome(run(c, {}))).toBe(
      '{"handoff":{"state":"none"},"kind":"not-applicable","reasons":["not-applicable"]}',
    );
  });
  it('not-applicable requests a handoff only when not-applicable is a trigger', () => {
    const c = compile(pack({ applicability: lit(false), escalation: esc }));
    expect(outcome(run(c, {}))).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["not-applicable"]},"kind":"not-applicable","reasons":["not-applicable"]}',
    );
  });
  it('unknown applicability is unresolved with reason unknown and stops before evidence', () => {
    const c = compile(pack({ applicability: U, evidenceRequirements: requiredEvidence }));
    expect(outcome(run(c, {}, { evidence: { form: 'absent' } }))).toBe(
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}',
    );
  });
  it('omitted applicability is treated as true', () => {
    expect(outcome(run(compile(pack()), {}))).toBe(
      '{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]}',
    );
  });
});

describe('§8 step 2: required evidence, tri-state', () => {
  const c = compile(pack({ evidenceRequirements: requiredEvidence }));
  it('an absent required requirement records missing-required-evidence', () => {
    expect(outcome(run(c, {}, { evidence: { form: 'present', note: 'absent' } }))).toBe(
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["missing-required-evidence"]}',
    );
  });
  it('absent beats unknown: missing-required-evidence alone, not unknown', () => {
    expect(outcome(run(c, {}, { evidence: { form: 'unknown', note: 'absent' } }))).toBe(
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["missing-required-evidence"]}',
    );
  });
  it('an unknown (or omitted) required requirement with none absent records unknown', () => {
    expect(outcome(run(c, {}, { evidence: { form: 'present' } }))).toBe(
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}',
    );
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}');
  });
  it('optional requirements never block', () => {
    expect(outcome(run(c, {}, { evidence: { ...allPresent, extra: 'absent' } }))).toBe(
      '{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]}',
    );
  });
});

describe('§8 steps 3–5: exceptions', () => {
  it('an unknown exception with onUnknown ignore contributes nothing', () => {
    const c = compile(pack({ exceptions: [exception('x', U, { effect: 'force-outcome', outcome: 'no' }, 'ignore')] }));
    expect(outcome(run(c, {}))).toContain('"outcomeId":"yes"');
  });
  it('an unknown exception with onUnknown escalate records unknown and blocks rules', () => {
    const c = compile(pack({ exceptions: [exception('x', U, { effect: 'escalate' }, 'escalate')] }));
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}');
  });
  it('different forced outcomes conflict', () => {
    const c = compile(
      pack({
        exceptions: [
          exception('x1', lit(true), { effect: 'force-outcome', outcome: 'no' }),
          exception('x2', lit(true), { effect: 'force-outcome', outcome: 'maybe' }),
        ],
      }),
    );
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["conflict"]}');
  });
  it('the same forced outcome twice is compatible', () => {
    const c = compile(
      pack({
        exceptions: [
          exception('x1', lit(true), { effect: 'force-outcome', outcome: 'no' }),
          exception('x2', lit(true), { effect: 'force-outcome', outcome: 'no' }),
        ],
      }),
    );
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"no","reasons":[]}');
  });
  it('a direct escalation takes precedence over a forced outcome and suppression', () => {
    const c = compile(
      pack({
        exceptions: [
          exception('x1', lit(true), { effect: 'force-outcome', outcome: 'no' }),
          exception('x2', lit(true), { effect: 'suppress-rule', targetRule: 'r-yes' }),
          exception('x3', lit(true), { effect: 'escalate' }),
        ],
      }),
    );
    expect(outcome(run(c, {}))).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["exception-escalation"]},"kind":"unresolved","reasons":["exception-escalation"]}',
    );
  });
  it('every reason found at step 5 is retained: missing evidence, unknown exception, conflict and escalation together', () => {
    const c = compile(
      pack({
        evidenceRequirements: requiredEvidence,
        exceptions: [
          exception('x0', U, { effect: 'escalate' }, 'escalate'),
          exception('x1', lit(true), { effect: 'force-outcome', outcome: 'no' }),
          exception('x2', lit(true), { effect: 'force-outcome', outcome: 'maybe' }),
          exception('x3', lit(true), { effect: 'escalate' }),
        ],
      }),
    );
    expect(outcome(run(c, {}, { evidence: { form: 'absent' } }))).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["exception-escalation"]},"kind":"unresolved","reasons":["conflict","exception-escalation","missing-required-evidence","unknown"]}',
    );
  });
  it('exceptions are still inspected when required evidence is missing', () => {
    const c = compile(
      pack({ evidenceRequirements: requiredEvidence, exceptions: [exception('x', lit(true), { effect: 'escalate' })] }),
    );
    const r = run(c, {}, { evidence: { form: 'absent', note: 'present' } });
    expect(r.kind === 'disposition' && r.disposition.reasons).toEqual([
      'exception-escalation',
      'missing-required-evidence',
    ]);
  });
});

describe('§8 step 6: forced outcome and suppression', () => {
  it('one compatible forced outcome wins over a true rule', () => {
    const c = compile(pack({ exceptions: [exception('x', lit(true), { effect: 'force-outcome', outcome: 'no' })] }));
    expect(outcome(run(c, {}))).toContain('"outcomeId":"no"');
  });
  it('a forced outcome skips rules that would escalate on unknown', () => {
    const c = compile(
      pack({
        rules: [rule('r-u', U, 'yes', 'escalate')],
        exceptions: [exception('x', lit(true), { effect: 'force-outcome', outcome: 'maybe' })],
      }),
    );
    expect(outcome(run(c, {}))).toContain('"outcomeId":"maybe"');
  });
  it('a suppressed rule contributes nothing, not even its unknown', () => {
    const c = compile(
      pack({
        rules: [rule('r-u', U, 'no', 'escalate'), rule('r-yes', lit(true), 'yes')],
        exceptions: [exception('x', lit(true), { effect: 'suppress-rule', targetRule: 'r-u' })],
      }),
    );
    expect(outcome(run(c, {}))).toContain('"outcomeId":"yes"');
  });
  it('suppression is the union of every true suppress-rule target', () => {
    const c = compile(
      pack({
        rules: [rule('r1', lit(true), 'no'), rule('r2', lit(true), 'maybe'), rule('r3', lit(true), 'yes')],
        exceptions: [
          exception('x1', lit(true), { effect: 'suppress-rule', targetRule: 'r1' }),
          exception('x2', lit(true), { effect: 'suppress-rule', targetRule: 'r2' }),
          exception('x3', lit(false), { effect: 'suppress-rule', targetRule: 'r3' }),
        ],
      }),
    );
    expect(outcome(run(c, {}))).toContain('"outcomeId":"yes"');
  });
  it('suppression is compatible with a forced outcome', () => {
    const c = compile(
      pack({
        exceptions: [
          exception('x1', lit(true), { effect: 'suppress-rule', targetRule: 'r-yes' }),
          exception('x2', lit(true), { effect: 'force-outcome', outcome: 'maybe' }),
        ],
      }),
    );
    expect(outcome(run(c, {}))).toContain('"outcomeId":"maybe"');
  });
});

describe('§8 steps 7–10: rules, conflict, fallback, no-match', () => {
  it('a true rule produces its outcome', () => {
    expect(outcome(run(compile(pack()), {}))).toContain('"outcomeId":"yes"');
  });
  it('several true rules naming one outcome are compatible', () => {
    const c = compile(
      pack({ rules: [rule('a', lit(true), 'yes'), rule('b', lit(true), 'yes'), rule('c', lit(false), 'no')] }),
    );
    expect(outcome(run(c, {}))).toContain('"outcomeId":"yes"');
  });
  it('true rules naming different outcomes are a conflict, never tie-broken', () => {
    const c = compile(
      pack({ rules: [rule('a', lit(true), 'yes'), rule('b', lit(true), 'no')], fallbackOutcome: 'maybe' }),
    );
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["conflict"]}');
  });
  it('an unknown rule with onUnknown escalate blocks a candidate outcome', () => {
    const c = compile(pack({ rules: [rule('a', lit(true), 'yes'), rule('b', U, 'no', 'escalate')] }));
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}');
  });
  it('an unknown rule with onUnknown escalate blocks the fallback', () => {
    const c = compile(pack({ rules: [rule('b', U, 'no', 'escalate')], fallbackOutcome: 'maybe' }));
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}');
  });
  it('unknown and conflict are both retained', () => {
    const c = compile(
      pack({ rules: [rule('a', lit(true), 'yes'), rule('b', lit(true), 'no'), rule('c', U, 'no', 'escalate')] }),
    );
    expect(outcome(run(c, {}))).toBe(
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["conflict","unknown"]}',
    );
  });
  it('an unknown rule with onUnknown ignore neither blocks nor contributes', () => {
    const c = compile(pack({ rules: [rule('a', lit(true), 'yes'), rule('b', U, 'no', 'ignore')] }));
    expect(outcome(run(c, {}))).toContain('"outcomeId":"yes"');
  });
  it('no true rule uses the fallback, despite false and ignored-unknown rules', () => {
    const c = compile(
      pack({ rules: [rule('a', lit(false), 'yes'), rule('b', U, 'no', 'ignore')], fallbackOutcome: 'maybe' }),
    );
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"maybe","reasons":[]}');
  });
  it('no true rule and no fallback is unresolved no-match', () => {
    const c = compile(pack({ rules: [rule('a', lit(false), 'yes')] }));
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["no-match"]}');
  });
  it('required evidence that is present lets rules decide', () => {
    const c = compile(
      pack({ evidenceRequirements: requiredEvidence, rules: [rule('a', ev('extra'), 'yes', 'escalate')] }),
    );
    expect(outcome(run(c, {}, { evidence: { ...allPresent, extra: 'present' } }))).toContain('"outcomeId":"yes"');
    expect(outcome(run(c, {}, { evidence: allPresent }))).toContain('"reasons":["unknown"]');
  });
});

describe('trace', () => {
  it('is returned beside the disposition and changes no byte of it', () => {
    const c = compile(
      pack({
        rules: [rule('a', lit(true), 'yes'), rule('b', U, 'no')],
        exceptions: [exception('x', lit(false), { effect: 'escalate' })],
      }),
    );
    const plain = run(c, {});
    const traced = run(c, {}, { trace: true });
    expect(traced.kind === 'disposition' && plain.kind === 'disposition' && traced.bytes === plain.bytes).toBe(true);
    expect(traced.kind === 'disposition' && traced.trace).toMatchObject({
      terminatedAt: '9-outcome',
      exceptions: [{ id: 'x', value: 'false' }],
      rules: [
        { id: 'a', value: 'true' },
        { id: 'b', value: 'unknown', onUnknown: 'ignore' },
      ],
    });
    expect(plain.kind === 'disposition' && 'trace' in plain).toBe(false);
  });
});
