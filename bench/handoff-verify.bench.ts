/**
 * Handoff verification cost per message (docs/pipeline.md "Verifying a handoff"), beside a same-run baseline.
 * Reproduce: npm run build && node dist/bench/handoff-verify.bench.js [messages]
 *
 * Messages: the genuine routed handoff of the forged-handoff corpus (a 1.2 KB entry) and one whose entry carries the
 * largest correlation (16 × 256 bytes), each verified `messages` times. Baseline: the strict entry read plus the
 * entry's Ed25519 signature check — what `docket verify --all-signatures` does per entry — so the ratio is what the
 * handoff envelope (JSON string unescaping, RFC 8785 check of the message, routing and id) adds.
 */
import './support/node-crypto.js';
import { bestPerSecond } from './support/timing.js';
import { generateHandoffCorpus } from '../conformance/ledger/handoff-scenarios.js';
import { parseStoredEntry, verifyParsedEntrySignature } from '../core/ledger/entries/entry.js';
import { readTrustPolicy } from '../core/ledger/trust-policy/trust-policy.js';
import { handoffMessageBytes } from '../core/pipeline/handoff-message.js';
import { verifyHandoff } from '../core/pipeline/handoff-verdict.js';
import { K1, signRaw } from '../conformance/ledger/fixtures.js';

const n = Number(process.argv[2] ?? 5_000);
const files = generateHandoffCorpus();
const policy = readTrustPolicy(new TextEncoder().encode(files.get('handoffs/forged-handoff/policy.json')!));
if (!policy.ok) throw new Error(policy.error.detail);
const small = files.get('handoffs/forged-handoff/messages.jsonl')!.split('\n')[0]!;
const smallEntry = (JSON.parse(small) as { entry: string }).entry;
const correlation: Record<string, string> = {};
for (let i = 0; i < 16; i++) correlation[`k${String(i).padStart(2, '0')}`] = 'x'.repeat(256);
const largeEntry = signRaw({ ...(JSON.parse(smallEntry) as Record<string, unknown>), correlation }, K1);
const large = handoffMessageBytes({
  entryBody: largeEntry,
  routeIndex: 1,
  shape: 'route',
  destination: 'configured',
  target: { kind: 'human-role', name: 'Oversight' },
}).body;
const enc = new TextEncoder();

process.stdout.write(`node ${process.version}, ${n} messages each, best of 3 runs\n`);
for (const [label, message, entry] of [
  ['typical', small, smallEntry],
  ['16 × 256-byte correlation', large, largeEntry],
] as const) {
  const bytes = enc.encode(message);
  const key = policy.value.keys[0]!.publicKey;
  const base = bestPerSecond(() => {
    const p = parseStoredEntry(entry);
    return p.ok && verifyParsedEntrySignature(p.value, key);
  }, n);
  const full = bestPerSecond(() => verifyHandoff(bytes, policy.value).ok, n);
  const rate = (perSecond: number) => Math.round(perSecond).toLocaleString('en-US');
  process.stdout.write(
    `${label}: message ${bytes.length} B (entry ${Buffer.byteLength(entry)} B)\n` +
      `  baseline: strict entry read + signature  ${rate(base).padStart(8)} /s\n` +
      `  verifyHandoff                            ${rate(full).padStart(8)} /s  ${(base / full).toFixed(2)}× baseline\n`,
  );
}
