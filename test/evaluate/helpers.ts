import { readJson, toPlain } from '../../core/carrier/index.js';
import type { JsonObject } from '../../core/carrier/json-value.js';
import { compilePack } from '../../core/evaluate/compile.js';
import type { CompiledPack } from '../../core/evaluate/compiled-pack.js';
import { evaluateCompiled } from '../../core/evaluate/evaluate.js';
import type { EvaluationResult } from '../../core/evaluate/types.js';
import type { ValidatedPack } from '../../core/pack/index.js';

const enc = new TextEncoder();
export const bytes = (x: unknown): Uint8Array => enc.encode(typeof x === 'string' ? x : JSON.stringify(x));

/**
 * Builds a ValidatedPack straight from the carrier, without the pack validator, so the evaluator's own behaviour is
 * tested in isolation. Every pack built here is written to be semantically conforming.
 */
export function validated(pack: Record<string, unknown>): ValidatedPack {
  const b = bytes(pack);
  const r = readJson(b, { allowLoneSurrogates: pack.specVersion === '0.2.0-draft' });
  if (!r.ok) throw new Error(`test pack is not carrier-conforming: ${r.error.message}`);
  const document = r.value as JsonObject;
  return {
    specVersion: pack.specVersion as '0.3.0' | '0.2.0-draft',
    profile: pack.profile === 'extended' ? 'extended' : 'base',
    document,
    plain: toPlain(document),
    bytes: b,
  };
}

export const compile = (pack: Record<string, unknown>): CompiledPack => compilePack(validated(pack));

/** A small semantically conforming 0.3.0 pack; override any member. */
export function pack(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    specVersion: '0.3.0',
    id: 'https://packs.example.org/test',
    version: '1.0.0',
    title: 'Test pack',
    decision: { intent: 'Test the evaluator.', question: 'Which outcome?' },
    outcomes: [
      { id: 'yes', label: 'Yes' },
      { id: 'no', label: 'No' },
      { id: 'maybe', label: 'Maybe' },
    ],
    rules: [rule('r-yes', { op: 'literal', value: true }, 'yes')],
    ...over,
  };
}

export const rule = (id: string, when: unknown, outcome: string, onUnknown: 'ignore' | 'escalate' = 'ignore') => ({
  id,
  description: `Rule ${id}.`,
  when,
  outcome,
  onUnknown,
});

export const exception = (
  id: string,
  when: unknown,
  effect: Record<string, unknown>,
  onUnknown: 'ignore' | 'escalate' = 'ignore',
) => ({ id, description: `Exception ${id}.`, when, onUnknown, ...effect });

export const fact = (path: string, operator: string, value: unknown) => ({ op: 'fact', path, operator, value });
export const lit = (value: boolean) => ({ op: 'literal', value });
export const all = (...conditions: unknown[]) => ({ op: 'all', conditions });
export const any = (...conditions: unknown[]) => ({ op: 'any', conditions });
export const not = (condition: unknown) => ({ op: 'not', condition });
export const ev = (evidenceRequirement: string) => ({ op: 'evidence-present', evidenceRequirement });

export interface RunOptions {
  evidence?: unknown;
  extensions?: string[];
  workBudget?: number;
  trace?: boolean;
}

export function run(c: CompiledPack, facts: unknown, o: RunOptions = {}): EvaluationResult {
  return evaluateCompiled(c, {
    facts: bytes(facts),
    ...(o.evidence === undefined ? {} : { evidence: bytes(o.evidence) }),
    supportedExtensions: new Set(o.extensions ?? []),
    ...(o.workBudget === undefined ? {} : { workBudget: o.workBudget }),
    ...(o.trace === undefined ? {} : { trace: o.trace }),
  });
}

/** The canonical disposition bytes, or a readable error marker the assertion will show. */
export function outcome(r: EvaluationResult): string {
  return r.kind === 'disposition' ? r.bytes : `error:${r.error.class}/${r.error.phase}/${r.error.code}`;
}

/** Evaluates a one-rule pack whose rule is `when` (onUnknown ignore, no fallback): returns 'true'|'false'|'unknown'. */
export function truthOf(
  when: unknown,
  facts: unknown,
  evidence?: unknown,
  extra: Record<string, unknown> = {},
): string {
  const c = compile(
    pack({
      rules: [rule('probe', when, 'yes', 'escalate')],
      ...extra,
    }),
  );
  const r = run(c, facts, evidence === undefined ? {} : { evidence });
  if (r.kind !== 'disposition') throw new Error(`unexpected error ${r.error.code}`);
  const d = r.disposition;
  if (d.kind === 'outcome') return 'true';
  if (d.reasons.includes('unknown')) return 'unknown';
  if (d.reasons.includes('no-match')) return 'false';
  throw new Error(`unexpected disposition ${r.bytes}`);
}
