import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateHandoffCorpus } from '../../conformance/ledger/handoff-scenarios.js';
import { deliveriesOf } from '../pipeline/handoff-fixtures.js';
import { readTrustPolicy, type TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import {
  HANDOFF_CHECKS,
  HANDOFF_REJECTIONS,
  verifyHandoff,
  verifyHandoffWith,
  type HandoffCheck,
  type HandoffVerifyOptions,
} from '../../core/pipeline/handoff-verdict.js';

const DIR = join(import.meta.dirname, '..', '..', 'conformance', 'ledger');
const CORPUS = join(DIR, 'handoffs');

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(relative(DIR, full));
  }
  return out.sort();
}

interface Expected {
  readonly cases: readonly {
    line: number;
    label: string;
    options?: HandoffVerifyOptions;
    verdict: string;
    delivery?: 'first' | 'repeat';
  }[];
}
const names = readdirSync(CORPUS).filter((n) => statSync(join(CORPUS, n)).isDirectory());

function scenario(name: string): { policy: TrustPolicy; lines: string[]; expected: Expected } {
  const policy = readTrustPolicy(readFileSync(join(CORPUS, name, 'policy.json')));
  if (!policy.ok) throw new Error(policy.error.detail);
  const lines = readFileSync(join(CORPUS, name, 'messages.jsonl'), 'utf8')
    .split('\n')
    .slice(0, -1);
  const expected = JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as Expected;
  return { policy: policy.value, lines, expected };
}

/** The labels of the cases where `checks` give a verdict other than the hand-written one. */
function disagreements(name: string, checks: readonly HandoffCheck[]): string[] {
  const { policy, lines, expected } = scenario(name);
  expect(lines).toHaveLength(expected.cases.length);
  return expected.cases.flatMap((c) => {
    const v = verifyHandoffWith(checks, new TextEncoder().encode(lines[c.line - 1]), policy, c.options ?? {});
    const got = v.ok ? 'ok' : v.reason;
    return got === c.verdict ? [] : [`line ${c.line} (${c.label}): ${got}, expected ${c.verdict}`];
  });
}

describe('the forged-handoff corpus', () => {
  it('is exactly what the committed generator produces, byte for byte, with no stale file', () => {
    const generated = generateHandoffCorpus();
    expect(listFiles(CORPUS)).toEqual([...generated.keys()].sort());
    for (const [path, text] of generated) expect(readFileSync(join(DIR, path), 'utf8'), path).toBe(text);
  });

  it('names every reason a handoff can be refused at least once, and genuine handoffs of every shape', () => {
    const verdicts = new Set(names.flatMap((n) => scenario(n).expected.cases.map((c) => c.verdict)));
    expect([...HANDOFF_REJECTIONS, 'ok'].filter((r) => !verdicts.has(r))).toEqual([]);
  });

  for (const name of names)
    it(`gives the hand-written verdict for every message of scenario ${name}`, () => {
      expect(disagreements(name, HANDOFF_CHECKS)).toEqual([]);
    });

  it('marks each verified handoff id first once and its later deliveries repeats, as a consumer run prints them', () => {
    const { policy, lines, expected } = scenario('misrouted-handoff');
    const verified = expected.cases.flatMap((c) => {
      const v = verifyHandoff(new TextEncoder().encode(lines[c.line - 1]), policy, c.options ?? {});
      return v.ok ? [{ c, id: v.handoff.handoffId }] : [];
    });
    expect(verified.map((x) => x.c.delivery)).toEqual(deliveriesOf(verified.map((x) => x.id)));
    expect(verified.map((x) => x.c.delivery)).toContain('repeat');
  });
});

describe('the forged-handoff corpus has teeth', () => {
  const without = (dropped: HandoffCheck['name']) => HANDOFF_CHECKS.filter((c) => c.name !== dropped);

  it('a verifier that skips the signature check fails it: it accepts entries nobody with the key signed', () => {
    const wrong = names.flatMap((n) => disagreements(n, without('signature')));
    expect(wrong.some((w) => w.includes('never recorded') && w.includes(': ok,'))).toBe(true);
  });

  it('a verifier that accepts a pinned key outside its validity range fails it', () => {
    const wrong = names.flatMap((n) => disagreements(n, without('entry-key')));
    expect(wrong.some((w) => w.includes('retired key') && w.includes(': ok,'))).toBe(true);
  });

  it('a verifier that accepts any evaluator build fails it', () => {
    expect(names.flatMap((n) => disagreements(n, without('evaluator-build')))).not.toEqual([]);
  });

  it('a consumer that accepts entries evaluated under draft grammar its policy does not permit fails it', () => {
    const wrong = names.flatMap((n) => disagreements(n, without('draft-features')));
    expect(wrong.some((w) => w.includes('rfc0008-quantifiers') && w.includes(': ok,'))).toBe(true);
  });

  it('a consumer that does not check which queue it reads fails it', () => {
    expect(names.flatMap((n) => disagreements(n, without('queue')))).not.toEqual([]);
  });

  it('a consumer that compares a served target by its name without its kind fails it', () => {
    const queue = HANDOFF_CHECKS.find((c) => c.name === 'queue')!;
    // The mutant: every expected target's kind is taken to be the handoff's own, so only the names are compared.
    const nameOnly: HandoffCheck = {
      name: 'queue',
      check: (m, policy, o) =>
        queue.check(m, policy, {
          ...o,
          ...(o.expectedTargets && m.target
            ? { expectedTargets: o.expectedTargets.map((t) => ({ ...t, kind: m.target!.kind })) }
            : {}),
        }),
    };
    const wrong = names.flatMap((n) =>
      disagreements(
        n,
        HANDOFF_CHECKS.map((c) => (c === queue ? nameOnly : c)),
      ),
    );
    expect(wrong.some((w) => w.includes('same name but another kind') && w.includes(': ok,'))).toBe(true);
  });

  it('a consumer that ignores the route queue it reads fails it: it accepts a genuine handoff copied onto its queue', () => {
    const wrong = disagreements('misrouted-handoff', without('route-queue'));
    expect(wrong.some((w) => w.includes('copied unchanged onto the steward queue') && w.includes(': ok,'))).toBe(true);
  });
});
