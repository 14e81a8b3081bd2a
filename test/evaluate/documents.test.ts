import { describe, expect, it } from 'vitest';
import { evaluateDocuments } from '../../core/evaluate/documents.js';
import type { EvaluationResult } from '../../core/evaluate/types.js';
import { file, json } from './fixtures.js';
import { bytes, fact, lit, pack, rule } from './helpers.js';

const evaluate = (p: Uint8Array, facts: unknown, evidence?: unknown, extensions: string[] = []): EvaluationResult =>
  evaluateDocuments({
    pack: p,
    facts: facts instanceof Uint8Array ? facts : bytes(facts),
    ...(evidence === undefined ? {} : { evidence: evidence instanceof Uint8Array ? evidence : bytes(evidence) }),
    supportedExtensions: new Set(extensions),
  });
const show = (r: EvaluationResult) =>
  r.kind === 'disposition' ? r.bytes : `error:${r.error.class}/${r.error.phase}/${r.error.code}`;
const req = (n: string) => file(`examples/requests/${n}.json`);

describe('evaluateDocuments: the full §8.2 preflight from bytes', () => {
  it('refuses a pack that is not carrier-conforming as pack-not-conformant before reading facts', () => {
    expect(show(evaluate(bytes('{"specVersion":"0.3.0",'), '{'))).toBe(
      'error:pack-not-conformant/preflight/pack-carrier',
    );
  });
  it('refuses a structurally invalid pack as pack-not-conformant', () => {
    const p = pack({ rules: [] });
    expect(show(evaluate(bytes(p), '{}'))).toBe('error:pack-not-conformant/preflight/pack-structural');
  });
  it('refuses a semantically invalid pack as pack-not-conformant, even beside malformed evidence', () => {
    const p = pack({ rules: [rule('r', lit(true), 'undeclared-outcome')] });
    expect(show(evaluate(bytes(p), '{}', '{"nope":"present"}'))).toBe(
      'error:pack-not-conformant/preflight/pack-semantic',
    );
  });
  it('refuses an unknown specVersion selector as pack-not-conformant', () => {
    expect(show(evaluate(bytes(pack({ specVersion: '0.3.0-draft' })), '{}'))).toMatch(
      /^error:pack-not-conformant\/preflight\//,
    );
  });
  it('reports malformed-input before an unsupported required extension', () => {
    expect(show(evaluate(file('examples/requires-extension.json'), '{"a":1,"a":1}'))).toBe(
      'error:malformed-input/preflight/facts-duplicate-member',
    );
  });
  it('a conformant pack with admitted inputs yields a disposition, work and no error member', () => {
    const p = bytes(pack({ rules: [rule('r', fact('/x', 'equals', 'ab'), 'yes')] }));
    const r = evaluate(p, { x: 'ab' });
    expect(show(r)).toBe('{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"yes","reasons":[]}');
    expect(r.work).toBe(15);
  });
});

describe('the example packs give the results worked out by hand in examples/README.md', () => {
  const cases: [string, string, string | undefined, string[], string][] = [
    [
      'vendor-onboarding-target',
      'vendor-low-risk.facts',
      'vendor-certificate.evidence',
      [],
      '{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"onboard","reasons":[]}',
    ],
    [
      'vendor-onboarding-target',
      'vendor-no-match.facts',
      'vendor-certificate.evidence',
      [],
      '{"handoff":{"state":"requested","triggeredBy":["no-match"]},"kind":"unresolved","reasons":["no-match"]}',
    ],
    [
      'routes-all-filtered',
      'leave-long.facts',
      undefined,
      [],
      '{"handoff":{"routes":[],"state":"none"},"kind":"unresolved","reasons":["no-match"]}',
    ],
    [
      'direct-exception-no-escalation',
      'refund-fraud-flag.facts',
      undefined,
      [],
      '{"handoff":{"state":"requested","triggeredBy":["exception-escalation"]},"kind":"unresolved","reasons":["exception-escalation"]}',
    ],
    [
      'legacy-expense-approval-0.2.0-draft',
      'expense-travel.facts',
      'expense-receipt.evidence',
      [],
      '{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"approve","reasons":[]}',
    ],
    [
      'requires-extension',
      'volunteer-adult.facts',
      undefined,
      [],
      'error:unsupported-required-extension/preflight/unsupported-required-extension',
    ],
    ['requires-extension', 'volunteer-adult.facts', undefined, ['com.example.consent-policy'], 'outcome:eligible'],
    [
      'data-request-intake-triage',
      'triage-instance-9-conflict.facts',
      'triage-all-present.evidence',
      [],
      '{"handoff":{"routes":[{"kind":"human-role","name":"Data Steward"},{"kind":"human-role","name":"Oversight"}],"state":"requested","triggeredBy":["conflict"]},"kind":"unresolved","reasons":["conflict"]}',
    ],
  ];
  for (const [p, facts, evidence, extensions, expected] of cases) {
    it(`${p} with ${facts}${extensions.length ? ` and ${extensions.join(',')}` : ''}`, () => {
      const r = evaluate(
        file(`examples/${p}.json`),
        req(facts),
        evidence === undefined ? undefined : req(evidence),
        extensions,
      );
      const got =
        expected.startsWith('outcome:') && r.kind === 'disposition' && r.disposition.kind === 'outcome'
          ? `outcome:${r.disposition.outcomeId}`
          : show(r);
      expect(got).toBe(expected);
    });
  }
  it('an unknown incident severity fans out to all ten extended-profile routes in declaration order', () => {
    const r = evaluate(file('examples/extended-profile-fanout.json'), req('incident-unknown-severity.facts'));
    const declared = (
      json('examples/extended-profile-fanout.json').escalation as { routes: { target: unknown }[] }
    ).routes.map((x) => x.target);
    expect(r.kind === 'disposition' && r.disposition.reasons).toEqual(['unknown']);
    expect(r.kind === 'disposition' && r.disposition.handoff.routes).toEqual(declared);
    expect(declared).toHaveLength(10);
  });
});
