/**
 * The evaluate handler's per-record cost in-process: the whole pipeline for one request (strict request read,
 * admission incl. worst-case entry size, evaluation, request archive put, entry build + RFC 8785 + Ed25519 signature,
 * append protocol: what the evaluate function does per record under the FIFO lock) over in-memory ports, next to the evaluation alone on the same documents
 * in the same run, as a ratio.
 *
 *   npm run build && node dist/bench/handler.bench.js
 *
 * Baseline = evaluateCompiled on the same compiled pack and the same exact facts/evidence bytes.
 */
import './support/node-crypto.js';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { evaluateCompiled } from '../core/evaluate/index.js';
import { MemoryLedgerStore } from '../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../core/ledger/primitives/signature.js';
import { ledgerWriter } from '../core/pipeline/ledger-writer.js';
import { loadPackBytes } from '../core/admission/index.js';
import { cachedPackSource } from '../core/pipeline/pack-source.js';
import { processRequest, type PipelineConfig } from '../core/pipeline/process-request.js';
import { REQUEST_FORMAT } from '../core/admission/request-format.js';
import { secondsOf } from './support/timing.js';

const BENCH_COMMAND = 'npm run build && node dist/bench/handler.bench.js';
const N = Number(process.env.BENCH_N ?? 3000);

const root = new URL('../../', import.meta.url);
const file = (p: string) => new Uint8Array(readFileSync(new URL(p, root)));
const packBytes = file('examples/data-request-intake-triage.json');
const digest = createHash('sha256').update(packBytes).digest('hex');
const facts = new TextDecoder().decode(file('examples/requests/triage-complete-appropriate.facts.json')).trim();
const evidence = new TextDecoder().decode(file('examples/requests/triage-instance-7b.evidence.json')).trim();
const enc = new TextEncoder();

const config: PipelineConfig = {
  logIds: ['b-0'],
  supportedExtensions: [],
  defaultWorkBudget: 100_000,
  maxWorkBudget: 1_000_000,
  evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: 'b'.repeat(64) },
};
const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(3)));
const ports = {
  packs: cachedPackSource({ getPack: async () => packBytes, resolveAlias: async () => null }),
  archive: { put: async () => undefined },
  ledger: ledgerWriter({
    store: new MemoryLedgerStore(),
    signer,
    logIds: config.logIds,
    now: () => '2026-12-02T14:00:00Z',
  }).forLog('b-0'),
};
const requests = Array.from({ length: N }, (_, i) =>
  enc.encode(
    `{"format":"${REQUEST_FORMAT}","requestId":"bench-${i}","pack":"sha256:${digest}","facts":${facts},"evidence":${evidence}}`,
  ),
);

const loaded = loadPackBytes(digest, packBytes);
if (loaded.status !== 'found') throw new Error('bench pack did not load');
const compiled = loaded.pack.compiled;
const factsBytes = enc.encode(facts);
const evidenceBytes = enc.encode(evidence);
const supported = new Set<string>();
const evaluateOnce = () =>
  evaluateCompiled(compiled, {
    facts: factsBytes,
    evidence: evidenceBytes,
    supportedExtensions: supported,
    workBudget: 100_000,
  });

async function main(): Promise<void> {
  // Warm-up (JIT, pack cache).
  secondsOf(200, evaluateOnce);
  await processRequest(
    enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"warm","pack":"sha256:${digest}","facts":${facts}}`),
    config,
    ports,
  );

  const evalUs = (secondsOf(N, evaluateOnce) * 1e6) / N;

  const t0 = process.hrtime.bigint();
  for (const r of requests) {
    const o = await processRequest(r, config, ports);
    if (o.status !== 'recorded' || !o.created) throw new Error('bench request not recorded');
  }
  const recordUs = Number(process.hrtime.bigint() - t0) / 1000 / N;

  console.log(
    `handler per-record cost (in-process, in-memory ports), ${N} records of the triage pack, 3 handoffs each`,
  );
  console.log(`  baseline evaluateCompiled alone : ${evalUs.toFixed(1)} µs/record`);
  console.log(
    `  whole pipeline per record       : ${recordUs.toFixed(1)} µs/record  (${(1e6 / recordUs).toFixed(0)} records/s on one core)`,
  );
  console.log(`  ratio pipeline / evaluation     : ${(recordUs / evalUs).toFixed(1)}×`);
  console.log(`  command: ${BENCH_COMMAND}`);
}

await main();
