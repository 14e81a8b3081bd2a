/**
 * Evaluation cases (Core §3.4.1 case carrier). Every expected result below is derived by hand from the cited text of
 * Judgment Pack Core 0.3.0 (§§7–8.4), RFC 0006 (appendix instances) or RFC 0008 "Limit accounting" (budget rows,
 * arithmetic in the description). None was produced by running our evaluator.
 */
import {
  all,
  any,
  ev,
  evReq,
  escalateEx,
  fact,
  force,
  FALSE,
  lit,
  NONE,
  NONE_ROUTES,
  not,
  notApplicable,
  outcome,
  pack,
  probe,
  raw,
  rawBytes,
  requested,
  route,
  rule,
  suppress,
  target,
  TRUE,
  UNKNOWN,
  unresolved,
  type Json,
  type Raw,
} from './builders.js';
import type { EvalCaseDef, Expectation, PackRef } from './case-types.js';
import { budgetCases } from './budget-cases.js';
import { triageCases } from './triage-cases.js';

const D = (disposition: Record<string, Json>): Expectation => ({ disposition });
const ERR = (
  errorClass: Extract<Expectation, { errorClass: string }>['errorClass'],
  errorPhase: 'preflight' | 'evaluation' = 'preflight',
): Expectation => ({ errorClass, errorPhase });
const P = (name: string, doc: Record<string, Json> | Raw): PackRef => ({ name, doc });

const cases: EvalCaseDef[] = [];
function add(
  id: string,
  description: string,
  p: PackRef,
  facts: Json | Raw,
  expect: Expectation,
  more: Partial<EvalCaseDef> = {},
): void {
  cases.push({ id, description, pack: p, facts, expect, ...more });
}
/** A probe case: the disposition reads the condition's three-valued result (builders.probe). */
function probeCase(
  id: string,
  description: string,
  cond: Record<string, Json>,
  facts: Json | Raw,
  value: 'true' | 'false' | 'unknown',
  more: Partial<EvalCaseDef> = {},
): void {
  add(
    id,
    description,
    P(id, probe(cond)),
    facts,
    D(value === 'true' ? TRUE : value === 'false' ? FALSE : UNKNOWN),
    more,
  );
}

// ---- §8 step 1: applicability -------------------------------------------------------------------------------
const appPack = (extra: Record<string, Json | undefined> = {}) =>
  pack({ applicability: fact('/kind', 'equals', 'loan'), ...extra });
add(
  'step1-applicability-true-continues',
  '§8 step 1: applicability true continues to the rules; r1 (literal true) yields yes.',
  P('app', appPack()),
  { kind: 'loan' },
  D(outcome('yes')),
);
add(
  'step1-applicability-false-not-applicable',
  '§8 step 1: applicability false produces not-applicable with reason not-applicable; no escalation object, so handoff none (§8.3).',
  P('app', appPack()),
  { kind: 'lease' },
  D(notApplicable()),
);
add(
  'step1-applicability-unknown-unresolved',
  '§8 step 1: applicability unknown (path /kind does not resolve, §7.4) produces unresolved with reason unknown and stops.',
  P('app', appPack()),
  { other: 'loan' },
  D(unresolved(['unknown'])),
);
add(
  'step1-applicability-omitted-is-true',
  '§8 step 1: omitted applicability is the literal true.',
  P('no-app', pack()),
  {},
  D(outcome('yes')),
);
add(
  'step1-applicability-literal-false',
  '§8 step 1: a literal false applicability is not-applicable.',
  P('app-literal-false', pack({ applicability: lit(false) })),
  {},
  D(notApplicable()),
);
add(
  'step1-not-applicable-skips-exceptions',
  '§8 step 1: not-applicable does not evaluate exceptions; the true escalate exception is never reached, so no exception-escalation.',
  P('app-exc', appPack({ exceptions: [escalateEx('x1', lit(true))] })),
  { kind: 'lease' },
  D(notApplicable()),
);
add(
  'step1-not-applicable-before-evidence',
  '§8 step 1 precedes step 2: a false applicability with required evidence absent is still not-applicable.',
  P('app-ev', appPack({ evidenceRequirements: [evReq('doc', true)] })),
  { kind: 'lease' },
  D(notApplicable()),
  { evidence: { doc: 'absent' } },
);
add(
  'step1-unknown-stops-before-evidence',
  '§8 step 1: unknown applicability stops; step 2 never records missing-required-evidence, so reasons are exactly [unknown].',
  P('app-ev', appPack({ evidenceRequirements: [evReq('doc', true)] })),
  {},
  D(unresolved(['unknown'])),
  { evidence: { doc: 'absent' } },
);
add(
  'step1-not-applicable-trigger-requests-target',
  '§8.1: not-applicable is in escalation.triggers, so the target is requested with triggeredBy [not-applicable]; target packs carry no routes member (§8.3).',
  P('app-target-na', appPack({ escalation: { triggers: ['not-applicable'], target: target('queue', 'Desk') } })),
  { kind: 'lease' },
  D(notApplicable(requested(['not-applicable']))),
);
add(
  'step1-unknown-trigger-requests-target',
  '§8.1: an unknown applicability with unknown in the triggers requests the target.',
  P('app-target-unknown', appPack({ escalation: { triggers: ['unknown'], target: target('queue', 'Desk') } })),
  {},
  D(unresolved(['unknown'], requested(['unknown']))),
);
add(
  'step1-not-applicable-routes-not-triggered',
  '§8.1/§8.3: not-applicable is not a trigger, so no request; a routes pack reports state none and routes [] even with an unconditional route.',
  P(
    'app-routes-unknown-only',
    appPack({ escalation: { triggers: ['unknown'], routes: [route(target('queue', 'Desk'))] } }),
  ),
  { kind: 'lease' },
  D(notApplicable(NONE_ROUTES)),
);
add(
  'step1-not-applicable-routes-triggered',
  '§8.1: not-applicable triggers the request; the unconditional route and the not-applicable route are selected in declaration order, the unknown-only route is not.',
  P(
    'app-routes-na',
    appPack({
      escalation: {
        triggers: ['not-applicable', 'unknown'],
        routes: [
          route(target('queue', 'Unknowns'), ['unknown']),
          route(target('system', 'Archive')),
          route(target('queue', 'Out Of Scope'), ['not-applicable']),
        ],
      },
    }),
  ),
  { kind: 'lease' },
  D(notApplicable(requested(['not-applicable'], [target('system', 'Archive'), target('queue', 'Out Of Scope')]))),
);

// ---- §8 step 2: required evidence ----------------------------------------------------------------------------
const evPack = P(
  'ev-two',
  pack({ evidenceRequirements: [evReq('form', true), evReq('letter', true), evReq('extra', false)] }),
);
add(
  'step2-all-present-continues',
  '§8 step 2: every required requirement present records nothing; r1 yields yes.',
  evPack,
  {},
  D(outcome('yes')),
  { evidence: { form: 'present', letter: 'present' } },
);
add(
  'step2-one-absent-missing',
  '§8 step 2: one required requirement absent records missing-required-evidence; unresolved.',
  evPack,
  {},
  D(unresolved(['missing-required-evidence'])),
  { evidence: { form: 'present', letter: 'absent' } },
);
add(
  'step2-omitted-key-unknown',
  '§8 step 2 with §8.2: an omitted key means unknown, so reason unknown (RFC 0006 instance 7b shape).',
  evPack,
  {},
  D(unresolved(['unknown'])),
  { evidence: { form: 'present' } },
);
add(
  'step2-explicit-unknown',
  '§8 step 2: an explicit "unknown" value records unknown.',
  evPack,
  {},
  D(unresolved(['unknown'])),
  { evidence: { form: 'present', letter: 'unknown' } },
);
add(
  'step2-absent-and-unknown-records-only-missing',
  '§8 step 2: unknown is recorded iff some required presence is unknown and none is false; one absent and one unknown records only missing-required-evidence.',
  evPack,
  {},
  D(unresolved(['missing-required-evidence'])),
  { evidence: { form: 'unknown', letter: 'absent' } },
);
add(
  'step2-document-omitted-all-unknown',
  '§8.2: an omitted evidence document is the implicit empty object, every requirement unknown; step 2 records unknown.',
  evPack,
  {},
  D(unresolved(['unknown'])),
);
add(
  'step2-empty-object-all-unknown',
  '§8.2: an empty evidence object makes every requirement unknown.',
  evPack,
  {},
  D(unresolved(['unknown'])),
  { evidence: {} },
);
add(
  'step2-optional-absent-ignored',
  '§8 step 2 inspects only required requirements: the optional one absent changes nothing.',
  evPack,
  {},
  D(outcome('yes')),
  { evidence: { form: 'present', letter: 'present', extra: 'absent' } },
);
const evExc = (name: string, exceptions: Record<string, Json>[], extra: Record<string, Json> = {}) =>
  P(
    name,
    pack({
      evidenceRequirements: [evReq('form', true)],
      rules: [rule('r1', lit(true), 'yes'), rule('r2', lit(true), 'no')],
      exceptions,
      ...extra,
    }),
  );
