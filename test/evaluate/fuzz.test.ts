import { describe, expect, it } from 'vitest';
import { canonicalDisposition } from '../../core/evaluate/disposition.js';
import { compilePack } from '../../core/evaluate/compile.js';
import { evaluateDocuments } from '../../core/evaluate/documents.js';
import { evaluateCompiled } from '../../core/evaluate/evaluate.js';
import { DEFAULT_WORK_BUDGET } from '../../core/evaluate/limits.js';
import type { EvaluationResult } from '../../core/evaluate/types.js';
import { validatePack } from '../../core/pack/index.js';
import { file } from './fixtures.js';
import { pick, prng } from '../../bench/support/seeded-prng.js';

/**
 * Seeded fuzzing (bad input gets a typed error, docs/engineering-brief.md): byte-level and structure-level
 * mutations of packs, facts and evidence. Every input must yield exactly one disposition or exactly one typed
 * error — never a throw, never both — with its work within the budget. The PRNG is seeded, so every run checks
 * the same inputs.
 */

/** Each seed pack with facts and evidence written for it, so unmutated parts reach §8 rather than preflight. */
const r = (n: string) => file(`examples/requests/${n}.json`);
const SEEDS: { pack: Uint8Array; facts: Uint8Array[]; evidence: Uint8Array[] }[] = [
  {
    pack: file('examples/data-request-intake-triage.json'),
    facts: [
      'triage-complete-appropriate',
      'triage-instance-1-not-applicable',
      'triage-instance-8-embargo',
      'triage-instance-9-conflict',
      'triage-legal-hold',
    ].map((n) => r(`${n}.facts`)),
    evidence: ['triage-all-present', 'triage-instance-7a', 'triage-instance-7b'].map((n) => r(`${n}.evidence`)),
  },
  {
    pack: file('examples/vendor-onboarding-target.json'),
    facts: [r('vendor-low-risk.facts'), r('vendor-no-match.facts')],
    evidence: [r('vendor-certificate.evidence')],
  },
  {
    pack: file('examples/routes-all-filtered.json'),
    facts: [r('leave-long.facts')],
    evidence: [new TextEncoder().encode('{}')],
  },
  {
    pack: file('examples/direct-exception-no-escalation.json'),
    facts: [r('refund-fraud-flag.facts')],
    evidence: [new TextEncoder().encode('{}')],
  },
  {
    pack: file('examples/extended-profile-fanout.json'),
    facts: [r('incident-unknown-severity.facts')],
    evidence: [new TextEncoder().encode('{}')],
  },
  {
    pack: file('examples/requires-extension.json'),
    facts: [r('volunteer-adult.facts')],
    evidence: [new TextEncoder().encode('{}')],
  },
  {
    pack: file('examples/legacy-expense-approval-0.2.0-draft.json'),
    facts: [r('expense-travel.facts')],
    evidence: [r('expense-receipt.evidence')],
  },
];

const enc = new TextEncoder();
const dec = new TextDecoder();
const INTERESTING = [...'{}[]",:\\ 0123456789-.eE+tfn/~u']
  .map((c) => c.charCodeAt(0))
  .concat([0x00, 0x7f, 0x80, 0xc0, 0xed, 0xf4, 0xff]);
const HOSTILE_STRINGS = [
  '__proto__',
  'constructor',
  'toString',
  '',
  '\ud800',
  '\udc00x',
  'present',
  'absent',
  'unknown',
  '-',
  '0',
  '/',
  '~',
  '~2',
  '1e999999999',
  '9007199254740993',
  '-0.0',
  'data-access',
  'complete',
  'pass',
  'intake-form',
  'é😀',
];
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'op',
  'when',
  'rules',
  'value',
  'path',
  'operator',
  'routes',
  'triggers',
  'effect',
  'intake-form',
  'request',
  'x',
];

