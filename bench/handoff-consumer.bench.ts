/**
 * @docket/consumer's throughput per handoff on each signature port (node:crypto, and libsodium when sodium-native
 * loads), each against one bare Ed25519 verification of the same entries with the same primitive, in process CPU
 * time; and the size of a Lambda that imports only the built package. Workload, timing and goals: docs/performance.md
 * "Handoff consumer" (ADRs 0443, 0491, 0493, 0494).
 *
 *   npm run build && npm run build:packages && node dist/bench/handoff-consumer.bench.js [messages]
 */
import { createPublicKey, verify } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { generateHandoffCorpus } from '../conformance/ledger/handoff-scenarios.js';
import { K1, signRaw } from '../conformance/ledger/fixtures.js';
import { handoffConsumer, type SqsEvent } from '../adapters/handoff-consumer.js';
import { handoffMessageBytes } from '../core/pipeline/handoff-message.js';
import { installLedgerCrypto, type LedgerCrypto } from '../core/ledger/primitives/crypto-port.js';
import { nodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';
import { loadSodiumEd25519Verify, sodiumLedgerCrypto } from '../adapters/sodium-ledger-crypto.js';
import { readPolicy, signedParts } from './support/generated-ledger.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const n = Math.ceil(Number(process.argv[2] ?? 20_000) / 10) * 10;
const files = generateHandoffCorpus();
const policy = readPolicy(files.get('handoffs/forged-handoff/policy.json')!);
const template = JSON.parse(
  (JSON.parse(files.get('handoffs/forged-handoff/messages.jsonl')!.split('\n')[0]!) as { entry: string }).entry,
) as Record<string, unknown>;

/** n distinct genuine entries (each its own request id, so its own handoff id) and their oversight handoffs. */
const entries: string[] = [];
const bodies: string[] = [];
for (let i = 0; i < n; i++) {
  const entry = signRaw({ ...template, requestId: `bench-${i}` }, K1);
  entries.push(entry);
  bodies.push(
    handoffMessageBytes({
      entryBody: entry,
      routeIndex: 1,
      shape: 'route',
      destination: 'configured',
      target: { kind: 'human-role', name: 'Oversight' },
    }).body,
  );
}
const routeQueue = { key: 'oversight', routeQueues: { 'human-role:Oversight': 'oversight', 'queue:Review': 'review' } };

/** CPU milliseconds (user + system, every thread of the process) since `start`. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

/** The consumer's CPU time with `port` installed as the ledger's crypto (after the handler installed its own). */
async function consumerMs(port: LedgerCrypto): Promise<number> {
  let handled = 0;
  const handler = handoffConsumer({
    policy,
    routeQueue,
    deadLetterQueueUrl: 'unused',
    sqs: { send: async () => ({}) } as never,
    handle: () => void (handled += 1),
  });
  installLedgerCrypto(port);
  // Each event as the Lambda runtime hands it to the handler: parsed from its JSON text.
  const events: SqsEvent[] = [];
  for (let i = 0; i < n; i += 10) {
    const records = bodies.slice(i, i + 10).map((body, j) => ({ messageId: `m-${i + j}`, body }));
    events.push(JSON.parse(JSON.stringify({ Records: records })) as SqsEvent);
  }
  const start = process.cpuUsage();
  for (const e of events) {
    const r = await handler(e);
    if (r.batchItemFailures.length > 0) throw new Error('a genuine handoff failed');
  }
  const ms = cpuMs(start);
  if (handled !== n) throw new Error(`handled ${handled} of ${n}`);
  return ms;
}

/** Each entry's signing message and signature, read once. */
const signed = entries.map(signedParts);

/** One bare Ed25519 verification per entry: node:crypto over its signing message, no parsing, no policy. */
function nodeBaselineMs(): number {
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(K1.publicKey)]),
    format: 'der',
    type: 'spki',
  });
  const start = process.cpuUsage();
  for (const s of signed)
    if (!verify(null, s.message, key, s.signature)) throw new Error('a genuine entry must verify');
  return cpuMs(start);
}