add(
  'step5-missing-evidence-and-direct-escalation',
  '§8 step 5: missing evidence and a true escalate exception are both retained; no escalation object, so the direct request is requested with triggeredBy [exception-escalation] only (§8.3).',
  evExc('ev-escalate', [escalateEx('x1', lit(true))]),
  {},
  D(unresolved(['exception-escalation', 'missing-required-evidence'], requested(['exception-escalation']))),
  { evidence: { form: 'absent' } },
);
add(
  'step5-missing-evidence-blocks-forced-outcome',
  '§8 steps 5–6: missing evidence is a blocking state, so a true force-outcome does not produce its outcome.',
  evExc('ev-force', [force('x1', lit(true), 'maybe')]),
  {},
  D(unresolved(['missing-required-evidence'])),
  { evidence: { form: 'absent' } },
);
add(
  'step5-missing-evidence-skips-rules',
  '§8 step 5: with missing evidence normal rules are not evaluated, so the r1/r2 conflict is never recorded.',
  evExc('ev-none', []),
  {},
  D(unresolved(['missing-required-evidence'])),
  { evidence: { form: 'absent' } },
);
add(
  'step5-missing-evidence-and-unknown-exception',
  '§8 steps 3 and 5: an unknown exception with onUnknown escalate records unknown beside missing-required-evidence.',
  evExc('ev-unknown-exc', [force('x1', fact('/flag', 'equals', true), 'maybe', 'escalate')]),
  {},
  D(unresolved(['missing-required-evidence', 'unknown'])),
  { evidence: { form: 'absent' } },
);
add(
  'step5-missing-evidence-target-triggers',
  '§8.1: missing-required-evidence in triggers requests the target; exception-escalation joins triggeredBy as a direct request.',
  evExc('ev-escalate-target', [escalateEx('x1', lit(true))], {
    escalation: { triggers: ['missing-required-evidence'], target: target('human-role', 'Reviewer') },
  }),
  {},
  D(
    unresolved(
      ['exception-escalation', 'missing-required-evidence'],
      requested(['exception-escalation', 'missing-required-evidence']),
    ),
  ),
  { evidence: { form: 'absent' } },
);
add(
  'step2-no-requirements-declared',
  '§8.2: a pack with no evidence requirements accepts an empty evidence object.',
  P('no-app', pack()),
  {},
  D(outcome('yes')),
  { evidence: {} },
);

// ---- §8 steps 3–6: exceptions --------------------------------------------------------------------------------
const twoRules = [rule('r1', lit(true), 'yes'), rule('r2', lit(true), 'no')];
const excPack = (name: string, exceptions: Record<string, Json>[], extra: Record<string, Json | undefined> = {}) =>
  P(name, pack({ rules: twoRules, exceptions, ...extra }));
add(
  'step3-unknown-exception-ignore',
  '§8 step 3: an unknown suppress exception with onUnknown ignore contributes no effect; r1 and r2 conflict (step 8).',
  excPack('exc-unknown-ignore', [suppress('x1', fact('/missing', 'equals', 1), 'r2')]),
  {},
  D(unresolved(['conflict'])),
);
add(
  'step3-unknown-exception-escalate',
  '§8 steps 3 and 5: an unknown exception with onUnknown escalate records unknown and blocks the rules.',
  excPack('exc-unknown-escalate', [suppress('x1', fact('/missing', 'equals', 1), 'r2', 'escalate')]),
  {},
  D(unresolved(['unknown'])),
);
add(
  'step4-suppress-rule',
  '§8 steps 4 and 6: a true suppress-rule removes r2, so only r1 (yes) remains.',
  excPack('exc-suppress', [suppress('x1', lit(true), 'r2')]),
  {},
  D(outcome('yes')),
);
add(
  'step4-suppress-union',
  '§8 step 4: suppress effects are compatible and suppress the union of targets; r1 and r2 suppressed leaves r3 (maybe).',
  P(
    'exc-suppress-union',
    pack({
      rules: [...twoRules, rule('r3', lit(true), 'maybe')],
      exceptions: [suppress('x1', lit(true), 'r1'), suppress('x2', lit(true), 'r2')],
    }),
  ),
  {},
  D(outcome('maybe')),
);
add(
  'step4-suppress-all-rules-fallback',
  '§8 steps 6 and 10: suppressing every rule leaves no candidate; the fallback applies.',
  excPack('exc-suppress-all-fallback', [suppress('x1', lit(true), 'r1'), suppress('x2', lit(true), 'r2')], {
    fallbackOutcome: 'maybe',
  }),
  {},
  D(outcome('maybe')),
);
add(
  'step4-suppress-all-rules-no-match',
  '§8 step 10: suppressing every rule without a fallback is no-match.',
  excPack('exc-suppress-all', [suppress('x1', lit(true), 'r1'), suppress('x2', lit(true), 'r2')]),
  {},
  D(unresolved(['no-match'])),
);
add(
  'step6-force-outcome',
  '§8 step 6: one compatible forced outcome is produced without evaluating rules (which would conflict).',
  excPack('exc-force', [force('x1', lit(true), 'maybe')]),
  {},
  D(outcome('maybe')),
);
add(
  'step4-force-same-outcome-compatible',
  '§8 step 4: forced outcomes naming the same outcome are compatible.',
  excPack('exc-force-same', [force('x1', lit(true), 'maybe'), force('x2', lit(true), 'maybe')]),
  {},
  D(outcome('maybe')),
);
add(
  'step5-force-different-outcomes-conflict',
  '§8 steps 4–5: forced outcomes naming different outcomes conflict; unresolved with reason conflict.',
  excPack('exc-force-conflict', [force('x1', lit(true), 'maybe'), force('x2', lit(true), 'no')]),
  {},
  D(unresolved(['conflict'])),
);
add(
  'step4-force-and-suppress-compatible',
  '§8 step 4: suppression is compatible with a forced outcome; the forced outcome wins.',
  excPack('exc-force-suppress', [force('x1', lit(true), 'no'), suppress('x2', lit(true), 'r2')]),
  {},
  D(outcome('no')),
);
add(
  'step4-direct-escalation-no-escalation-object',
  '§8 step 4 and §8.1: a true escalate exception without an escalation object is unresolved with a requested handoff that has no destination.',
  excPack('exc-escalate', [escalateEx('x1', lit(true))]),
  {},
  D(unresolved(['exception-escalation'], requested(['exception-escalation']))),
);
add(
  'step4-escalation-beats-forced-outcome',
  '§8 step 4: a direct escalation takes precedence over a forced outcome.',
  excPack('exc-escalate-force', [force('x1', lit(true), 'maybe'), escalateEx('x2', lit(true))]),
  {},
  D(unresolved(['exception-escalation'], requested(['exception-escalation']))),
);
add(
  'step5-escalation-and-force-conflict-both-retained',
  '§8 step 5: conflicting forced outcomes and a direct escalation are both retained.',
  excPack('exc-escalate-conflict', [
    force('x1', lit(true), 'maybe'),
    force('x2', lit(true), 'no'),
    escalateEx('x3', lit(true)),
  ]),
  {},
  D(unresolved(['conflict', 'exception-escalation'], requested(['exception-escalation']))),
);
add(
  'step5-unknown-exception-blocks-forced-outcome',
  '§8 steps 5–6: an unknown escalate-on-unknown exception is a blocking state, so a true forced outcome is not produced.',
  excPack('exc-force-unknown', [
    force('x1', lit(true), 'maybe'),
    force('x2', fact('/missing', 'equals', true), 'no', 'escalate'),
  ]),
  {},
  D(unresolved(['unknown'])),
);
add(
  'step6-forced-outcome-skips-unknown-rule',
  '§8 step 6: a forced outcome does not evaluate rules, so an unknown escalate rule cannot block it.',
  P(
    'exc-force-skip-unknown',
    pack({
      rules: [rule('r1', fact('/missing', 'equals', 1), 'yes', 'escalate')],
      exceptions: [force('x1', lit(true), 'no')],
    }),
  ),
  {},
  D(outcome('no')),
);
add(
  'step4-suppressed-unknown-rule-no-block',
  '§8 step 6: a suppressed rule is removed before evaluation, so its unknown cannot block the fallback.',
  P(
    'exc-suppress-unknown',
    pack({
      rules: [rule('r1', fact('/missing', 'equals', 1), 'yes', 'escalate')],
      exceptions: [suppress('x1', lit(true), 'r1')],
      fallbackOutcome: 'maybe',
    }),
  ),
  {},
  D(outcome('maybe')),
);
add(
  'step3-false-exception-no-effect',
  '§8 step 3: a false exception has no effect.',
  excPack('exc-false', [force('x1', lit(false), 'maybe', 'escalate')]),
  {},
  D(unresolved(['conflict'])),
);
add(
  'step6-forced-outcome-with-no-true-rule',
  '§8 step 6: a forced outcome is produced even when every rule is false.',
  P(
    'exc-force-false-rules',
    pack({ rules: [rule('r1', lit(false), 'yes')], exceptions: [force('x1', lit(true), 'no')] }),
  ),
  {},
  D(outcome('no')),
);
add(
  'step4-direct-escalation-target-ignores-trigger-list',
  '§8.1: a direct exception request uses the configured target regardless of the trigger list.',
  excPack('exc-escalate-target', [escalateEx('x1', lit(true))], {
    escalation: { triggers: ['no-match'], target: target('queue', 'Desk') },
  }),
  {},
  D(unresolved(['exception-escalation'], requested(['exception-escalation']))),
);
add(
  'step4-direct-escalation-routes-filters-apply',
  '§8.1: a direct exception bypasses the trigger gate but not route filters: only the unconditional route is selected.',
  excPack('exc-escalate-routes', [escalateEx('x1', lit(true))], {
    escalation: {
      triggers: ['conflict', 'unknown'],
      routes: [route(target('queue', 'Conflicts'), ['conflict']), route(target('human-role', 'Duty Officer'))],
    },
  }),
  {},
  D(unresolved(['exception-escalation'], requested(['exception-escalation'], [target('human-role', 'Duty Officer')]))),
);
add(
  'step4-direct-escalation-routes-all-filtered',
  '§8.1: a direct exception whose every route is filtered out: state none, routes [], no triggeredBy; reasons keep exception-escalation.',
  excPack('exc-escalate-routes-filtered', [escalateEx('x1', lit(true))], {
    escalation: { triggers: ['conflict'], routes: [route(target('queue', 'Conflicts'), ['conflict'])] },
  }),
  {},
  D(unresolved(['exception-escalation'], NONE_ROUTES)),
);
add(
  'step5-direct-escalation-and-unknown-routes',
  '§8.1: reasons exception-escalation and unknown; the unknown route and the unconditional route are selected, in declaration order.',
  excPack(
    'exc-escalate-unknown-routes',
    [escalateEx('x1', lit(true)), suppress('x2', fact('/missing', 'equals', 1), 'r1', 'escalate')],
    {
      escalation: {
        triggers: ['unknown'],
        routes: [route(target('human-role', 'Zed')), route(target('queue', 'Alpha'), ['unknown'])],
      },
    },
  ),
  {},
  D(
    unresolved(
      ['exception-escalation', 'unknown'],
      requested(['exception-escalation', 'unknown'], [target('human-role', 'Zed'), target('queue', 'Alpha')]),
    ),
  ),
);

