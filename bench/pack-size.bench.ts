/**
 * Validation and evaluation time against pack size, next to JSON.parse of the same bytes in the same run.
 *
 *   npm run build && node dist/bench/pack-size.bench.js
 *
 * Packs: conformant, generated, 1,000 / 10,000 / 50,000 rules of one `fact` condition each (distinct paths,
 * alternating outcomes, so the overlap lint has n²/2 pairs to consider). The 50,000-rule pack is over the 2 MiB
 * document limit, the 10,000-element collection limit and the 250,000-value validation bound (ADR 0202), so every
 * pack is read here with those limits raised: the bench measures growth, not admission.
 * Figures, best of three (one run for 50,000): JSON.parse(TextDecoder.decode(bytes)); validatePack as `docket
 * validate` runs it (schema, semantics, overlap lint); validatePack without the lint, then compilePack and one
 * evaluateCompiled, as the evaluator's preflight runs them (`evaluateDocuments`). Ratios between sizes show whether
 * the growth is close to linear; the overlap lint is bounded by its comparison meter (ADR 0024), so it grows less.
 */
import { compilePack, evaluateCompiled, MAX_WORK_BUDGET } from '../core/evaluate/index.js';
import { validatePack } from '../core/pack/index.js';
import { bestMsPerCall } from './support/timing.js';

const COMMAND = 'npm run build && node dist/bench/pack-size.bench.js';
const enc = new TextEncoder();
const dec = new TextDecoder();
const LIMITS = { documentBytes: 64 * 1_048_576, collectionSize: 1_000_000 };
const MAX_VALUES = 10_000_000;

function pack(rules: number): Uint8Array {
  const list = Array.from({ length: rules }, (_, i) => ({
    id: `rule-${i}`,
    description: `Rule ${i} routes requests whose field ${i} is at least ${i}.`,
    when: { op: 'fact', path: `/request/field${i}`, operator: 'greater-than-or-equal', value: String(i) },
    outcome: i % 2 === 0 ? 'accept' : 'review',
    onUnknown: 'ignore',
  }));
  return enc.encode(
    JSON.stringify({
      specVersion: '0.3.0',
      id: 'https://bench.example/pack-size',
      version: '1.0.0',
      title: 'Pack size',
      decision: { intent: 'Bench.', question: 'Which?' },
      outcomes: [
        { id: 'accept', label: 'Accept' },
        { id: 'review', label: 'Review' },
        { id: 'other', label: 'Other' },
      ],
      rules: list,
      fallbackOutcome: 'other',
    }),
  );
}

interface Row {
  readonly rules: number;
  readonly bytes: number;
  readonly parse: number;
  readonly validate: number;
  readonly evaluate: number;
}

function measure(rules: number): Row {
  const bytes = pack(rules);
  const runs = rules >= 50_000 ? 1 : 3;
  const facts = enc.encode('{"request":{"field0":"1"}}');
  let sink = 0;
  const parse = bestMsPerCall(runs, 1, () => {
    sink += (JSON.parse(dec.decode(bytes)) as { rules: unknown[] }).rules.length;
  });
  const validate = bestMsPerCall(runs, 1, () => {
    const v = validatePack(bytes, { limits: LIMITS, maxValues: MAX_VALUES });
    if (!v.conformant) throw new Error(`the ${rules}-rule pack must be conformant: ${v.diagnostics[0]?.code}`);
  });
  const evaluate = bestMsPerCall(runs, 1, () => {
    const v = validatePack(bytes, { limits: LIMITS, maxValues: MAX_VALUES, overlapCheck: false });
    if (!v.conformant || v.pack === undefined) throw new Error('conformant');
    const r = evaluateCompiled(compilePack(v.pack), {
      facts,
      supportedExtensions: new Set(),
      workBudget: MAX_WORK_BUDGET, // every rule is reached: 50,000 rules need more than the default budget
    });
    if (r.kind !== 'disposition') throw new Error(`expected a disposition, got ${r.error.code}`);
    sink += r.work;
  });
  if (sink === -1) console.log('');
  return { rules, bytes: bytes.length, parse, validate, evaluate };
}

function main(): void {
  measure(1_000); // warm-up: ajv compiles the schema, the JIT settles
  const rows = [1_000, 10_000, 50_000].map(measure);
  const ms = (x: number) => `${x.toFixed(0).padStart(6)} ms`;
  const lines = [
    `pack-size bench — ${COMMAND}`,
    `node ${process.version}; best of 3 (50,000: one run); times in ms`,
    `   rules      bytes   JSON.parse   validate (lint)   validate+compile+evaluate   ratio validate/parse  evaluate/parse`,
    ...rows.map(
      (r) =>
        `${r.rules.toLocaleString('en-US').padStart(8)} ${r.bytes.toLocaleString('en-US').padStart(10)}   ${ms(r.parse)}   ${ms(r.validate)}        ${ms(r.evaluate)}               ${(r.validate / r.parse).toFixed(1).padStart(6)}  ${(r.evaluate / r.parse).toFixed(1).padStart(6)}`,
    ),
    'growth between sizes (time ratio for the rule ratio; linear = the rule ratio):',
    ...rows.slice(1).map((r, i) => {
      const p = rows[i]!;
      const k = r.rules / p.rules;
      return `  ${p.rules.toLocaleString('en-US')} → ${r.rules.toLocaleString('en-US')} rules (×${k}): JSON.parse ×${(r.parse / p.parse).toFixed(1)}, validate ×${(r.validate / p.validate).toFixed(1)}, validate+compile+evaluate ×${(r.evaluate / p.evaluate).toFixed(1)}`;
    }),
  ];
  console.log(lines.join('\n'));
}

main();
