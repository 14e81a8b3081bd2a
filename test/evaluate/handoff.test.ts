import { describe, expect, it } from 'vitest';
import { compile, exception, fact, lit, outcome, pack, rule, run } from './helpers.js';

const U = fact('/missing', 'equals', 1);
const desk = { kind: 'queue', name: 'Desk' };
const steward = { kind: 'human-role', name: 'Steward' };
const oversight = { kind: 'human-role', name: 'Oversight' };

/** A pack whose rules yield: facts {r:"conflict"} → conflict, {r:"unknown"} → unknown, {} → no-match, {r:"ok"} → outcome. */
function routed(escalation: unknown, extra: Record<string, unknown> = {}) {
  return compile(
    pack({
      rules: [
        rule('a', fact('/r', 'in', ['conflict', 'ok']), 'yes'),
        rule('b', fact('/r', 'equals', 'conflict'), 'no'),
        rule('c', fact('/u', 'equals', 1), 'no', 'escalate'),
      ],
      escalation,
      ...extra,
    }),
  );
}
const UNKNOWN_FACTS = { r: 'none' }; // rule c: /u missing → unknown, escalate
const NO_MATCH_FACTS = { r: 'none', u: 2 };
const CONFLICT_FACTS = { r: 'conflict', u: 2 };
const OUTCOME_FACTS = { r: 'ok', u: 2 };

describe('§8.1 escalation with target', () => {
  const c = routed({ triggers: ['conflict', 'no-match'], target: desk });
  it('a retained reason among the triggers requests the target, without echoing it', () => {
    expect(outcome(run(c, CONFLICT_FACTS))).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["conflict"]},"kind":"unresolved","reasons":["conflict"]}',
    );
  });
  it('a retained reason outside the triggers requests nothing and stays unresolved', () => {
    expect(outcome(run(c, UNKNOWN_FACTS))).toBe(
      '{"handoff":{"state":"none"},"kind":"unresolved","reasons":["unknown"]}',
    );
  });
  it('triggeredBy is the subset of reasons named by the triggers', () => {
    const both = routed({ triggers: ['conflict'], target: desk });
    expect(outcome(run(both, { r: 'conflict' }))).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["conflict"]},"kind":"unresolved","reasons":["conflict","unknown"]}',
    );
  });
  it('an outcome requests nothing', () => {
    expect(outcome(run(c, OUTCOME_FACTS))).toBe(
      '{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]}',
    );
  });
  it('a direct exception escalation uses the target regardless of the triggers', () => {
    const d = routed(
      { triggers: ['no-match'], target: desk },
      { exceptions: [exception('x', lit(true), { effect: 'escalate' })] },
    );
    expect(outcome(run(d, OUTCOME_FACTS))).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["exception-escalation"]},"kind":"unresolved","reasons":["exception-escalation"]}',
    );
  });
});