// ---- §8 steps 7–10: rules -----------------------------------------------------------------------------------
add(
  'step9-single-true-rule',
  '§8 step 9: one true rule produces its outcome.',
  P('rules-one', pack({ rules: [rule('r1', lit(true), 'yes'), rule('r2', lit(false), 'no')] })),
  {},
  D(outcome('yes')),
);
add(
  'step9-same-outcome-compatible',
  '§8 step 9: several true rules naming the same outcome are compatible.',
  P('rules-same', pack({ rules: [rule('r1', lit(true), 'yes'), rule('r2', lit(true), 'yes')] })),
  {},
  D(outcome('yes')),
);
add(
  'step8-conflict',
  '§8 step 8: true rules naming different outcomes record conflict; never tie-broken.',
  P('rules-conflict', pack({ rules: twoRules })),
  {},
  D(unresolved(['conflict'])),
);
add(
  'step8-three-way-conflict',
  '§8 step 8: three distinct outcomes are one conflict reason.',
  P('rules-conflict3', pack({ rules: [...twoRules, rule('r3', lit(true), 'maybe')] })),
  {},
  D(unresolved(['conflict'])),
);
add(
  'step7-unknown-ignore-does-not-block',
  '§8 step 7: an unknown rule with onUnknown ignore does not block a true rule.',
  P(
    'rules-unknown-ignore',
    pack({ rules: [rule('r1', fact('/missing', 'equals', 1), 'no'), rule('r2', lit(true), 'yes')] }),
  ),
  {},
  D(outcome('yes')),
);
add(
  'step7-unknown-escalate-blocks',
  '§8 step 7: an unknown rule with onUnknown escalate blocks the true rule.',
  P(
    'rules-unknown-escalate',
    pack({ rules: [rule('r1', fact('/missing', 'equals', 1), 'no', 'escalate'), rule('r2', lit(true), 'yes')] }),
  ),
  {},
  D(unresolved(['unknown'])),
);
add(
  'step8-unknown-and-conflict-retained',
  '§8 step 8: an escalate-on-unknown rule and conflicting true rules retain both unknown and conflict.',
  P(
    'rules-unknown-conflict',
    pack({ rules: [rule('r0', fact('/missing', 'equals', 1), 'maybe', 'escalate'), ...twoRules] }),
  ),
  {},
  D(unresolved(['conflict', 'unknown'])),
);
add(
  'step10-fallback',
  '§8 step 10: no true rule and a fallback produce the fallback.',
  P('rules-fallback', pack({ rules: [rule('r1', lit(false), 'yes')], fallbackOutcome: 'no' })),
  {},
  D(outcome('no')),
);
add(
  'step10-no-match',
  '§8 step 10: no true rule and no fallback is unresolved no-match.',
  P('rules-no-match', pack({ rules: [rule('r1', lit(false), 'yes')] })),
  {},
  D(unresolved(['no-match'])),
);
add(
  'step10-unknown-ignore-allows-fallback',
  '§8 step 10: unknown rules with onUnknown ignore do not prevent the fallback.',
  P(
    'rules-unknown-ignore-fallback',
    pack({ rules: [rule('r1', fact('/missing', 'equals', 1), 'yes')], fallbackOutcome: 'no' }),
  ),
  {},
  D(outcome('no')),
);
add(
  'step7-unknown-escalate-blocks-fallback',
  '§8 step 7: an unknown escalate rule blocks the fallback.',
  P(
    'rules-unknown-escalate-fallback',
    pack({ rules: [rule('r1', fact('/missing', 'equals', 1), 'yes', 'escalate')], fallbackOutcome: 'no' }),
  ),
  {},
  D(unresolved(['unknown'])),
);
add(
  'step10-unknown-ignore-no-fallback-no-match',
  '§8 step 10: an unknown ignore rule and no fallback is no-match (unknown is not recorded for ignore).',
  P('rules-unknown-ignore-nomatch', pack({ rules: [rule('r1', fact('/missing', 'equals', 1), 'yes')] })),
  {},
  D(unresolved(['no-match'])),
);
add(
  'step10-fallback-equal-to-a-false-rule-outcome',
  '§8 step 10: false rules never prevent the fallback, even one naming the same outcome.',
  P(
    'rules-fallback-same',
    pack({ rules: [rule('r1', lit(false), 'no'), rule('r2', lit(false), 'yes')], fallbackOutcome: 'no' }),
  ),
  {},
  D(outcome('no')),
);

