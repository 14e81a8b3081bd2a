/**
 * `docket verify` throughput on the generated export of support/generated-ledger.ts (docs/performance.md
 * "Verification"), beside a same-run baseline: SHA-256 over each stored body, the bytes verify must at least read.
 * Reproduce: npm run build && node dist/bench/verify.bench.js [entries]
 *
 * The same ledger with format /1 checkpoints (which vouch for no signature) shows what the checkpoint path costs
 * without them. Ed25519 runs on the port the CLI uses (libsodium when sodium-native loads, ADR 0240; the line names
 * it). The checkpoint path is bound by the strict read, projection, chain and Merkle work per entry (ADR 0241).
 */
import './support/node-crypto.js';
import { bestMs, sha256Ms } from './support/timing.js';
import { performance } from 'node:perf_hooks';
import { checkpointOf, checkpointsText, KC } from '../conformance/ledger/fixtures.js';
import { generatedLedger } from './support/generated-ledger.js';
import { ledgerCrypto } from '../core/ledger/primitives/crypto-port.js';
import { verifyExportFiles } from '../core/ledger/verify/files.js';

const total = Number(process.argv[2] ?? 100_000);
const enc = new TextEncoder();

const t0 = performance.now();
const generated = generatedLedger(total, 100);
const recs = generated.records;
const ledger = enc.encode(generated.exportText);
const checkpoints = enc.encode(generated.checkpointsText);
const checkpointsV1 = enc.encode(
  checkpointsText(generated.logs.map((l, i) => checkpointOf(l, generated.logIds[i]!, generated.perLog - 100, KC))),
);
const policy = enc.encode(generated.policyText);
process.stdout.write(
  `generated ${recs.length} entries (${(ledger.length / 1e6).toFixed(1)} MB export) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
);

async function verify(allSignatures: boolean, cps: Uint8Array = checkpoints): Promise<number> {
  const start = performance.now();
  const r = await verifyExportFiles({ ledger, policy, checkpoints: cps }, { allSignatures });
  const ms = performance.now() - start;
  if (!r.ok || !r.value.ok)
    throw new Error(
      `the generated ledger must verify: ${JSON.stringify(r.ok ? r.value.findings.slice(0, 3) : r.error)}`,
    );
  return ms;
}

await verify(false); // warm-up
const base = await bestMs(() => sha256Ms(recs), 3);
const quick = await bestMs(() => verify(false), 2);
const all = await bestMs(() => verify(true), 1);
const oldCheckpoints = await bestMs(() => verify(false, checkpointsV1), 1);
const rate = (ms: number) => Math.round(recs.length / (ms / 1000));
const line = (label: string, ms: number, goal?: number) =>
  `${label.padEnd(34)} ${String(rate(ms)).padStart(9)} entries/s  ${(ms / 1000).toFixed(2).padStart(6)} s  ${(ms / base).toFixed(1).padStart(6)}× baseline${goal ? `  (goal ≥ ${goal.toLocaleString('en-US')}/s: ${rate(ms) >= goal ? 'met' : 'NOT met'})` : ''}\n`;
process.stdout.write(
  `node ${process.version}, ${recs.length} entries, Ed25519 verification: ${ledgerCrypto().name}, best of runs\n`,
);
process.stdout.write(line('baseline: SHA-256 of each body', base));
process.stdout.write(line('verify (checkpoint path, /2 by KC)', quick, 20_000));
process.stdout.write(line('verify (checkpoint path, /1 only)', oldCheckpoints));
process.stdout.write(line('verify --all-signatures', all, 5_000));
