import { pack, rule, type Json } from '../../conformance/generator/builders.js';
import { evaluateDocuments, type EvaluationResult } from '../../core/evaluate/index.js';

const enc = new TextEncoder();
export const Q = ['rfc0008-quantifiers'] as const;

/** A pack whose one rule is `when` → outcome "yes", fallback "no": its charge is exactly the condition's. */
export function packWith(
  when: unknown,
  more: Record<string, unknown> = {},
  onUnknown: 'ignore' | 'escalate' = 'ignore',
): Record<string, unknown> {
  return pack({
    rules: [rule('r1', when as { [k: string]: Json }, 'yes', onUnknown)],
    fallbackOutcome: 'no',
    ...(more as object),
  });
}

export function run(
  pack: unknown,
  facts: unknown,
  options: { budget?: number; quantifiers?: boolean; evidence?: unknown; factsText?: string } = {},
): EvaluationResult {
  return evaluateDocuments({
    pack: enc.encode(JSON.stringify(pack)),
    facts: enc.encode(options.factsText ?? JSON.stringify(facts)),
    ...(options.evidence !== undefined ? { evidence: enc.encode(JSON.stringify(options.evidence)) } : {}),
    supportedExtensions: new Set(),
    ...(options.budget !== undefined ? { workBudget: options.budget } : {}),
    ...(options.quantifiers === false ? {} : { draftFeatures: Q }),
  });
}

/** The condition's value read through the pack: yes = true, no = false/unknown; unknown is told apart by escalate. */
export function valueOf(when: unknown, facts: unknown, evidence?: unknown): 'true' | 'false' | 'unknown' {
  const p = packWith(
    when,
    {
      escalation: { triggers: ['unknown'], target: { kind: 'queue', name: 'Q' } },
      evidenceRequirements: [{ id: 'e1', description: 'Evidence e1.', required: false }],
    },
    'escalate',
  );
  const r = run(p, facts, evidence === undefined ? {} : { evidence });
  if (r.kind !== 'disposition') throw new Error(`error ${r.error.code}: ${r.error.message}`);
  const d = r.disposition;
  if (d.kind === 'outcome') return d.outcomeId === 'yes' ? 'true' : 'false';
  if (d.reasons.includes('unknown')) return 'unknown';
  throw new Error(`unexpected ${r.bytes}`);
}