// ---- §8.1 handoff ------------------------------------------------------------------------------------------
const tgt = { triggers: ['conflict'], target: target('queue', 'Desk') };
add(
  'handoff-target-subset-triggered-by',
  '§8.1/§8.3: reasons [conflict, unknown]; triggers name only conflict, so triggeredBy is [conflict] while reasons keep both.',
  P(
    'handoff-target-subset',
    pack({ rules: [rule('r0', fact('/missing', 'equals', 1), 'maybe', 'escalate'), ...twoRules], escalation: tgt }),
  ),
  {},
  D(unresolved(['conflict', 'unknown'], requested(['conflict']))),
);
add(
  'handoff-target-not-triggered',
  '§8.1: a no-match with triggers [conflict] makes no request; handoff none, no routes member for a target pack.',
  P('handoff-target-no-trigger', pack({ rules: [rule('r1', lit(false), 'yes')], escalation: tgt })),
  {},
  D(unresolved(['no-match'], NONE)),
);
add(
  'handoff-target-outcome-requests-nothing',
  '§8.1: an outcome result makes no request.',
  P('handoff-target-outcome', pack({ escalation: tgt })),
  {},
  D(outcome('yes', NONE)),
);
const routesEsc = {
  triggers: ['conflict', 'no-match', 'unknown'],
  routes: [
    route(target('queue', 'Zulu'), ['conflict']),
    route(target('human-role', 'Mike')),
    route(target('queue', 'Zulu'), ['unknown', 'conflict']),
    route(target('system', 'Alpha'), ['no-match']),
  ],
};
add(
  'handoff-routes-filter-duplicates-order',
  '§8.1: conflict selects route 1, the unconditional route 2 and route 3 (duplicate target kept), in declaration order; route 4 (no-match) is filtered out.',
  P('handoff-routes', pack({ rules: twoRules, escalation: routesEsc })),
  {},
  D(
    unresolved(
      ['conflict'],
      requested(['conflict'], [target('queue', 'Zulu'), target('human-role', 'Mike'), target('queue', 'Zulu')]),
    ),
  ),
);
add(
  'handoff-routes-no-match',
  '§8.1: no-match selects the unconditional route and the no-match route.',
  P('handoff-routes-nomatch', pack({ rules: [rule('r1', lit(false), 'yes')], escalation: routesEsc })),
  {},
  D(unresolved(['no-match'], requested(['no-match'], [target('human-role', 'Mike'), target('system', 'Alpha')]))),
);
add(
  'handoff-routes-outcome-none',
  '§8.1: an outcome makes no request, so even the unconditional route is not selected: state none, routes [].',
  P('handoff-routes-outcome', pack({ escalation: routesEsc })),
  {},
  D(outcome('yes', NONE_ROUTES)),
);
add(
  'handoff-routes-request-but-all-filtered',
  '§8.1: unknown is a trigger so a request is made, but every route is filtered to conflict: state none, routes [], no triggeredBy.',
  P(
    'handoff-routes-filtered',
    pack({
      rules: [rule('r1', fact('/missing', 'equals', 1), 'yes', 'escalate')],
      escalation: { triggers: ['conflict', 'unknown'], routes: [route(target('queue', 'Conflicts'), ['conflict'])] },
    }),
  ),
  {},
  D(unresolved(['unknown'], NONE_ROUTES)),
);
add(
  'handoff-routes-reason-not-trigger',
  '§8.1: no-match is not among the triggers, so no request is made and the unconditional route is not selected.',
  P(
    'handoff-routes-not-trigger',
    pack({
      rules: [rule('r1', lit(false), 'yes')],
      escalation: { triggers: ['conflict'], routes: [route(target('queue', 'All'))] },
    }),
  ),
  {},
  D(unresolved(['no-match'], NONE_ROUTES)),
);
const eightRoutes = Array.from({ length: 8 }, (_, i) => route(target('queue', `Q${8 - i}`)));
add(
  'handoff-routes-eight-base-maximum',
  '§6.7/§8.1: eight unconditional routes (the base maximum) are all selected in declaration order.',
  P('handoff-routes-8', pack({ rules: twoRules, escalation: { triggers: ['conflict'], routes: eightRoutes } })),
  {},
  D(
    unresolved(
      ['conflict'],
      requested(
        ['conflict'],
        eightRoutes.map((r) => r.target as Record<string, Json>),
      ),
    ),
  ),
);
const sixteen = Array.from({ length: 16 }, (_, i) =>
  route(target(i % 2 === 0 ? 'queue' : 'system', `R${String(i).padStart(2, '0')}`)),
);
add(
  'profile-extended-sixteen-routes',
  '§4.1/§6.7: under profile extended, 16 routes are admitted and all selected in order.',
  P(
    'profile-extended-16',
    pack({ profile: 'extended', rules: twoRules, escalation: { triggers: ['conflict'], routes: sixteen } }),
  ),
  {},
  D(
    unresolved(
      ['conflict'],
      requested(
        ['conflict'],
        sixteen.map((r) => r.target as Record<string, Json>),
      ),
    ),
  ),
);
add(
  'profile-base-nine-routes-refused',
  '§4.1/§6.7: nine routes exceed the base maximum of 8, so the pack is not conformant: pack-not-conformant, preflight (§8.4).',
  P(
    'profile-base-9',
    pack({
      rules: twoRules,
      escalation: {
        triggers: ['conflict'],
        routes: Array.from({ length: 9 }, (_, i) => route(target('queue', `Q${i}`))),
      },
    }),
  ),
  {},
  ERR('pack-not-conformant'),
);
add(
  'profile-explicit-base',
  '§4.1: an explicit profile base evaluates like an absent one.',
  P('profile-base', pack({ profile: 'base' })),
  {},
  D(outcome('yes')),
);
add(
  'profile-unknown-name-refused',
  '§4.1: an unknown profile name is a structural refusal, so evaluation is pack-not-conformant.',
  P('profile-unknown', pack({ profile: 'premium' })),
  {},
  ERR('pack-not-conformant'),
);
add(
  'profile-null-refused',
  '§4.1: a null profile is a structural refusal.',
  P('profile-null', pack({ profile: null })),
  {},
  ERR('pack-not-conformant'),
);

// ---- §7 conditions: all / any / not / literal --------------------------------------------------------------
const T = lit(true),
  F = lit(false),
  U = fact('/missing', 'equals', 1);
probeCase('logic-all-true', '§7.1: all of true, true is true.', all(T, T), {}, 'true');
probeCase(
  'logic-all-false-dominates-unknown',
  '§7.1: all is false if any child is false, even beside unknown.',
  all(U, F),
  {},
  'false',
);
probeCase('logic-all-true-and-unknown', '§7.1: all of true and unknown is unknown.', all(T, U), {}, 'unknown');
probeCase(
  'logic-any-true-dominates-unknown',
  '§7.2: any is true if any child is true, even beside unknown.',
  any(U, T),
  {},
  'true',
);
probeCase('logic-any-false-and-unknown', '§7.2: any of false and unknown is unknown.', any(F, U), {}, 'unknown');
probeCase('logic-any-all-false', '§7.2: any of false, false is false.', any(F, F), {}, 'false');
probeCase('logic-not-true', '§7.3: not true is false.', not(T), {}, 'false');
probeCase('logic-not-false', '§7.3: not false is true.', not(F), {}, 'true');
probeCase('logic-not-unknown', '§7.3: not unknown remains unknown.', not(U), {}, 'unknown');
probeCase(
  'logic-nested',
  '§§7.1–7.3: all(any(unknown, true), not(false)) is true.',
  all(any(U, T), not(F)),
  {},
  'true',
);
probeCase('logic-single-child-all', '§7.1: all with one unknown child is unknown.', all(U), {}, 'unknown');
probeCase('logic-literal-false', '§7: literal returns its Boolean value (false → fallback).', F, {}, 'false');