describe('§8.1 escalation with routes', () => {
  const esc = {
    triggers: ['conflict', 'no-match', 'unknown'],
    routes: [
      { target: desk, triggers: ['unknown'] },
      { target: steward, triggers: ['conflict', 'unknown'] },
      { target: oversight },
      { target: desk, triggers: ['conflict'] },
    ],
  };
  const c = routed(esc);
  it('selects filtered routes meeting the reasons and every unconditional route, in declaration order, duplicates kept', () => {
    expect(outcome(run(c, CONFLICT_FACTS))).toBe(
      '{"handoff":{"routes":[{"kind":"human-role","name":"Steward"},{"kind":"human-role","name":"Oversight"},{"kind":"queue","name":"Desk"}],"state":"requested","triggeredBy":["conflict"]},"kind":"unresolved","reasons":["conflict"]}',
    );
    expect(outcome(run(c, UNKNOWN_FACTS))).toBe(
      '{"handoff":{"routes":[{"kind":"queue","name":"Desk"},{"kind":"human-role","name":"Steward"},{"kind":"human-role","name":"Oversight"}],"state":"requested","triggeredBy":["unknown"]},"kind":"unresolved","reasons":["unknown"]}',
    );
  });
  it('identical targets selected twice are two requests', () => {
    const twice = routed({ triggers: ['no-match'], routes: [{ target: desk }, { target: desk }] });
    expect(outcome(run(twice, NO_MATCH_FACTS))).toBe(
      '{"handoff":{"routes":[{"kind":"queue","name":"Desk"},{"kind":"queue","name":"Desk"}],"state":"requested","triggeredBy":["no-match"]},"kind":"unresolved","reasons":["no-match"]}',
    );
  });
  it('an unconditional route is not a request by itself: no trigger, no request, routes []', () => {
    const gate = routed({ triggers: ['conflict'], routes: [{ target: oversight }] });
    expect(outcome(run(gate, NO_MATCH_FACTS))).toBe(
      '{"handoff":{"routes":[],"state":"none"},"kind":"unresolved","reasons":["no-match"]}',
    );
  });
  it('an outcome requests nothing, not even from unconditional routes', () => {
    expect(outcome(run(c, OUTCOME_FACTS))).toBe(
      '{"handoff":{"routes":[],"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]}',
    );
  });
  it('when routes filter out every route the state is none, routes [] and triggeredBy absent', () => {
    const filtered = routed({ triggers: ['no-match', 'unknown'], routes: [{ target: desk, triggers: ['unknown'] }] });
    expect(outcome(run(filtered, NO_MATCH_FACTS))).toBe(
      '{"handoff":{"routes":[],"state":"none"},"kind":"unresolved","reasons":["no-match"]}',
    );
  });
  it('a direct exception bypasses the trigger gate but not the route filters', () => {
    const d = routed(
      { triggers: ['unknown'], routes: [{ target: desk, triggers: ['unknown'] }, { target: oversight }] },
      { exceptions: [exception('x', lit(true), { effect: 'escalate' })] },
    );
    expect(outcome(run(d, OUTCOME_FACTS))).toBe(
      '{"handoff":{"routes":[{"kind":"human-role","name":"Oversight"}],"state":"requested","triggeredBy":["exception-escalation"]},"kind":"unresolved","reasons":["exception-escalation"]}',
    );
    const onlyFiltered = routed(
      { triggers: ['unknown'], routes: [{ target: desk, triggers: ['unknown'] }] },
      { exceptions: [exception('x', lit(true), { effect: 'escalate' })] },
    );
    expect(outcome(run(onlyFiltered, OUTCOME_FACTS))).toBe(
      '{"handoff":{"routes":[],"state":"none"},"kind":"unresolved","reasons":["exception-escalation"]}',
    );
  });
  it('route triggers meet the complete reasons, while triggeredBy keeps the gate subset', () => {
    // unknown (from an escalate exception) is retained beside exception-escalation; the desk route filters on unknown.
    const d = routed(
      { triggers: ['unknown'], routes: [{ target: desk, triggers: ['unknown'] }] },
      {
        exceptions: [
          exception('x', lit(true), { effect: 'escalate' }),
          exception('y', U, { effect: 'escalate' }, 'escalate'),
        ],
      },
    );
    expect(outcome(run(d, OUTCOME_FACTS))).toBe(
      '{"handoff":{"routes":[{"kind":"queue","name":"Desk"}],"state":"requested","triggeredBy":["exception-escalation","unknown"]},"kind":"unresolved","reasons":["exception-escalation","unknown"]}',
    );
  });
});

describe('§8.1 no escalation object', () => {
  it('a direct exception escalation is requested with no destination and no routes member', () => {
    const c = compile(pack({ exceptions: [exception('x', lit(true), { effect: 'escalate' })] }));
    expect(outcome(run(c, {}))).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["exception-escalation"]},"kind":"unresolved","reasons":["exception-escalation"]}',
    );
  });
  it('generated reasons request nothing without an escalation object', () => {
    const c = compile(pack({ rules: [rule('a', lit(false), 'yes')] }));
    expect(outcome(run(c, {}))).toBe('{"handoff":{"state":"none"},"kind":"unresolved","reasons":["no-match"]}');
  });
});
