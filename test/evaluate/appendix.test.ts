import { describe, expect, it } from 'vitest';
import { compilePack } from '../../core/evaluate/compile.js';
import { evaluateCompiled } from '../../core/evaluate/evaluate.js';
import { file, json } from './fixtures.js';
import { validated } from './helpers.js';

/**
 * RFC 0006 appendix instances against examples/data-request-intake-triage.json, the corpus owner's reconstruction.
 * Expected bytes are those worked out by hand in examples/README.md; work figures were summed by hand from RFC 0008
 * (applicability 55, or 57 for the 13-byte "media-inquiry"; exceptions 118 + 66 + 42; rules 129 + 46 + 43 + 39 + 45 + 50 + 84 + 53 + 75 for these facts).
 */
const c = compilePack(validated(json('examples/data-request-intake-triage.json')));
const req = (name: string) => file(`examples/requests/${name}.json`);
const evaluate = (facts: string, evidence?: string) =>
  evaluateCompiled(c, {
    facts: req(facts),
    ...(evidence === undefined ? {} : { evidence: req(evidence) }),
    supportedExtensions: new Set(),
  });

const cases: [string, string, string | undefined, string, number | undefined][] = [
  [
    'instance 1: a non-data-access request is not-applicable, and not-applicable is not a trigger',
    'triage-instance-1-not-applicable.facts',
    'triage-all-present.evidence',
    '{"handoff":{"routes":[],"state":"none"},"kind":"not-applicable","reasons":["not-applicable"]}',
    57,
  ],
  [
    'a complete, appropriate request with all evidence proceeds',
    'triage-complete-appropriate.facts',
    'triage-all-present.evidence',
    '{"handoff":{"routes":[],"state":"none"},"kind":"outcome","outcomeId":"proceed","reasons":[]}',
    845,
  ],
  [
    'instance 7a: absent sponsor endorsement is missing-required-evidence, routed to the desk and oversight',
    'triage-complete-appropriate.facts',
    'triage-instance-7a.evidence',
    '{"handoff":{"routes":[{"kind":"queue","name":"Intake Desk"},{"kind":"human-role","name":"Oversight"}],"state":"requested","triggeredBy":["missing-required-evidence"]},"kind":"unresolved","reasons":["missing-required-evidence"]}',
    281,
  ],
  [
    'instance 7b: an omitted evidence key is unknown, and the duplicate desk target is kept',
    'triage-complete-appropriate.facts',
    'triage-instance-7b.evidence',
    '{"handoff":{"routes":[{"kind":"human-role","name":"Data Steward"},{"kind":"human-role","name":"Oversight"},{"kind":"queue","name":"Intake Desk"}],"state":"requested","triggeredBy":["unknown"]},"kind":"unresolved","reasons":["unknown"]}',
    281,
  ],
  [
    'instance 8: the embargo forces decline, bypassing a true proceed rule',
    'triage-instance-8-embargo.facts',
    'triage-all-present.evidence',
    '{"handoff":{"routes":[],"state":"none"},"kind":"outcome","outcomeId":"decline","reasons":[]}',
    280,
  ],
  [
    'instance 9: proceed and ethics review conflict, never tie-broken',
    'triage-instance-9-conflict.facts',
    'triage-all-present.evidence',
    '{"handoff":{"routes":[{"kind":"human-role","name":"Data Steward"},{"kind":"human-role","name":"Oversight"}],"state":"requested","triggeredBy":["conflict"]},"kind":"unresolved","reasons":["conflict"]}',
    undefined,
  ],
  [
    'a legal hold escalates directly, bypassing the trigger gate but not the route filters',
    'triage-legal-hold.facts',
    'triage-all-present.evidence',
    '{"handoff":{"routes":[{"kind":"human-role","name":"Oversight"}],"state":"requested","triggeredBy":["exception-escalation"]},"kind":"unresolved","reasons":["exception-escalation"]}',
    undefined,
  ],
];

describe('RFC 0006 appendix instances (data-request-intake-triage)', () => {
  for (const [name, facts, evidence, expected, work] of cases) {
    it(name, () => {
      const r = evaluate(facts, evidence);
      expect(r.kind === 'disposition' ? r.bytes : r.error.code).toBe(expected);
      if (work !== undefined) expect(r.work).toBe(work);
    });
  }
  it('instance 7 with the evidence document omitted is unknown, not missing evidence', () => {
    const r = evaluate('triage-complete-appropriate.facts');
    expect(r.kind === 'disposition' && r.disposition.reasons).toEqual(['unknown']);
  });
});