// ---- §7.4 fact operators -----------------------------------------------------------------------------------
const x = (op: string, v: Json) => fact('/x', op, v);
probeCase('equals-string-true', '§7.4 equals: strings compare by value.', x('equals', 'a'), { x: 'a' }, 'true');
probeCase(
  'equals-string-false',
  '§7.4 equals: different strings are not equal.',
  x('equals', 'a'),
  { x: 'b' },
  'false',
);
probeCase(
  'equals-missing-unknown',
  '§7.4: a path that does not resolve produces unknown.',
  x('equals', 'a'),
  { y: 'a' },
  'unknown',
);
probeCase(
  'equals-no-coercion-string-number',
  '§7.4 equals: no coercion between JSON types; "1" is not 1.',
  x('equals', 1),
  { x: '1' },
  'false',
);
probeCase(
  'equals-no-coercion-bool-string',
  '§7.4 equals: true is not "true".',
  x('equals', true),
  { x: 'true' },
  'false',
);
probeCase('equals-null-null', '§7.4 equals: null equals null.', x('equals', null), { x: null }, 'true');
probeCase(
  'equals-null-is-a-value',
  '§7.4: a present null resolves; null equals "null" is false, not unknown.',
  x('equals', 'null'),
  { x: null },
  'false',
);
probeCase(
  'equals-number-value',
  '§7.4 equals: numbers by mathematical value, 10 equals 10.',
  x('equals', 10),
  { x: 10 },
  'true',
);
probeCase(
  'equals-number-lexeme-1-0',
  '§7.4 equals: 1.0 equals 1 by mathematical value (padded lexeme in the facts file).',
  x('equals', 1),
  raw('{"x":1.0}'),
  'true',
);
probeCase('equals-number-lexeme-exponent', '§7.4 equals: 1e0 equals 1.', x('equals', 1), raw('{"x":1e0}'), 'true');
probeCase(
  'equals-number-lexeme-negative-exponent',
  '§7.4 equals: 1000e-3 equals 1.',
  x('equals', 1),
  raw('{"x":1000E-3}'),
  'true',
);
probeCase(
  'equals-number-zero-signs',
  '§7.4 equals: -0 and 0 have the same mathematical value.',
  x('equals', 0),
  raw('{"x":-0}'),
  'true',
);
probeCase(
  'equals-big-integers-exact',
  '§7.4 equals: no lossy conversion; 9007199254740993 is not 9007199254740992.',
  x('equals', 9007199254740992),
  raw('{"x":9007199254740993}'),
  'false',
);
add(
  'equals-big-integers-exact-true',
  '§7.4 equals: 12345678901234567890123 equals 1.2345678901234567890123e22 exactly.',
  P(
    'equals-big-integers-exact-true',
    raw(JSON.stringify(probe(fact('/x', 'equals', 0))).replace('"value":0', '"value":12345678901234567890123')),
  ),
  raw('{"x":1.2345678901234567890123e22}'),
  D(TRUE),
);
add(
  'equals-decimals-not-float',
  '§7.4 equals: 0.1 + exactness: 0.30000000000000001 is not 0.3 (a float would say equal).',
  P(
    'equals-decimals-not-float',
    raw(JSON.stringify(probe(fact('/x', 'equals', 0))).replace('"value":0', '"value":0.3')),
  ),
  raw('{"x":0.30000000000000001}'),
  D(FALSE),
);
probeCase(
  'equals-decimal-strings-are-strings',
  '§7.4: "1.0" and "1.00" are not equal under equals (string equality).',
  x('equals', '1.0'),
  { x: '1.00' },
  'false',
);
probeCase('equals-array-in-order', '§7.4 equals: arrays compare in order.', x('equals', [1, 2]), { x: [1, 2] }, 'true');
probeCase(
  'equals-array-order-matters',
  '§7.4 equals: [1,2] is not [2,1].',
  x('equals', [1, 2]),
  { x: [2, 1] },
  'false',
);
probeCase(
  'equals-object-member-order-ignored',
  '§7.4 equals: objects compare without regard to member order.',
  x('equals', { a: 1, b: 'two' }),
  raw('{"x":{"b":"two","a":1}}'),
  'true',
);
probeCase(
  'equals-object-nested-number-value',
  "§7.4 equals: recursive comparison uses numbers' mathematical values.",
  x('equals', { a: [1, { b: 2 }] }),
  raw('{"x":{"a":[1.00,{"b":2e0}]}}'),
  'true',
);
probeCase(
  'equals-object-extra-member',
  '§7.4 equals: an extra member makes objects unequal.',
  x('equals', { a: 1 }),
  { x: { a: 1, b: 2 } },
  'false',
);
probeCase(
  'equals-unicode-escape-same-string',
  '§7.4 equals: strings compare by value, so "\\u00e9" equals "é".',
  x('equals', 'é'),
  raw('{"x":"\\u00e9"}'),
  'true',
);
probeCase(
  'not-equals-true',
  '§7.4 not-equals: inverse of equals when determinable.',
  x('not-equals', 'a'),
  { x: 'b' },
  'true',
);
probeCase('not-equals-false', '§7.4 not-equals: equal values give false.', x('not-equals', 'a'), { x: 'a' }, 'false');
probeCase(
  'not-equals-missing-unknown',
  '§7.4 not-equals: an unresolved path is unknown, not true.',
  x('not-equals', 'a'),
  {},
  'unknown',
);
probeCase(
  'not-equals-decimal-strings',
  '§7.4: "1.0" not-equals "1.00" is true.',
  x('not-equals', '1.0'),
  { x: '1.00' },
  'true',
);
probeCase(
  'not-equals-types',
  '§7.4 not-equals: 1 and "1" are different JSON types, so true.',
  x('not-equals', 1),
  { x: '1' },
  'true',
);
probeCase('in-match', '§7.4 in: a matching item produces true.', x('in', ['a', 'b']), { x: 'b' }, 'true');
probeCase('in-no-match', '§7.4 in: no match produces false.', x('in', ['a', 'b']), { x: 'c' }, 'false');
probeCase('in-missing-unknown', '§7.4 in: an unresolved path produces unknown.', x('in', ['a', 'b']), {}, 'unknown');
probeCase(
  'in-type-preserving',
  '§7.4 in: equality is type-preserving; "1" is not in [1, 2].',
  x('in', [1, 2]),
  { x: '1' },
  'false',
);
probeCase(
  'in-number-value',
  '§7.4 in: 2.0 is in [1, 2] by mathematical value.',
  x('in', [1, 2]),
  raw('{"x":2.0}'),
  'true',
);
probeCase(
  'in-composite-items',
  '§7.4 in: items may be objects, compared recursively.',
  x('in', [{ k: 1 }, { k: 2 }]),
  { x: { k: 2 } },
  'true',
);
probeCase('in-null-item', '§7.4 in: null is in [null].', x('in', [null]), { x: null }, 'true');
probeCase(
  'gt-numeric-not-lexicographic',
  '§7.4: "10" > "9" by mathematical value (lexicographic order would say false).',
  x('greater-than', '9'),
  { x: '10' },
  'true',
);
probeCase('gt-false', '§7.4: "9" > "10" is false.', x('greater-than', '10'), { x: '9' }, 'false');
probeCase(
  'gt-equal-is-false',
  '§7.4: "5" > "5.0" is false (equal values).',
  x('greater-than', '5.0'),
  { x: '5' },
  'false',
);
probeCase(
  'gte-equal-different-scale',
  '§7.4: "5.00" >= "5" is true by mathematical value.',
  x('greater-than-or-equal', '5'),
  { x: '5.00' },
  'true',
);
probeCase('gte-less', '§7.4: "4.99" >= "5" is false.', x('greater-than-or-equal', '5'), { x: '4.99' }, 'false');
probeCase('lt-negative', '§7.4: "-0.5" < "-0.25" is true.', x('less-than', '-0.25'), { x: '-0.5' }, 'true');
probeCase('lt-false-equal', '§7.4: "3" < "3" is false.', x('less-than', '3'), { x: '3' }, 'false');
probeCase('lte-boundary', '§7.4: "3.0" <= "3" is true.', x('less-than-or-equal', '3'), { x: '3.0' }, 'true');
probeCase('lte-greater', '§7.4: "3.01" <= "3" is false.', x('less-than-or-equal', '3'), { x: '3.01' }, 'false');
probeCase(
  'ordered-negative-zero',
  '§2.2/§7.4: "-0" matches the grammar and equals "0" mathematically, so "-0" >= "0" is true.',
  x('greater-than-or-equal', '0'),
  { x: '-0' },
  'true',
);
probeCase(
  'ordered-long-decimals-exact',
  '§7.4: long decimal strings are ordered exactly: "0.30000000000000000001" > "0.3".',
  x('greater-than', '0.3'),
  { x: '0.30000000000000000001' },
  'true',
);
probeCase(
  'ordered-huge-integers-exact',
  '§7.4: "123456789012345678901234567890" > "123456789012345678901234567889".',
  x('greater-than', '123456789012345678901234567889'),
  { x: '123456789012345678901234567890' },
  'true',
);
probeCase(
  'ordered-json-number-unknown',
  '§7.4: a JSON number fact is not coerced; the ordered comparison is unknown.',
  x('greater-than', '5'),
  { x: 10 },
  'unknown',
);
probeCase(
  'ordered-exponent-string-unknown',
  '§7.4: "1e3" does not satisfy §2.2, so unknown.',
  x('greater-than', '5'),
  { x: '1e3' },
  'unknown',
);
probeCase(
  'ordered-plus-sign-unknown',
  '§7.4: "+7" does not satisfy §2.2, so unknown.',
  x('greater-than', '5'),
  { x: '+7' },
  'unknown',
);
probeCase(
  'ordered-leading-zero-unknown',
  '§7.4: "07" does not satisfy §2.2, so unknown.',
  x('less-than', '5'),
  { x: '07' },
  'unknown',
);
probeCase(
  'ordered-trailing-dot-unknown',
  '§7.4: "7." does not satisfy §2.2, so unknown.',
  x('greater-than', '5'),
  { x: '7.' },
  'unknown',
);
probeCase(
  'ordered-leading-dot-unknown',
  '§7.4: ".5" does not satisfy §2.2, so unknown.',
  x('less-than', '5'),
  { x: '.5' },
  'unknown',
);
probeCase(
  'ordered-units-unknown',
  '§7.4: a value carrying units ("10 kg") is unknown.',
  x('greater-than', '5'),
  { x: '10 kg' },
  'unknown',
);
probeCase(
  'ordered-boolean-unknown',
  '§7.4: a Boolean in an ordered comparison is unknown.',
  x('less-than', '5'),
  { x: true },
  'unknown',
);
probeCase(
  'ordered-null-unknown',
  '§7.4: null in an ordered comparison is unknown.',
  x('less-than', '5'),
  { x: null },
  'unknown',
);
probeCase(
  'ordered-array-unknown',
  '§7.4: an array in an ordered comparison is unknown.',
  x('less-than', '5'),
  { x: ['1'] },
  'unknown',
);
probeCase(
  'ordered-object-unknown',
  '§7.4: an object in an ordered comparison is unknown.',
  x('less-than', '5'),
  { x: { v: '1' } },
  'unknown',
);
probeCase(
  'ordered-missing-unknown',
  '§7.4: an unresolved path in an ordered comparison is unknown.',
  x('less-than', '5'),
  {},
  'unknown',
);
probeCase(
  'ordered-not-unknown-stays-unknown',
  '§7.3/§7.4: not over an unknown ordered comparison stays unknown (never coerced to false then true).',
  not(x('less-than', '5')),
  { x: 3 },
  'unknown',
);

