/**
 * RFC 0006 appendix instances over the reconstructed data-request-intake-triage pack (examples/), constructed rows
 * around them, and rule-order permutations that must not change any result (Core §4: collection order carries no
 * priority; §8: array order MUST NOT select among outcomes). Expected results are worked by hand from §§7–8.
 *
 * Triage pack routes (declaration order): R1 queue "Intake Desk" [missing-required-evidence];
 * R2 human-role "Data Steward" [conflict, unknown]; R3 human-role "Oversight" (unconditional);
 * R4 queue "Intake Desk" [unknown]. escalation.triggers: conflict, missing-required-evidence, no-match, unknown.
 */
import { readFileSync } from 'node:fs';
import { NONE_ROUTES, notApplicable, outcome, requested, target, unresolved, type Json } from './builders.js';
import type { EvalCaseDef, Expectation, PackRef } from './case-types.js';

const INTAKE = target('queue', 'Intake Desk');
const STEWARD = target('human-role', 'Data Steward');
const OVERSIGHT = target('human-role', 'Oversight');

type Req = Record<string, Json>;
const request = (fields: Req): Json => ({ request: { type: 'data-access', ...fields } });
const CAP = { completeness: 'complete', appropriateness: 'pass', embargoedInformationToUnauthorizedRecipients: false };
const BOTH = { 'intake-form': 'present', 'sponsor-endorsement': 'present' };

export function loadTriagePack(root: string): Record<string, Json> {
  return JSON.parse(readFileSync(`${root}/examples/data-request-intake-triage.json`, 'utf8')) as Record<string, Json>;
}

interface Scenario {
  readonly id: string;
  readonly description: string;
  readonly facts: Json;
  readonly evidence?: Json;
  readonly expect: Expectation;
}

const D = (disposition: Record<string, Json>): Expectation => ({ disposition });

