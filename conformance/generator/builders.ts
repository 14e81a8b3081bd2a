/**
 * Small builders for corpus documents and expected results. Everything here is plain data; the expected results a
 * case states are written by hand from the spec text in the case files, never computed by our evaluator.
 */

/** Exact input bytes written as their own file (malformed JSON, duplicates, surrogates, padded lexemes…). */
export class Raw {
  readonly bytes: Uint8Array;
  constructor(content: string | Uint8Array) {
    this.bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  }
}
export const raw = (content: string | Uint8Array): Raw => new Raw(content);
/** Bytes from a latin-1 style escape string, for invalid UTF-8 (each char code is one byte). */
export const rawBytes = (s: string): Raw => new Raw(Uint8Array.from([...s].map((c) => c.charCodeAt(0))));

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Cond = { [k: string]: Json };

// Conditions (Core §7 shapes).
export const lit = (value: boolean): Cond => ({ op: 'literal', value });
export const all = (...conditions: Cond[]): Cond => ({ op: 'all', conditions });
export const any = (...conditions: Cond[]): Cond => ({ op: 'any', conditions });
export const not = (condition: Cond): Cond => ({ op: 'not', condition });
export const fact = (path: string, operator: string, value: Json): Cond => ({ op: 'fact', path, operator, value });
export const ev = (evidenceRequirement: string): Cond => ({ op: 'evidence-present', evidenceRequirement });

export const rule = (
  id: string,
  when: Cond,
  outcome: string,
  onUnknown: 'ignore' | 'escalate' = 'ignore',
  extra: Record<string, Json> = {},
): Cond => ({
  id,
  description: `Rule ${id}.`,
  when,
  outcome,
  onUnknown,
  ...extra,
});

export const suppress = (
  id: string,
  when: Cond,
  targetRule: string,
  onUnknown: 'ignore' | 'escalate' = 'ignore',
): Cond => ({
  id,
  description: `Exception ${id}.`,
  when,
  effect: 'suppress-rule',
  targetRule,
  onUnknown,
});
export const force = (id: string, when: Cond, outcome: string, onUnknown: 'ignore' | 'escalate' = 'ignore'): Cond => ({
  id,
  description: `Exception ${id}.`,
  when,
  effect: 'force-outcome',
  outcome,
  onUnknown,
});
export const escalateEx = (id: string, when: Cond, onUnknown: 'ignore' | 'escalate' = 'ignore'): Cond => ({
  id,
  description: `Exception ${id}.`,
  when,
  effect: 'escalate',
  onUnknown,
});
export const evReq = (id: string, required: boolean): Cond => ({ id, description: `Evidence ${id}.`, required });

export const target = (kind: 'human-role' | 'queue' | 'system', name: string): Cond => ({ kind, name });
export const route = (t: Cond, triggers?: string[]): Cond =>
  triggers === undefined ? { target: t } : { target: t, triggers };

export interface PackParts {
  specVersion?: Json;
  profile?: Json;
  id?: string;
  applicability?: Cond;
  evidenceRequirements?: Cond[];
  outcomes?: Cond[];
  rules?: Cond[];
  exceptions?: Cond[];
  fallbackOutcome?: string;
  escalation?: Cond;
  metadata?: Cond;
  extensions?: Cond;
  [member: string]: Json | undefined;
}

export const OUTCOMES = [
  { id: 'yes', label: 'Yes' },
  { id: 'no', label: 'No' },
  { id: 'maybe', label: 'Maybe' },
];

/** A pack with the required members filled in; `parts` replace or add members, and `undefined` removes one. */
export function pack(parts: PackParts = {}): Record<string, Json> {
  const base: Record<string, Json | undefined> = {
    specVersion: '0.3.0',
    id: 'urn:docket:corpus:pack',
    version: '1.0.0',
    title: 'Corpus pack',
    decision: { intent: 'Exercise one rule of Core.', question: 'What does Core say here?' },
    outcomes: OUTCOMES,
    rules: [rule('r1', lit(true), 'yes')],
  };
  const order = [
    'specVersion',
    'profile',
    'id',
    'version',
    'title',
    'description',
    'decision',
    'applicability',
    'evidenceRequirements',
    'sources',
    'outcomes',
    'rules',
    'exceptions',
    'fallbackOutcome',
    'escalation',
    'metadata',
    'extensions',
  ];
  const merged: Record<string, Json | undefined> = { ...base };
  for (const [k, v] of Object.entries(parts)) merged[k] = v;
  const out: Record<string, Json> = {};
  for (const k of order) if (merged[k] !== undefined) out[k] = merged[k] as Json;
  for (const [k, v] of Object.entries(merged)) if (!order.includes(k) && v !== undefined) out[k] = v;
  return out;
}

/**
 * The probe pack: one rule r1 with condition `c`, outcome yes, onUnknown escalate, and fallback no. Its disposition
 * reads the condition's value directly (§8 steps 7–10): true → outcome yes; false → outcome no (fallback);
 * unknown → unresolved [unknown] (an escalate-on-unknown rule blocks the fallback).
 */
export const probe = (c: Cond, parts: PackParts = {}): Record<string, Json> =>
  pack({ rules: [rule('r1', c, 'yes', 'escalate')], fallbackOutcome: 'no', ...parts });

// Expected dispositions (§8.3). Sets are written sorted by code point, as §8.3 serializes them.
export type Handoff = { state: 'none' | 'requested'; triggeredBy?: string[]; routes?: Cond[] };
export const NONE: Handoff = { state: 'none' };
export const NONE_ROUTES: Handoff = { state: 'none', routes: [] };
export const requested = (triggeredBy: string[], routes?: Cond[]): Handoff =>
  routes === undefined
    ? { state: 'requested', triggeredBy: [...triggeredBy].sort() }
    : { state: 'requested', triggeredBy: [...triggeredBy].sort(), routes };

export const outcome = (outcomeId: string, handoff: Handoff = NONE): Record<string, Json> => ({
  kind: 'outcome',
  outcomeId,
  reasons: [],
  handoff: handoff as unknown as Json,
});
export const unresolved = (reasons: string[], handoff: Handoff = NONE): Record<string, Json> => ({
  kind: 'unresolved',
  reasons: [...reasons].sort(),
  handoff: handoff as unknown as Json,
});
export const notApplicable = (handoff: Handoff = NONE): Record<string, Json> => ({
  kind: 'not-applicable',
  reasons: ['not-applicable'],
  handoff: handoff as unknown as Json,
});

/** Probe results. */
export const TRUE = outcome('yes');
export const FALSE = outcome('no');
export const UNKNOWN = unresolved(['unknown']);