// ---- §7.4 RFC 6901 pointers ----------------------------------------------------------------------------------
probeCase(
  'pointer-root',
  '§7.4: the empty pointer selects the document root.',
  fact('', 'equals', 'whole'),
  'whole',
  'true',
);
probeCase(
  'pointer-root-object',
  '§7.4: the root may be any JSON value; here an object compared whole.',
  fact('', 'equals', { a: 1 }),
  { a: 1 },
  'true',
);
probeCase(
  'pointer-array-index',
  'RFC 6901: /list/1 selects the second element.',
  fact('/list/1', 'equals', 'b'),
  { list: ['a', 'b'] },
  'true',
);
probeCase(
  'pointer-array-leading-zero-unknown',
  'RFC 6901: "01" is not an array index; unresolved, so unknown (§7.4).',
  fact('/list/01', 'equals', 'b'),
  { list: ['a', 'b'] },
  'unknown',
);
probeCase(
  'pointer-array-dash-unknown',
  'RFC 6901: "-" names the nonexistent element after the last; unresolved, so unknown.',
  fact('/list/-', 'equals', 'b'),
  { list: ['a', 'b'] },
  'unknown',
);
probeCase(
  'pointer-array-out-of-range-unknown',
  '§7.4: an index past the end does not resolve.',
  fact('/list/2', 'equals', 'b'),
  { list: ['a', 'b'] },
  'unknown',
);
probeCase(
  'pointer-array-name-token-unknown',
  '§7.4: an invalid array traversal at runtime (a name on an array) is unknown.',
  fact('/list/first', 'equals', 'a'),
  { list: ['a', 'b'] },
  'unknown',
);
probeCase(
  'pointer-through-scalar-unknown',
  '§7.4: traversing through a string does not resolve.',
  fact('/s/0', 'equals', 'a'),
  { s: 'abc' },
  'unknown',
);
probeCase('pointer-escape-slash', 'RFC 6901: ~1 decodes to "/".', fact('/a~1b', 'equals', 1), { 'a/b': 1 }, 'true');
probeCase('pointer-escape-tilde', 'RFC 6901: ~0 decodes to "~".', fact('/m~0n', 'equals', 1), { 'm~n': 1 }, 'true');
probeCase(
  'pointer-escape-order',
  'RFC 6901: ~01 decodes to "~1", not "/".',
  fact('/~01', 'equals', 1),
  { '~1': 1, '/': 2 },
  'true',
);
probeCase(
  'pointer-empty-token',
  'RFC 6901: "/" selects the member named "" .',
  fact('/', 'equals', 'e'),
  { '': 'e' },
  'true',
);
probeCase(
  'pointer-numeric-member-name',
  'RFC 6901: on an object, "0" is a member name.',
  fact('/o/0', 'equals', 'zero'),
  { o: { '0': 'zero' } },
  'true',
);
probeCase(
  'pointer-empty-tokens-chain',
  'RFC 6901: /a////b walks members named "" three times.',
  fact('/a////b', 'equals', 'v'),
  { a: { '': { '': { '': { b: 'v' } } } } },
  'true',
);

// ---- prototype-named members are data (§7.4, §10) --------------------------------------------------------------
probeCase(
  'proto-fact-name-present',
  'Member "__proto__" is ordinary data: /__proto__ selects it.',
  fact('/__proto__', 'equals', 'p'),
  raw('{"__proto__":"p"}'),
  'true',
);
probeCase(
  'proto-fact-name-absent-unknown',
  'An object without "__proto__" does not resolve /__proto__ (no prototype chain): unknown.',
  fact('/__proto__', 'equals', null),
  {},
  'unknown',
);
probeCase(
  'proto-constructor-absent-unknown',
  '/constructor on {} does not resolve: unknown, never the Object constructor.',
  fact('/constructor', 'not-equals', 'x'),
  {},
  'unknown',
);
probeCase(
  'proto-tostring-absent-unknown',
  '/toString on {} does not resolve: unknown.',
  fact('/toString', 'in', ['x']),
  { a: 1 },
  'unknown',
);
probeCase(
  'proto-constructor-present',
  '"constructor" as a fact name is data.',
  fact('/constructor/name', 'equals', 'Object'),
  raw('{"constructor":{"name":"Object"}}'),
  'true',
);
probeCase(
  'proto-nested-proto-path',
  '/__proto__/polluted resolves only through real members.',
  fact('/__proto__/polluted', 'equals', true),
  raw('{"__proto__":{"polluted":true}}'),
  'true',
);
probeCase(
  'proto-tostring-present',
  '"toString" as a fact name is data when present.',
  fact('/toString', 'equals', 'ts'),
  raw('{"toString":"ts"}'),
  'true',
);
probeCase(
  'proto-pointer-token-in-array-index-position',
  'A pointer token "constructor" on an array is an invalid traversal: unknown.',
  fact('/list/constructor', 'equals', 'x'),
  { list: ['x'] },
  'unknown',
);
probeCase(
  'proto-has-own-property-unknown',
  '/hasOwnProperty does not resolve on {}.',
  fact('/hasOwnProperty', 'equals', 'x'),
  {},
  'unknown',
);
probeCase(
  'proto-equals-object-with-proto-member',
  'Equality treats "__proto__" as an ordinary member name: {"__proto__":1} is not {}.',
  fact('/v', 'equals', {}),
  raw('{"v":{"__proto__":1}}'),
  'false',
);
add(
  'proto-evidence-key-undeclared',
  '§8.2: an evidence member named "__proto__" is an undeclared key: malformed-input in preflight.',
  P('proto-evidence', probe(ev('doc'), { evidenceRequirements: [evReq('doc', false)] })),
  {},
  ERR('malformed-input'),
  { evidence: raw('{"__proto__":"present"}') },
);
add(
  'proto-evidence-constructor-undeclared',
  '§8.2: an evidence member named "constructor" is undeclared: malformed-input.',
  P('proto-evidence', probe(ev('doc'), { evidenceRequirements: [evReq('doc', false)] })),
  {},
  ERR('malformed-input'),
  { evidence: raw('{"constructor":"present"}') },
);
add(
  'proto-evidence-omitted-tostring-id',
  '§8.2: a declared requirement that is not in the evidence object is unknown, whatever Object.prototype holds.',
  P('proto-evidence', probe(ev('doc'), { evidenceRequirements: [evReq('doc', false)] })),
  {},
  D(UNKNOWN),
  { evidence: {} },
);

