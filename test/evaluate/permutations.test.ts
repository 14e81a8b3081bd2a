import { describe, expect, it } from 'vitest';
import { compilePack } from '../../core/evaluate/compile.js';
import { evaluateCompiled } from '../../core/evaluate/evaluate.js';
import { json } from './fixtures.js';
import { bytes, validated } from './helpers.js';
import { pick, prng, shuffle } from '../../bench/support/seeded-prng.js';

/** §4 / §8: collection order never determines priority, so permuting rules, exceptions, evidence requirements or the
 * children of all/any changes no disposition byte and no work unit. */

const base = json('examples/data-request-intake-triage.json');

function permuteConditions(rand: () => number, c: unknown): unknown {
  if (typeof c !== 'object' || c === null) return c;
  const o = c as Record<string, unknown>;
  if (o.op === 'all' || o.op === 'any')
    return {
      ...o,
      conditions: shuffle(
        rand,
        (o.conditions as unknown[]).map((x) => permuteConditions(rand, x)),
      ),
    };
  if (o.op === 'not') return { ...o, condition: permuteConditions(rand, o.condition) };
  return o;
}

function permuted(seed: number): Record<string, unknown> {
  const rand = prng(seed);
  const withWhen = (x: Record<string, unknown>) => ({ ...x, when: permuteConditions(rand, x.when) });
  return {
    ...base,
    rules: shuffle(rand, base.rules as Record<string, unknown>[]).map(withWhen),
    exceptions: shuffle(rand, base.exceptions as Record<string, unknown>[]).map(withWhen),
    evidenceRequirements: shuffle(rand, base.evidenceRequirements as unknown[]),
    outcomes: shuffle(rand, base.outcomes as unknown[]),
  };
}

function facts(rand: () => number): unknown {
  const maybe = <T>(xs: T[]) => (rand() < 0.2 ? undefined : pick(rand, xs));
  return {
    request: {
      type: pick(rand, ['data-access', 'data-access', 'data-access', 'media-inquiry']),
      completeness: maybe(['complete', 'incomplete', 'partial']),
      appropriateness: maybe(['pass', 'fail', 'borderline']),
      embargoedInformationToUnauthorizedRecipients: maybe([false, false, false, true]),
      recordCount: maybe(['10', '99999', '100000', '250000.5', 100000]),
      specialCategory: maybe(['none', 'health', 'genetic']),
      purpose: maybe(['research', 'commercial-resale']),
      dataClassification: maybe(['open', 'restricted']),
      legalHold: maybe([false, false, true]),
      programme: maybe([{ preApproved: true }, { preApproved: false }, {}]),
    },
  };
}

function evidence(rand: () => number): unknown {
  const e: Record<string, string> = {};
  for (const id of ['intake-form', 'sponsor-endorsement', 'data-management-plan']) {
    const s = pick(rand, ['present', 'present', 'present', 'absent', 'unknown', 'omit']);
    if (s !== 'omit') e[id] = s;
  }
  return e;
}

describe('rule-order permutations', () => {
  const original = compilePack(validated(base));
  const variants = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => compilePack(validated(permuted(seed))));
  it('never change a disposition or a work figure over 300 varied inputs', () => {
    const rand = prng(42);
    const kinds = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const input = {
        facts: bytes(facts(rand)),
        evidence: bytes(evidence(rand)),
        supportedExtensions: new Set<string>(),
      };
      const want = evaluateCompiled(original, input);
      kinds.add(
        want.kind === 'disposition'
          ? `${want.disposition.kind}:${want.disposition.reasons.join('+')}`
          : want.error.code,
      );
      for (const v of variants) {
        const got = evaluateCompiled(v, input);
        expect(got.kind === 'disposition' ? got.bytes : got.kind).toBe(
          want.kind === 'disposition' ? want.bytes : want.kind,
        );
        expect(got.work).toBe(want.work);
      }
    }
    // The generated inputs must reach many different results, or the comparison proves little.
    expect(kinds.size).toBeGreaterThanOrEqual(8);
  });
  it('never change where a tight budget refuses', () => {
    const rand = prng(7);
    for (let i = 0; i < 100; i++) {
      const input = {
        facts: bytes(facts(rand)),
        evidence: bytes(evidence(rand)),
        supportedExtensions: new Set<string>(),
      };
      const full = evaluateCompiled(original, input).work;
      for (const budget of [Math.max(1, full - 1), full]) {
        const want = evaluateCompiled(original, { ...input, workBudget: budget });
        for (const v of variants) {
          const got = evaluateCompiled(v, { ...input, workBudget: budget });
          expect(`${got.kind}:${got.work}`).toBe(`${want.kind}:${want.work}`);
        }
      }
    }
  });
});
