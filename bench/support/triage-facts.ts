/**
 * Seeded facts and evidence documents for RFC 0006's triage pack (examples/data-request-intake-triage.json): every
 * member sometimes absent, so every §8 path (and unknown) is exercised. One generator for the evaluate and batch
 * benches, so the whole-process batch rate and the in-process rate are measured on the same documents.
 */
import { readFileSync } from 'node:fs';
import { compilePack, type CompiledPack, type EvaluationInput } from '../../core/evaluate/index.js';
import { validatePack } from '../../core/pack/index.js';
import { prng } from './seeded-prng.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The pack's bytes, read from the built bench (dist/bench/support/) as every bench runs. */
export const triagePackBytes = (): Uint8Array =>
  new Uint8Array(readFileSync(new URL('../../../examples/data-request-intake-triage.json', import.meta.url)));

/** The triage pack, validated and compiled once, as the evaluator's preflight compiles it. */
export function compiledTriagePack(bytes = triagePackBytes()): CompiledPack {
  const validation = validatePack(bytes);
  if (!validation.conformant || validation.pack === undefined) throw new Error('the triage pack must be conformant');
  return compilePack(validation.pack);
}

/**
 * `n` seeded evaluation inputs (document i with TRIAGE_EVIDENCE[i % 6]) and the same documents as `docket evaluate
 * --batch` lines, {"facts": …, "evidence": …}.
 */
export function triageInputs(n: number, seed: number): { inputs: EvaluationInput[]; lines: string[] } {
  const r = prng(seed);
  const inputs = Array.from({ length: n }, (_, i) => ({
    facts: triageFacts(r),
    evidence: TRIAGE_EVIDENCE[i % TRIAGE_EVIDENCE.length]!,
    supportedExtensions: new Set<string>(),
  }));
  const lines = inputs.map((x) => `{"facts":${dec.decode(x.facts)},"evidence":${dec.decode(x.evidence)}}`);
  return { inputs, lines };
}

/** One facts document; `r` is a seeded PRNG (support/seeded-prng.ts). */
export function triageFacts(r: () => number): Uint8Array {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const maybe = <T>(xs: readonly T[]): T | undefined => (r() < 0.15 ? undefined : pick(xs));
  return enc.encode(
    JSON.stringify({
      request: {
        id: `req-${Math.floor(r() * 1e9)}`,
        type: pick(['data-access', 'data-access', 'data-access', 'data-access', 'media-inquiry']),
        completeness: maybe(['complete', 'complete', 'incomplete', 'partial']),
        appropriateness: maybe(['pass', 'pass', 'fail', 'borderline']),
        embargoedInformationToUnauthorizedRecipients: maybe([false, false, false, true]),
        recordCount: maybe(['12', '99999.99', '100000', '2500000', '731.5']),
        specialCategory: maybe(['none', 'none', 'health', 'genetic']),
        purpose: maybe(['research', 'teaching', 'commercial-resale']),
        dataClassification: maybe(['open', 'restricted', 'confidential']),
        legalHold: maybe([false, false, false, true]),
        programme: maybe([{ preApproved: true, name: 'cohort' }, { preApproved: false }, {}]),
        requester: {
          name: `Researcher ${Math.floor(r() * 1000)}`,
          unit: pick(['epidemiology', 'economics', 'physics']),
        },
      },
    }),
  );
}

/** The six evidence documents the benches cycle through (document i uses TRIAGE_EVIDENCE[i % 6]). */
export const TRIAGE_EVIDENCE: readonly Uint8Array[] = [
  '{"intake-form":"present","sponsor-endorsement":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"present","data-management-plan":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"absent"}',
  '{"intake-form":"present"}',
  '{"intake-form":"present","sponsor-endorsement":"present","data-management-plan":"absent"}',
].map((s) => enc.encode(s));