const scenarios: Scenario[] = [
  {
    id: 'rfc0006-instance-1-not-applicable',
    description:
      'RFC 0006 instance 1: type is not data-access, so applicability is false: not-applicable with reason not-applicable (§8 step 1); not-applicable is not a trigger, so state none and routes [] (§8.1, §8.3).',
    facts: { request: { type: 'media-inquiry', ...CAP } },
    evidence: BOTH,
    expect: D(notApplicable(NONE_ROUTES)),
  },
  {
    id: 'rfc0006-complete-appropriate-proceeds',
    description:
      'C=complete, A=pass, E=false, both required evidence present: the proceed rule is the only true rule; unknown ignore rules do not block (§8 steps 7, 9).',
    facts: request(CAP),
    evidence: BOTH,
    expect: D(outcome('proceed', NONE_ROUTES)),
  },
  {
    id: 'rfc0006-instance-7a-missing-evidence',
    description:
      "RFC 0006 instance 7 (variant a, the text's own example): IF present, SE absent → missing-required-evidence (§8 step 2 restated), handoff requested; routes R1 (missing-required-evidence) and R3 (unconditional).",
    facts: request(CAP),
    evidence: { 'intake-form': 'present', 'sponsor-endorsement': 'absent' },
    expect: D(unresolved(['missing-required-evidence'], requested(['missing-required-evidence'], [INTAKE, OVERSIGHT]))),
  },
  {
    id: 'rfc0006-instance-7b-unknown-evidence',
    description:
      'RFC 0006 instance 7 (variant b): SE omitted from the evidence document is unknown (§8.2), so step 2 records unknown, not missing-required-evidence; routes R2, R3 and R4 (duplicate Intake Desk target kept, §8.1).',
    facts: request(CAP),
    evidence: { 'intake-form': 'present' },
    expect: D(unresolved(['unknown'], requested(['unknown'], [STEWARD, OVERSIGHT, INTAKE]))),
  },
  {
    id: 'rfc0006-instance-7b-explicit-unknown',
    description: 'RFC 0006 instance 7b with SE stated as "unknown" rather than omitted: the same disposition (§8.2).',
    facts: request(CAP),
    evidence: { 'intake-form': 'present', 'sponsor-endorsement': 'unknown' },
    expect: D(unresolved(['unknown'], requested(['unknown'], [STEWARD, OVERSIGHT, INTAKE]))),
  },
  {
    id: 'rfc0006-instance-8-forced-outcome',
    description: 'RFC 0006 instance 8: E=true forces decline; the otherwise-true proceed rule is bypassed (§8 step 6).',
    facts: request({ ...CAP, embargoedInformationToUnauthorizedRecipients: true }),
    evidence: BOTH,
    expect: D(outcome('decline', NONE_ROUTES)),
  },
  {
    id: 'rfc0006-instance-9-conflict',
    description:
      'RFC 0006 instance 9: proceed and ethics-review (special category health) are both true: conflict, never tie-broken (§8 step 8); routes R2 and R3.',
    facts: request({ ...CAP, specialCategory: 'health' }),
    evidence: BOTH,
    expect: D(unresolved(['conflict'], requested(['conflict'], [STEWARD, OVERSIGHT]))),
  },
  {
    id: 'triage-incomplete-returns',
    description: 'C=incomplete: return-when-incomplete is the only true rule.',
    facts: request({ ...CAP, completeness: 'incomplete' }),
    evidence: BOTH,
    expect: D(outcome('return-for-completion', NONE_ROUTES)),
  },
  {
    id: 'triage-inappropriate-declines',
    description: 'A=fail: decline-when-inappropriate is true and proceed is false.',
    facts: request({ ...CAP, appropriateness: 'fail' }),
    evidence: BOTH,
    expect: D(outcome('decline', NONE_ROUTES)),
  },
  {
    id: 'triage-borderline-review',
    description: 'A=borderline: review-when-borderline yields ethics-review.',
    facts: request({ ...CAP, appropriateness: 'borderline' }),
    evidence: BOTH,
    expect: D(outcome('ethics-review', NONE_ROUTES)),
  },
  {
    id: 'triage-embargo-unknown-escalates',
    description:
      'E missing: the embargo exception is unknown with onUnknown escalate, recording unknown (§8 steps 3, 5); routes R2, R3, R4.',
    facts: request({ completeness: 'complete', appropriateness: 'pass' }),
    evidence: BOTH,
    expect: D(unresolved(['unknown'], requested(['unknown'], [STEWARD, OVERSIGHT, INTAKE]))),
  },
  {
    id: 'triage-legal-hold-direct-escalation',
    description:
      'legalHold=true: a direct exception escalation bypasses the trigger gate but not the route filters: only R3 (§8.1).',
    facts: request({ ...CAP, legalHold: true }),
    evidence: BOTH,
    expect: D(unresolved(['exception-escalation'], requested(['exception-escalation'], [OVERSIGHT]))),
  },
  {
    id: 'triage-fallback',
    description:
      'C=pending, A=pass: no rule is true and no escalate rule is unknown, so the fallback ethics-review applies (§8 step 10).',
    facts: request({ ...CAP, completeness: 'pending' }),
    evidence: BOTH,
    expect: D(outcome('ethics-review', NONE_ROUTES)),
  },
  {
    id: 'triage-completeness-missing',
    description:
      'C missing: the proceed rule (all of unknown and true) and return-when-incomplete are unknown with onUnknown escalate: unresolved unknown (§8 step 7).',
    facts: request({ appropriateness: 'pass', embargoedInformationToUnauthorizedRecipients: false }),
    evidence: BOTH,
    expect: D(unresolved(['unknown'], requested(['unknown'], [STEWARD, OVERSIGHT, INTAKE]))),
  },
  {
    id: 'triage-large-extract-conflict',
    description: 'recordCount "250000" >= "100000": ethics-review beside proceed is a conflict.',
    facts: request({ ...CAP, recordCount: '250000' }),
    evidence: BOTH,
    expect: D(unresolved(['conflict'], requested(['conflict'], [STEWARD, OVERSIGHT]))),
  },
  {
    id: 'triage-large-extract-pre-approved',
    description: 'The pre-approved programme suppresses review-when-large-extract, leaving proceed (§8 steps 4, 6).',
    facts: request({ ...CAP, recordCount: '250000', programme: { preApproved: true } }),
    evidence: BOTH,
    expect: D(outcome('proceed', NONE_ROUTES)),
  },
  {
    id: 'triage-record-count-json-number',
    description:
      'recordCount as the JSON number 250000 is not coerced: the ordered comparison is unknown (§7.4) and the rule ignores it, so proceed.',
    facts: request({ ...CAP, recordCount: 250000 }),
    evidence: BOTH,
    expect: D(outcome('proceed', NONE_ROUTES)),
  },
  {
    id: 'triage-commercial-resale-conflict',
    description: 'purpose commercial-resale: decline beside proceed is a conflict.',
    facts: request({ ...CAP, purpose: 'commercial-resale' }),
    evidence: BOTH,
    expect: D(unresolved(['conflict'], requested(['conflict'], [STEWARD, OVERSIGHT]))),
  },
  {
    id: 'triage-open-data-proceeds',
    description:
      'dataClassification open with the intake form present: proceed-when-open-data is true; every other rule is false or unknown-ignore.',
    facts: request({
      completeness: 'pending',
      appropriateness: 'pending',
      embargoedInformationToUnauthorizedRecipients: false,
      dataClassification: 'open',
    }),
    evidence: BOTH,
    expect: D(outcome('proceed', NONE_ROUTES)),
  },
  {
    id: 'triage-missing-evidence-and-legal-hold',
    description:
      'SE absent and legalHold true: both reasons retained (§8 step 5); triggeredBy holds both; routes R1 and R3.',
    facts: request({ ...CAP, legalHold: true }),
    evidence: { 'intake-form': 'present', 'sponsor-endorsement': 'absent' },
    expect: D(
      unresolved(
        ['exception-escalation', 'missing-required-evidence'],
        requested(['exception-escalation', 'missing-required-evidence'], [INTAKE, OVERSIGHT]),
      ),
    ),
  },
  {
    id: 'triage-missing-evidence-blocks-embargo',
    description: 'SE absent blocks the forced decline (§8 steps 5–6): unresolved missing-required-evidence.',
    facts: request({ ...CAP, embargoedInformationToUnauthorizedRecipients: true }),
    evidence: { 'intake-form': 'present', 'sponsor-endorsement': 'absent' },
    expect: D(unresolved(['missing-required-evidence'], requested(['missing-required-evidence'], [INTAKE, OVERSIGHT]))),
  },
  {
    id: 'triage-undeclared-evidence-key',
    description: 'An evidence key the pack does not declare is malformed-input in preflight (§8.2).',
    facts: request(CAP),
    evidence: { ...BOTH, 'ethics-approval': 'present' },
    expect: { errorClass: 'malformed-input', errorPhase: 'preflight' },
  },
];