function mutateBytes(rand: () => number, b: Uint8Array): Uint8Array {
  const out = Array.from(b);
  const edits = 1 + Math.floor(rand() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * (out.length + 1));
    switch (Math.floor(rand() * 6)) {
      case 0:
        out[at] = pick(rand, INTERESTING);
        break;
      case 1:
        out.splice(at, 1);
        break;
      case 2:
        out.splice(at, 0, pick(rand, INTERESTING));
        break;
      case 3:
        out.splice(at, 0, ...out.slice(at, at + Math.floor(rand() * 16)));
        break;
      case 4:
        out.length = Math.min(out.length, at);
        break;
      default:
        out[at] = Math.floor(rand() * 256);
    }
  }
  return new Uint8Array(out);
}

function randomValue(rand: () => number, depth: number): unknown {
  switch (Math.floor(rand() * (depth > 3 ? 6 : 9))) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return pick(rand, [0, 1, -1, 1.5, 1e21, 100000, 9007199254740993]);
    case 3:
    case 4:
      return pick(rand, HOSTILE_STRINGS);
    case 5:
      return pick(rand, ['1.0', '100000', '-3', '12.50', 'abc']);
    case 6:
      return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
    case 7:
      return Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 4) }, () => [pick(rand, HOSTILE_KEYS), randomValue(rand, depth + 1)]),
      );
    default:
      return {
        op: pick(rand, ['literal', 'all', 'any', 'not', 'fact', 'evidence-present', 'exists']),
        value: randomValue(rand, depth + 1),
      };
  }
}