/** The same with libsodium's `crypto_sign_verify_detached`, as the libsodium port calls it. */
function sodiumBaselineMs(sodiumVerify: (sig: Uint8Array, message: Uint8Array, key: Uint8Array) => boolean): number {
  const start = process.cpuUsage();
  for (const s of signed)
    if (!sodiumVerify(s.signature, s.message, K1.publicKey)) throw new Error('a genuine entry must verify');
  return cpuMs(start);
}

async function bundleKb(external: string[]): Promise<{ kb: number; forbidden: string[] }> {
  const dir = join(root, '.docket', 'bench-consumer');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'handler.mjs');
  writeFileSync(
    entry,
    `import { handoffConsumer, readTrustPolicy } from ${JSON.stringify(join(root, 'dist/packages/consumer/dist/index.js'))};\n` +
      `const policy = readTrustPolicy(new TextEncoder().encode(process.env.TRUST_POLICY ?? ''));\n` +
      `if (!policy.ok) throw new Error(policy.error.detail);\n` +
      `export const handler = handoffConsumer({ policy: policy.value, routeQueue: JSON.parse(process.env.ROUTE_QUEUE ?? '{}'),\n` +
      `  deadLetterQueueUrl: process.env.DLQ_URL ?? '', handle: async (h) => console.log(h.handoffId) });\n`,
  );
  const outfile = join(dir, `handler-${external.length}.mjs`);
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    metafile: true,
    external,
    outfile,
    logLevel: 'error',
  });
  const forbidden = Object.keys(r.metafile.inputs).filter((i) => /aws-cdk-lib|ajv\/dist\/(compile|core)/.test(i));
  const kb = statSync(outfile).size / 1024;
  rmSync(dir, { recursive: true, force: true });
  return { kb, forbidden };
}

const sodiumPort = sodiumLedgerCrypto();
const sodiumVerify = loadSodiumEd25519Verify();
const best = { consumer: Infinity, baseline: Infinity, sodiumConsumer: Infinity, sodiumBaseline: Infinity };
for (let i = 0; i < 5; i++) {
  best.consumer = Math.min(best.consumer, await consumerMs(nodeLedgerCrypto));
  best.baseline = Math.min(best.baseline, nodeBaselineMs());
  if (sodiumPort === null || sodiumVerify == null) continue;
  best.sodiumConsumer = Math.min(best.sodiumConsumer, await consumerMs(sodiumPort));
  best.sodiumBaseline = Math.min(best.sodiumBaseline, sodiumBaselineMs(sodiumVerify));
}
const rate = (ms: number) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
const { consumer, baseline, sodiumConsumer, sodiumBaseline } = best;
process.stdout.write(
  `node ${process.version}, ${n} distinct genuine handoffs in batches of 10, per CPU second, best of 5 alternating runs\n` +
    `  handoffConsumer (verify + claim + handle + complete)  ${rate(consumer).padStart(8)} /s   goal ≥ 10,000 /s\n` +
    `  baseline: one bare Ed25519 verify (node:crypto)     ${rate(baseline).padStart(8)} /s   ratio ${(consumer / baseline).toFixed(2)}×\n` +
    (sodiumPort === null
      ? `  libsodium: sodium-native does not load here (the consumer uses node:crypto)\n`
      : `  handoffConsumer with libsodium (${sodiumPort.name})     ${rate(sodiumConsumer).padStart(8)} /s   goal ≥ 10,000 /s\n` +
        `  baseline: one bare Ed25519 verify (libsodium)       ${rate(sodiumBaseline).padStart(8)} /s   ratio ${(sodiumConsumer / sodiumBaseline).toFixed(2)}×\n`),
);
const lean = await bundleKb(['@aws-sdk/*']);
const full = await bundleKb([]);
process.stdout.write(
  `consumer Lambda importing only @docket/consumer (esbuild, ESM, minified, node22)\n` +
    `  AWS SDK external (the nodejs runtime's) : ${lean.kb.toFixed(1)} KB   goal ≤ 150 KB\n` +
    `  AWS SDK bundled (reference)             : ${full.kb.toFixed(1)} KB\n` +
    `  aws-cdk-lib or ajv compiler in the bundle: ${[...lean.forbidden, ...full.forbidden].length === 0 ? 'none' : [...lean.forbidden, ...full.forbidden].join(', ')}\n`,
);