// ---- §7.5 evidence-present -----------------------------------------------------------------------------------
const evProbe = P('evidence-present', probe(ev('doc'), { evidenceRequirements: [evReq('doc', false)] }));
add('evidence-present-true', '§7.5: present is true.', evProbe, {}, D(TRUE), { evidence: { doc: 'present' } });
add('evidence-present-false', '§7.5: absent is false.', evProbe, {}, D(FALSE), { evidence: { doc: 'absent' } });
add('evidence-present-unknown', '§7.5: unknown is unknown.', evProbe, {}, D(UNKNOWN), { evidence: { doc: 'unknown' } });
add('evidence-present-omitted-key', '§7.5/§8.2: an omitted key is unknown.', evProbe, {}, D(UNKNOWN), { evidence: {} });
add(
  'evidence-present-no-document',
  '§8.2: no evidence document makes every requirement unknown.',
  evProbe,
  {},
  D(UNKNOWN),
);

// ---- §8.2/§8.4 errors and their precedence -----------------------------------------------------------------
const good = P('no-app', pack());
const badPack = P('bad-semantic', pack({ rules: [rule('r1', lit(true), 'undeclared-outcome')] }));
add(
  'error-pack-semantic',
  '§8.4: a rule naming an undeclared outcome (§3.3) is pack-not-conformant, preflight.',
  badPack,
  {},
  ERR('pack-not-conformant'),
);
add(
  'error-pack-structural',
  '§8.4: a pack missing rules (§3.2) is pack-not-conformant.',
  P('bad-structural', pack({ rules: undefined })),
  {},
  ERR('pack-not-conformant'),
);
add(
  'error-pack-carrier-duplicate',
  '§2.1/§8.4: a pack with duplicate member names is pack-not-conformant.',
  P(
    'bad-carrier',
    raw(JSON.stringify(pack()).replace('"title":"Corpus pack"', '"title":"Corpus pack","title":"Again"')),
  ),
  {},
  ERR('pack-not-conformant'),
);
add(
  'error-pack-selector-0-1-0',
  '§11: selector 0.1.0-draft defines no evaluator class; unsupported selector, pack-not-conformant.',
  P('bad-selector-010', pack({ specVersion: '0.1.0-draft' })),
  {},
  ERR('pack-not-conformant'),
);
add(
  'error-pack-selector-0-3-0-draft',
  '§11: the selector is exact; "0.3.0-draft" is not "0.3.0".',
  P('bad-selector-030d', pack({ specVersion: '0.3.0-draft' })),
  {},
  ERR('pack-not-conformant'),
);
add(
  'error-pack-lone-surrogate-0-3-0',
  '§2.1 (0.3.0): a lone surrogate escape in the pack title is malformed, so pack-not-conformant.',
  P(
    'bad-lone-surrogate',
    raw(JSON.stringify(pack()).replace('"title":"Corpus pack"', '"title":"Corpus \\ud800 pack"')),
  ),
  {},
  ERR('pack-not-conformant'),
);
add(
  'error-facts-syntax',
  '§8.2: facts that are not RFC 8259 JSON are malformed-input.',
  good,
  raw('{"x":'),
  ERR('malformed-input'),
);
add('error-facts-empty', '§8.2: an empty facts document is not a JSON text.', good, raw(''), ERR('malformed-input'));
add(
  'error-facts-duplicate',
  '§2.1/§8.2: duplicate member names in facts are malformed-input.',
  good,
  raw('{"x":1,"x":2}'),
  ERR('malformed-input'),
);
add(
  'error-facts-duplicate-after-unescape',
  '§2.1: "x" and "\\u0078" are the same member name after unescaping.',
  good,
  raw('{"x":1,"\\u0078":1}'),
  ERR('malformed-input'),
);
add(
  'error-facts-duplicate-nested',
  '§2.1: uniqueness holds at every depth.',
  good,
  raw('{"a":{"b":1,"b":1}}'),
  ERR('malformed-input'),
);
add(
  'error-facts-lone-surrogate',
  '§2.1: a lone surrogate escape in facts is malformed-input.',
  good,
  raw('{"x":"\\udc00"}'),
  ERR('malformed-input'),
);
add(
  'error-facts-reversed-surrogates',
  '§2.1: a low surrogate followed by a high surrogate is not a pair.',
  good,
  raw('{"x":"\\udc00\\ud800"}'),
  ERR('malformed-input'),
);
add(
  'facts-valid-surrogate-pair',
  '§2.1: a valid surrogate pair escape is admitted.',
  P('probe-smile', probe(fact('/x', 'equals', '😀'))),
  raw('{"x":"\\ud83d\\ude00"}'),
  D(TRUE),
);
add(
  'error-facts-invalid-utf8',
  '§2.1: invalid UTF-8 in facts is malformed-input (never replaced by U+FFFD).',
  good,
  rawBytes('{"x":"\xff"}'),
  ERR('malformed-input'),
);
add(
  'error-facts-utf8-encoded-surrogate',
  '§2.1: a UTF-8-encoded surrogate (ED A0 80) is invalid UTF-8.',
  good,
  rawBytes('{"x":"\xed\xa0\x80"}'),
  ERR('malformed-input'),
);
add(
  'error-facts-trailing-data',
  '§2.1: data after the JSON text is refused, not ignored.',
  good,
  raw('{} {}'),
  ERR('malformed-input'),
);
add('error-facts-nan', 'RFC 8259: NaN is not JSON.', good, raw('{"x":NaN}'), ERR('malformed-input'));
add(
  'error-facts-leading-zero-number',
  'RFC 8259: 01 is not a JSON number.',
  good,
  raw('{"x":01}'),
  ERR('malformed-input'),
);
add(
  'error-evidence-not-object',
  '§8.2: an evidence document that is not an object is malformed-input.',
  good,
  {},
  ERR('malformed-input'),
  { evidence: ['present'] },
);
add(
  'error-evidence-undeclared-key',
  '§8.2: an undeclared evidence key is malformed-input.',
  good,
  {},
  ERR('malformed-input'),
  { evidence: { nope: 'present' } },
);
add(
  'error-evidence-bad-value',
  '§8.2: a value outside present/absent/unknown is malformed-input.',
  evProbe,
  {},
  ERR('malformed-input'),
  { evidence: { doc: 'yes' } },
);
add(
  'error-evidence-bad-value-case',
  '§8.2: values are exact strings; "Present" is not present.',
  evProbe,
  {},
  ERR('malformed-input'),
  { evidence: { doc: 'Present' } },
);
add(
  'error-evidence-null-value',
  '§8.2: a null value is outside the three strings.',
  evProbe,
  {},
  ERR('malformed-input'),
  { evidence: { doc: null } },
);
add(
  'error-evidence-duplicate-key',
  '§2.1/§8.2: duplicate evidence keys are malformed-input.',
  evProbe,
  {},
  ERR('malformed-input'),
  { evidence: raw('{"doc":"present","doc":"absent"}') },
);
add(
  'error-evidence-null-document',
  '§8.2: a null evidence document is not an object (absence is only the omitted document).',
  evProbe,
  {},
  ERR('malformed-input'),
  { evidence: null },
);
const extPack = P(
  'required-ext',
  pack({
    metadata: { requiredExtensions: ['com.example.policy'] },
    extensions: { 'com.example.policy': { level: 2 } },
  }),
);
add(
  'error-unsupported-required-extension',
  '§9/§8.4: a required extension outside the supported set is unsupported-required-extension, preflight.',
  extPack,
  {},
  ERR('unsupported-required-extension'),
);
add(
  'required-extension-supported',
  '§8.2: a supported required extension admits the pack; r1 yields yes.',
  extPack,
  {},
  D(outcome('yes')),
  { supportedExtensions: ['com.example.policy'] },
);
add(
  'required-extension-other-supported-only',
  '§8.2: supporting a different extension does not help.',
  extPack,
  {},
  ERR('unsupported-required-extension'),
  { supportedExtensions: ['com.example.other'] },
);
add(
  'precedence-pack-before-facts',
  '§8.4 precedence: a non-conformant pack with malformed facts reports pack-not-conformant.',
  badPack,
  raw('{'),
  ERR('pack-not-conformant'),
);
add(
  'precedence-facts-before-evidence',
  '§8.2 order: malformed facts and malformed evidence report malformed-input (facts first).',
  good,
  raw('{'),
  ERR('malformed-input'),
  { evidence: { nope: 'present' } },
);
add(
  'precedence-evidence-before-extension',
  '§8.4 precedence: malformed-input precedes unsupported-required-extension.',
  extPack,
  {},
  ERR('malformed-input'),
  { evidence: { nope: 'present' } },
);
add(
  'precedence-extension-before-budget',
  '§8.4 precedence: unsupported-required-extension precedes resource-exhaustion. Budget 1; r1 alone would cost 1 node + 2 compile + 2 resolve + V("a")=4 = 9 units (RFC 0008).',
  P(
    'required-ext-costly',
    pack({
      rules: [rule('r1', fact('/x', 'equals', 'a'), 'yes')],
      metadata: { requiredExtensions: ['com.example.policy'] },
      extensions: { 'com.example.policy': { level: 2 } },
    }),
  ),
  {},
  ERR('unsupported-required-extension'),
  { workBudget: 1 },
);
add(
  'budget-exhaustion-when-extension-supported',
  'Companion of precedence-extension-before-budget: with the extension supported the same budget of 1 is below the 9-unit charge of r1 (facts {} so no selected value): resource-exhaustion, evaluation.',
  P(
    'required-ext-costly',
    pack({
      rules: [rule('r1', fact('/x', 'equals', 'a'), 'yes')],
      metadata: { requiredExtensions: ['com.example.policy'] },
      extensions: { 'com.example.policy': { level: 2 } },
    }),
  ),
  {},
  ERR('resource-exhaustion', 'evaluation'),
  { workBudget: 1, supportedExtensions: ['com.example.policy'] },
);
add(
  'precedence-input-error-beats-not-applicable',
  '§8.2: applicability false with an undeclared evidence key is malformed-input, never not-applicable.',
  P('app', appPack()),
  { kind: 'lease' },
  ERR('malformed-input'),
  { evidence: { undeclared: 'present' } },
);
add(
  'precedence-pack-before-extension',
  '§8.4: a non-conformant pack that also requires an unsupported extension is pack-not-conformant.',
  P('bad-ext-undeclared', pack({ metadata: { requiredExtensions: ['com.example.policy'] } })),
  {},
  ERR('pack-not-conformant'),
);