/** Walks to a random node of a JSON tree and replaces, deletes, duplicates or re-keys something there. */
function mutateTree(rand: () => number, doc: unknown): unknown {
  const root = { v: structuredClone(doc) } as Record<string, unknown>;
  let parent: Record<string, unknown> | unknown[] = root;
  let key: string | number = 'v';
  for (let steps = Math.floor(rand() * 8); steps > 0; steps--) {
    const here: unknown = (parent as Record<string, unknown>)[key as string];
    if (typeof here !== 'object' || here === null) break;
    const keys: (string | number)[] = Array.isArray(here) ? here.map((_, i) => i) : Object.keys(here);
    if (keys.length === 0) break;
    parent = here as Record<string, unknown>;
    key = pick(rand, keys);
  }
  const p = parent as Record<string, unknown>;
  switch (Math.floor(rand() * 5)) {
    case 0:
      p[key] = randomValue(rand, 0);
      break;
    case 1:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete p[key];
      break;
    case 2:
      if (Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
      else p[pick(rand, HOSTILE_KEYS)] = structuredClone(p[key]);
      break;
    case 3:
      if (Array.isArray(parent)) parent.reverse();
      else p[key] = pick(rand, HOSTILE_STRINGS);
      break;
    default: {
      const here = p[key];
      if (typeof here === 'object' && here !== null && !Array.isArray(here))
        (here as Record<string, unknown>)[pick(rand, HOSTILE_KEYS)] = randomValue(rand, 1);
      else p[key] = [here, randomValue(rand, 1)];
    }
  }
  return root.v;
}

function mutate(rand: () => number, seed: Uint8Array): Uint8Array {
  if (rand() < 0.5) return mutateBytes(rand, seed);
  let tree: unknown;
  try {
    tree = JSON.parse(dec.decode(seed));
  } catch {
    return mutateBytes(rand, seed);
  }
  // Structure-level mutation, sometimes serialized with a duplicated member to probe the carrier.
  let text = JSON.stringify(mutateTree(rand, tree)) ?? ''; // the root itself may be deleted: empty input
  if (rand() < 0.05) text = text.replace(/^\{"([^"]*)":/, '{"$1":null,"$1":');
  return enc.encode(text);
}

const CLASSES = new Set([
  'pack-not-conformant',
  'malformed-input',
  'unsupported-required-extension',
  'resource-exhaustion',
]);

/** Exactly one disposition or one typed error, with the work bounded by the budget. Returns a label for coverage. */
function check(r: EvaluationResult, budget: number): string {
  expect(r.kind === 'disposition' || r.kind === 'error').toBe(true);
  expect(Number.isSafeInteger(r.work) && r.work >= 0 && r.work <= budget).toBe(true);
  if (r.kind === 'disposition') {
    expect('error' in r).toBe(false);
    expect(canonicalDisposition(r.disposition)).toBe(r.bytes);
    return r.disposition.kind;
  }
  expect('disposition' in r || 'bytes' in r).toBe(false);
  expect(CLASSES.has(r.error.class)).toBe(true);
  expect(r.error.phase).toBe(r.error.class === 'resource-exhaustion' ? 'evaluation' : 'preflight');
  expect(r.error.code).toMatch(/^[a-z0-9-]+$/);
  if (r.error.phase === 'preflight') expect(r.work).toBe(0);
  return r.error.class;
}

describe('seeded fuzzing of packs, facts and evidence', () => {
  it('yields exactly one disposition or one typed error for 10,000 mutated inputs', () => {
    const rand = prng(0x5eed);
    const compiled = SEEDS.map((seed) => {
      const v = validatePack(seed.pack);
      if (!v.conformant || v.pack === undefined) throw new Error('seed packs are conformant');
      return compilePack(v.pack);
    });
    const seen = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      // Each input mutates exactly one of pack (35%), facts (40%) or evidence (25%); the others are seeds.
      const target = rand();
      const index = Math.floor(rand() * SEEDS.length);
      const seed = SEEDS[index]!;
      const facts = target >= 0.35 && target < 0.75 ? mutate(rand, pick(rand, seed.facts)) : pick(rand, seed.facts);
      const evidence =
        target >= 0.75 ? mutate(rand, pick(rand, seed.evidence)) : rand() < 0.2 ? undefined : pick(rand, seed.evidence);
      const budget = rand() < 0.3 ? 1 + Math.floor(rand() * 600) : DEFAULT_WORK_BUDGET;
      const supportedExtensions = new Set(rand() < 0.7 ? ['com.example.consent-policy'] : []);
      const input = { facts, ...(evidence === undefined ? {} : { evidence }), supportedExtensions, workBudget: budget };
      const r =
        target < 0.35
          ? evaluateDocuments({ ...input, pack: mutate(rand, seed.pack) })
          : evaluateCompiled(compiled[index]!, input);
      const label = check(r, budget);
      seen.set(label, (seen.get(label) ?? 0) + 1);
    }
    // Coverage guard: the mutations must reach every kind of result, or the fuzzing proves little.
    for (const label of [
      'outcome',
      'unresolved',
      'not-applicable',
      'pack-not-conformant',
      'malformed-input',
      'unsupported-required-extension',
      'resource-exhaustion',
    ]) {
      expect(seen.get(label) ?? 0, label).toBeGreaterThan(20);
    }
  }, 120_000);

  it('never throws when any single member of a seed pack is removed or replaced by null, [] or a string', () => {
    function* paths(x: unknown, p: (string | number)[] = []): Generator<(string | number)[]> {
      if (p.length > 0) yield p;
      if (Array.isArray(x)) for (let i = 0; i < x.length; i++) yield* paths(x[i], [...p, i]);
      else if (typeof x === 'object' && x !== null)
        for (const k of Object.keys(x)) yield* paths((x as Record<string, unknown>)[k], [...p, k]);
    }
    const facts = enc.encode('{"request":{"type":"data-access","completeness":"complete","appropriateness":"pass"}}');
    let inputs = 0;
    for (const seed of SEEDS) {
      const doc = JSON.parse(dec.decode(seed.pack)) as Record<string, unknown>;
      for (const path of paths(doc)) {
        for (const replacement of [null, [], 'x', undefined]) {
          const copy = structuredClone(doc);
          let parent = copy as Record<string | number, unknown>;
          for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
          const last = path[path.length - 1]!;
          if (replacement !== undefined) parent[last] = replacement;
          else if (Array.isArray(parent)) parent.splice(last as number, 1);
          else delete parent[last];
          check(
            evaluateDocuments({ pack: enc.encode(JSON.stringify(copy)), facts, supportedExtensions: new Set() }),
            DEFAULT_WORK_BUDGET,
          );
          inputs++;
        }
      }
    }
    expect(inputs).toBeGreaterThan(2_000);
  }, 120_000);
});
