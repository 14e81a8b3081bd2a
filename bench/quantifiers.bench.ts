/**
 * RFC 0008 quantifiers (draft, opt-in): throughput and units charged per microsecond, and the cost of the opt-in on
 * Core-only packs, each next to a same-run baseline.
 *
 *   npm run build && node dist/bench/quantifiers.bench.js
 *
 * 1. exists over 10,000 elements: Q("/v",1) over E(10000) (the one 1 last, so nothing short-circuits): 11 + 2 +
 *    7 × 10,000 = 70,013 units per evaluation under RFC 0008 Limit accounting.
 * 2. depth-two nesting: exists /rows (100) of every /items (100) of /v equals 0 over 10,000 inner members.
 *    Both report evaluations/s, work units charged per µs of the whole evaluation (carrier parse included) and per µs
 *    of §8 alone (the parse timed separately and subtracted), so the budget's units stay an honest bound on time.
 *    Baseline: the carrier parse of the same bytes (readJson), the floor any evaluation pays.
 * 3. The triage pack (no quantifier) over the evaluate bench's 1,000 seeded facts, validated and compiled with the
 *    opt-in on and off, evaluated alternately in the same run: the ratio shows what the opt-in costs a Core pack.
 */
import { readJson } from '../core/carrier/index.js';
import { compilePack, evaluateCompiled, type EvaluationInput } from '../core/evaluate/index.js';
import { validatePack, type DraftFeature } from '../core/pack/index.js';
import { secondsOf } from './support/timing.js';
import { compiledTriagePack, triageInputs, triagePackBytes } from './support/triage-facts.js';

const COMMAND = 'npm run build && node dist/bench/quantifiers.bench.js';
const enc = new TextEncoder();
const Q: readonly DraftFeature[] = ['rfc0008-quantifiers'];

function compiled(doc: unknown, features: readonly DraftFeature[] = Q) {
  const v = validatePack(doc instanceof Uint8Array ? doc : enc.encode(JSON.stringify(doc)), {
    draftFeatures: features,
  });
  if (v.pack === undefined) throw new Error(`bench pack not conformant: ${JSON.stringify(v.diagnostics)}`);
  return compilePack(v.pack);
}

const pack = (when: unknown) => ({
  specVersion: '0.3.0',
  id: 'urn:docket:bench:q',
  version: '1.0.0',
  title: 'Quantifier bench',
  decision: { intent: 'Bench.', question: 'Bench?' },
  outcomes: [
    { id: 'yes', label: 'Yes' },
    { id: 'no', label: 'No' },
  ],
  rules: [{ id: 'r1', description: 'r1', when, outcome: 'yes', onUnknown: 'ignore' }],
  fallbackOutcome: 'no',
});

function quantifierCase(name: string, when: unknown, factsText: string, rounds: number): void {
  const c = compiled(pack(when));
  const input: EvaluationInput = { facts: enc.encode(factsText), supportedExtensions: new Set() };
  const first = evaluateCompiled(c, input);
  if (first.kind !== 'disposition') throw new Error(`${name}: ${first.error.message}`);
  for (let i = 0; i < 20; i++) evaluateCompiled(c, input); // warm-up
  const parse = secondsOf(rounds, () => readJson(input.facts));
  const whole = secondsOf(rounds, () => evaluateCompiled(c, input));
  const us = (s: number) => (s / rounds) * 1e6;
  const eval8 = Math.max(us(whole) - us(parse), 1e-9);
  process.stdout.write(
    `${name}: ${first.work} units, ${(rounds / whole).toFixed(0)} evaluations/s; ` +
      `${us(whole).toFixed(1)} µs per evaluation (carrier parse alone ${us(parse).toFixed(1)} µs, ratio ${(whole / parse).toFixed(2)}×); ` +
      `${(first.work / us(whole)).toFixed(1)} units/µs whole, ${(first.work / eval8).toFixed(1)} units/µs of §8 alone\n`,
  );
}

const E = (n: number) =>
  `{"rows":[${Array.from({ length: n }, (_, i) => (i === n - 1 ? '{"v":1}' : '{"v":0}')).join(',')}]}`;
quantifierCase(
  'exists over 10,000 elements',
  { op: 'exists', path: '/rows', where: { op: 'fact', path: '/v', operator: 'equals', value: 1 } },
  E(10_000),
  200,
);
const nested = `{"rows":[${Array.from({ length: 100 }, () => `{"items":[${Array.from({ length: 100 }, () => '{"v":0}').join(',')}]}`).join(',')}]}`;
quantifierCase(
  'depth-two nesting (100 × 100)',
  {
    op: 'exists',
    path: '/rows',
    where: { op: 'every', path: '/items', where: { op: 'fact', path: '/v', operator: 'equals', value: 0 } },
  },
  nested,
  200,
);

// 3. The opt-in on a Core-only pack: the evaluate bench's workload, both configurations alternating in one run.
const off = compiledTriagePack();
const on = compiled(triagePackBytes(), Q);
const { inputs } = triageInputs(1000, 20261202);
for (const inp of inputs) {
  const a = evaluateCompiled(off, inp);
  const b = evaluateCompiled(on, inp);
  if ((a.kind === 'disposition' ? a.bytes : a.error.code) !== (b.kind === 'disposition' ? b.bytes : b.error.code))
    throw new Error('the opt-in changed a Core result');
}
const pass = (c: typeof on) => () => {
  for (const inp of inputs) evaluateCompiled(c, inp);
};
let tOff = 0;
let tOn = 0;
for (let round = 0; round < 6; round++) {
  tOff += secondsOf(20, pass(off));
  tOn += secondsOf(20, pass(on));
}
const n = 6 * 20 * inputs.length;
process.stdout.write(
  `triage pack, opt-in off: ${(n / tOff).toFixed(0)} evaluations/s; opt-in on: ${(n / tOn).toFixed(0)} evaluations/s; ` +
    `on/off time ratio ${(tOn / tOff).toFixed(3)} (identical results checked on all 1,000 inputs)\n`,
);
process.stdout.write(`command: ${COMMAND}\n`);