// ---- hostile optional extensions stay inert (§9, §10) -----------------------------------------------------------
const hostile = {
  'com.evil.override': { rules: [rule('r9', lit(true), 'no')], fallbackOutcome: 'no', op: 'literal', value: false },
  'com.evil.code': 'process.exit(1); require("child_process").execSync("rm -rf /")',
  'com.evil.fetch': { url: 'http://127.0.0.1:1/steal', locator: { kind: 'uri', value: 'file:///etc/passwd' } },
};
add(
  'hostile-extensions-root-inert',
  '§9: optional extensions MUST NOT change Core semantics; a root extension pretending to add rules changes nothing (r1 yes).',
  P('hostile-root', pack({ extensions: hostile })),
  {},
  D(outcome('yes')),
);
add(
  'hostile-extensions-everywhere-inert',
  '§9: extensions on decision, outcomes, rules and exceptions are inert; the exception is false, r1 decides.',
  P(
    'hostile-everywhere',
    pack({
      decision: { intent: 'i', question: 'q', extensions: hostile },
      outcomes: OUTCOMES_WITH_EXT(),
      rules: [rule('r1', fact('/x', 'equals', 1), 'yes', 'escalate', { extensions: hostile })],
      exceptions: [
        {
          ...force('x1', lit(false), 'no'),
          extensions: { 'com.evil.force': { effect: 'force-outcome', outcome: 'no', when: lit(true) } },
        },
      ],
      fallbackOutcome: 'maybe',
    }),
  ),
  { x: 1 },
  D(outcome('yes')),
);
add(
  'hostile-extension-proto-keys-inert',
  '§9: an extension value with "__proto__" and "constructor" members is data and changes nothing.',
  P(
    'hostile-proto',
    raw(
      JSON.stringify(pack()).replace(
        /}$/,
        ',"extensions":{"com.evil.proto":{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}}}',
      ),
    ),
  ),
  {},
  D(outcome('yes')),
);
add(
  'hostile-extension-not-required-evaluates',
  '§9: an extension key absent from requiredExtensions is optional; evaluation needs no support for it.',
  P('hostile-optional', pack({ extensions: { 'com.example.unsupported': { required: true } } })),
  {},
  D(outcome('yes')),
  { supportedExtensions: [] },
);
add(
  'hostile-facts-look-like-conditions',
  '§10: facts are data; a fact value shaped like a condition or code is compared as JSON only.',
  P('probe-x-a', probe(fact('/x', 'equals', 'a'))),
  { x: { op: 'literal', value: true }, code: 'process.exit(1)' },
  D(FALSE),
);

function OUTCOMES_WITH_EXT(): Record<string, Json>[] {
  return [
    { id: 'yes', label: 'Yes', extensions: { 'com.evil.rename': { id: 'no' } } },
    { id: 'no', label: 'No' },
    { id: 'maybe', label: 'Maybe' },
  ];
}

// ---- 0.2.0-draft selector -------------------------------------------------------------------------------------
const legacy = (parts: Record<string, Json | undefined> = {}) => pack({ specVersion: '0.2.0-draft', ...parts });
add(
  'legacy-outcome',
  '0.2.0-draft (§11 dispatch): a true rule yields its outcome under the older contract.',
  P('legacy', legacy()),
  {},
  D(outcome('yes')),
);
add(
  'legacy-target-requested',
  '0.2.0-draft: target-only escalation; a requested handoff has triggeredBy and no routes (same bytes as 0.3.0 target packs, §8.3).',
  P(
    'legacy-target',
    legacy({ rules: twoRules, escalation: { triggers: ['conflict'], target: target('queue', 'Desk') } }),
  ),
  {},
  D(unresolved(['conflict'], requested(['conflict']))),
);
add(
  'legacy-lone-surrogate-title-admitted',
  '§11: the 0.2.0-draft carrier accepted a lone surrogate escape in a title; the pack is admitted under its own selector.',
  P(
    'legacy-lone-surrogate',
    raw(JSON.stringify(legacy()).replace('"title":"Corpus pack"', '"title":"Corpus \\ud800 pack"')),
  ),
  {},
  D(outcome('yes')),
);
add(
  'legacy-routes-refused',
  '§11: routes are a 0.3.0-only shape; a 0.2.0-draft pack declaring them is pack-not-conformant.',
  P('legacy-routes', legacy({ escalation: { triggers: ['conflict'], routes: [route(target('queue', 'Desk'))] } })),
  {},
  ERR('pack-not-conformant'),
);
add(
  'legacy-profile-refused',
  '§11: profile is a 0.3.0-only member; a 0.2.0-draft pack declaring it is pack-not-conformant.',
  P('legacy-profile', legacy({ profile: 'base' })),
  {},
  ERR('pack-not-conformant'),
);
add(
  'legacy-evidence-missing',
  '0.2.0-draft: step 2 tri-state applies the same way (the evaluator class landed in 0.2.0-draft, RFC 0006).',
  P(
    'legacy-ev',
    legacy({
      evidenceRequirements: [evReq('form', true)],
      escalation: { triggers: ['missing-required-evidence'], target: target('human-role', 'Clerk') },
    }),
  ),
  {},
  D(unresolved(['missing-required-evidence'], requested(['missing-required-evidence']))),
  { evidence: { form: 'absent' } },
);
add(
  'legacy-no-match',
  '0.2.0-draft: no true rule and no fallback is no-match.',
  P('legacy-nomatch', legacy({ rules: [rule('r1', lit(false), 'yes')] })),
  {},
  D(unresolved(['no-match'])),
);

/** Every evaluation case, in manifest order. */
export function evaluationCases(root: string): EvalCaseDef[] {
  return [...cases, ...triageCases(root), ...budgetCases()];
}