/** Deterministic permutations: reverse, rotate by three, and interleave (odd positions first). */
function permutations<T>(xs: readonly T[]): { name: string; items: T[] }[] {
  const rotate = (n: number) => xs.map((_, i) => xs[(i + n) % xs.length] as T);
  return [
    { name: 'reversed', items: [...xs].reverse() },
    { name: 'rotated', items: rotate(3) },
    { name: 'interleaved', items: [...xs.filter((_, i) => i % 2 === 1), ...xs.filter((_, i) => i % 2 === 0)] },
  ];
}

export function triageCases(root: string): EvalCaseDef[] {
  const doc = loadTriagePack(root);
  const base: PackRef = { name: 'data-request-intake-triage', doc };
  const out: EvalCaseDef[] = scenarios.map((s) => ({
    id: s.id,
    description: s.description,
    pack: base,
    facts: s.facts,
    ...(s.evidence !== undefined ? { evidence: s.evidence } : {}),
    expect: s.expect,
  }));
  // Rule-order permutations: rules, exceptions, outcomes and evidence requirements reordered (never routes, whose
  // declaration order §8.1 makes meaningful). Every result must equal the unpermuted one.
  const rules = doc.rules as Json[];
  const exceptions = doc.exceptions as Json[];
  const outcomes = doc.outcomes as Json[];
  const evidence = doc.evidenceRequirements as Json[];
  const chosen = scenarios.filter((s) =>
    [
      'rfc0006-instance-7a-missing-evidence',
      'rfc0006-instance-8-forced-outcome',
      'rfc0006-instance-9-conflict',
      'triage-legal-hold-direct-escalation',
      'triage-large-extract-pre-approved',
      'triage-fallback',
    ].includes(s.id),
  );
  const rulePerms = permutations(rules);
  const excPerms = permutations(exceptions);
  const outPerms = permutations(outcomes);
  const evPerms = permutations(evidence);
  rulePerms.forEach((rp, k) => {
    const permuted = {
      ...doc,
      evidenceRequirements: evPerms[k]!.items,
      outcomes: outPerms[k]!.items,
      rules: rp.items,
      exceptions: excPerms[k]!.items,
    };
    const ref: PackRef = { name: `data-request-intake-triage-${rp.name}`, doc: permuted };
    for (const s of chosen) {
      out.push({
        id: `permutation-${rp.name}-${s.id}`,
        description: `Rule-order permutation (${rp.name} rules, exceptions, outcomes and evidence requirements) must not change the result (§4, §8 closing paragraph): same as ${s.id}.`,
        pack: ref,
        facts: s.facts,
        ...(s.evidence !== undefined ? { evidence: s.evidence } : {}),
        expect: s.expect,
      });
    }
  });
  return out;
}
