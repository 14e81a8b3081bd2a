/**
 * The checkpoint writer's cost per newly covered entry (ADR 0121: it verifies every entry before signing), beside a
 * same-run baseline (SHA-256 of each stored body) and references (docs/performance.md "Verification"). Reproduce:
 * npm run build && node dist/bench/checkpoint.bench.js [entries]
 *
 * One log of N honest entries (the corpus's K1) in the in-memory store; the writer, signing with KC, runs from an
 * empty checkpoint history (every entry newly covered and verified) and again after 1% more entries (only those
 * verified). References in the same run: `verify --all-signatures` over the same entries, and the raw ceiling of one
 * Ed25519 verification per entry on the CLI's port (libsodium when sodium-native loads, ADR 0240) and on node:crypto.
 */
import './support/node-crypto.js';
import { bestMs, sha256Ms } from './support/timing.js';
import { policyFromSeq0, readPolicy, signedParts } from './support/generated-ledger.js';
import { performance } from 'node:perf_hooks';
import {
  appendTo,
  buildLog,
  checkpointsText,
  checkpointV2Of,
  exportText,
  K1,
  KC,
  PROD,
} from '../conformance/ledger/fixtures.js';
import { verifyExportFiles } from '../core/ledger/verify/files.js';
import { checkpointLog } from '../core/ledger/write/checkpoint-writer.js';
import { MemoryLedgerStore } from '../core/ledger/store/memory-store.js';
import { ledgerCrypto } from '../core/ledger/primitives/crypto-port.js';
import { nodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';
import { signerFromKeyPair } from '../core/ledger/primitives/signature.js';

const total = Number(process.argv[2] ?? 20_000);
const extra = Math.max(1, Math.floor(total / 100));
const t0 = performance.now();
const recs = buildLog('log-0', total);
const more = [...recs];
for (let i = 0; i < extra; i++) appendTo(more, K1);
const policyText = policyFromSeq0(['log-0']);
const policyBytes = new TextEncoder().encode(policyText);
const policy = readPolicy(policyText);
const signer = signerFromKeyPair(KC);
process.stdout.write(`generated ${total} + ${extra} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

async function storeOf(entries: typeof recs): Promise<MemoryLedgerStore> {
  const s = new MemoryLedgerStore();
  for (const e of entries) await s.putEntryIfAbsent(e);
  return s;
}

const write = (store: MemoryLedgerStore, time: string) =>
  checkpointLog(store, 'log-0', { signer, policy, origin: PROD, time: `2026-12-03T09:${time}:00Z` });

/** ms of the writer over every entry (`incremental` false), or over the 1% added after a first checkpoint. */
async function writerMs(incremental: boolean): Promise<number> {
  const store = await storeOf(recs);
  if (incremental) {
    if ((await write(store, '00')).status !== 'written') throw new Error('first checkpoint refused');
    for (const e of more.slice(total)) await store.putEntryIfAbsent(e);
  }
  const start = performance.now();
  const w = await write(store, incremental ? '05' : '00');
  const ms = performance.now() - start;
  const expected = incremental ? extra : total;
  if (w.status !== 'written' || w.entriesVerified !== expected) throw new Error(`unexpected ${JSON.stringify(w)}`);
  return ms;
}

async function verifyAll(): Promise<number> {
  const ledger = new TextEncoder().encode(exportText(recs));
  const checkpoints = new TextEncoder().encode(checkpointsText([checkpointV2Of(recs, 'log-0', total, KC)]));
  const start = performance.now();
  const r = await verifyExportFiles({ ledger, policy: policyBytes, checkpoints }, { allSignatures: true });
  const ms = performance.now() - start;
  if (!r.ok || !r.value.ok) throw new Error('the generated log must verify');
  return ms;
}

/** Raw verification of every entry's signature over its signing message: nothing else per entry. */
function rawVerify(verify: NonNullable<ReturnType<typeof ledgerCrypto>['ed25519Verify']>): () => number {
  const cases = recs.map((r) => signedParts(r.body));
  return () => {
    const start = performance.now();
    for (const c of cases)
      if (!verify(c.signature, c.message, K1.publicKey)) throw new Error('a generated signature verifies');
    return performance.now() - start;
  };
}

const base = await bestMs(() => sha256Ms(recs), 3);
const full = await bestMs(() => writerMs(false), 2);
const inc = await bestMs(() => writerMs(true), 2);
const all = await bestMs(verifyAll, 1);
const port = ledgerCrypto();
const rawPort = await bestMs(rawVerify(port.ed25519Verify ?? (() => false)), 2);
const rawNode = await bestMs(rawVerify(nodeLedgerCrypto.ed25519Verify ?? (() => false)), 2);
const line = (label: string, ms: number, entries: number, goal?: number) => {
  const rate = Math.round(entries / (ms / 1000));
  return `${label.padEnd(46)} ${String(rate).padStart(9)} entries/s  ${(ms / 1000).toFixed(3).padStart(7)} s  ${(ms / base).toFixed(1).padStart(6)}× baseline${goal ? `  (goal ≥ ${goal.toLocaleString('en-US')}/s: ${rate >= goal ? 'met' : 'NOT met'})` : ''}\n`;
};
process.stdout.write(`node ${process.version}, Ed25519 verification: ${port.name}, best of runs\n`);
process.stdout.write(line(`baseline: SHA-256 of each of ${total} bodies`, base, total));
process.stdout.write(line(`raw Ed25519 verify ceiling (${port.name})`, rawPort, total));
process.stdout.write(line(`raw Ed25519 verify ceiling (node:crypto)`, rawNode, total));
process.stdout.write(line(`verify --all-signatures, same ${total} entries`, all, total));
process.stdout.write(line(`writer, all ${total} entries newly covered`, full, total, 5_000));
process.stdout.write(line(`writer, ${extra} new after a vouching checkpoint (per new)`, inc, extra));
process.stdout.write(line(`  the same run, per entry read`, inc, total + extra));
