/**
 * The demo batch `docket local start` submits: every disposition kind (outcome, not-applicable, unresolved), the
 * three evaluation-error preflight/evaluation shapes, an admission refusal, and every handoff shape (target,
 * routes with filters, duplicate targets, an all-filtered request, a destinationless direct escalation) — built from
 * the example packs and documents in examples/ (owner: corpus).
 */
export interface DemoRequest {
  readonly name: string;
  readonly pack: string;
  readonly facts: string;
  readonly evidence?: string;
  readonly workBudget?: number;
  /** What it shows. */
  readonly shows: string;
}

export const DEMO_PACKS = [
  'data-request-intake-triage.json',
  'vendor-onboarding-target.json',
  'routes-all-filtered.json',
  'direct-exception-no-escalation.json',
  'extended-profile-fanout.json',
  'requires-extension.json',
  'legacy-expense-approval-0.2.0-draft.json',
] as const;

export const DEMO_REQUESTS: readonly DemoRequest[] = [
  {
    name: 'triage-proceed',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-complete-appropriate.facts.json',
    evidence: 'triage-all-present.evidence.json',
    shows: 'outcome, no handoff',
  },
  {
    name: 'triage-not-applicable',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-instance-1-not-applicable.facts.json',
    shows: 'not-applicable',
  },
  {
    name: 'triage-7a',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-complete-appropriate.facts.json',
    evidence: 'triage-instance-7a.evidence.json',
    shows: 'unresolved, routes with filters',
  },
  {
    name: 'triage-7b',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-complete-appropriate.facts.json',
    evidence: 'triage-instance-7b.evidence.json',
    shows: 'unresolved, duplicate targets kept',
  },
  {
    name: 'triage-conflict',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-instance-9-conflict.facts.json',
    evidence: 'triage-all-present.evidence.json',
    shows: 'unresolved conflict, routed',
  },
  {
    name: 'triage-legal-hold',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-legal-hold.facts.json',
    evidence: 'triage-all-present.evidence.json',
    shows: 'direct escalation through route filters',
  },
  {
    name: 'vendor-onboard',
    pack: 'vendor-onboarding-target.json',
    facts: 'vendor-low-risk.facts.json',
    evidence: 'vendor-certificate.evidence.json',
    shows: 'outcome (target-only pack)',
  },
  {
    name: 'vendor-no-match',
    pack: 'vendor-onboarding-target.json',
    facts: 'vendor-no-match.facts.json',
    evidence: 'vendor-certificate.evidence.json',
    shows: 'target handoff',
  },
  {
    name: 'leave-all-filtered',
    pack: 'routes-all-filtered.json',
    facts: 'leave-long.facts.json',
    shows: 'unresolved, every route filtered: no handoff',
  },
  {
    name: 'refund-direct',
    pack: 'direct-exception-no-escalation.json',
    facts: 'refund-fraud-flag.facts.json',
    shows: 'destinationless direct escalation → unrouted',
  },
  {
    name: 'incident-fanout',
    pack: 'extended-profile-fanout.json',
    facts: 'incident-unknown-severity.facts.json',
    shows: 'ten routes (extended profile)',
  },
  {
    name: 'expense-legacy',
    pack: 'legacy-expense-approval-0.2.0-draft.json',
    facts: 'expense-travel.facts.json',
    evidence: 'expense-receipt.evidence.json',
    shows: '0.2.0-draft pack outcome',
  },
  {
    name: 'trial-extension',
    pack: 'requires-extension.json',
    facts: 'volunteer-adult.facts.json',
    shows: 'evaluation error: unsupported-required-extension (preflight)',
  },
  {
    name: 'triage-over-budget',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-complete-appropriate.facts.json',
    workBudget: 5,
    shows: 'evaluation error: resource-exhaustion (evaluation)',
  },
  {
    name: 'triage-bad-evidence',
    pack: 'data-request-intake-triage.json',
    facts: 'triage-complete-appropriate.facts.json',
    evidence: 'vendor-certificate.evidence.json',
    shows: 'evaluation error: malformed-input (undeclared evidence key)',
  },
];

/**
 * The graph request `docket local start --graphs` runs through the pipeline: the vendor-onboarding project
 * (examples/graphs/vendor-onboarding/README.md), published with its closed set, and the case whose beneficial
 * owner's screening report is missing — a handoff to the "Sanctions Compliance Officer" from inside the owner's
 * subgraph instance and one to "Vendor Risk" from the root, both on their route queues.
 */
export const DEMO_GRAPH = {
  project: 'examples/graphs/vendor-onboarding',
  config: 'jpack.json',
  graph: 'graphs/vendor-onboarding.graph.json',
  inputs: 'inputs/owner-report-missing.json',
  name: 'vendor-onboarding-owner-report-missing',
} as const;
