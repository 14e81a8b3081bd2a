/**
 * What recording draft features costs a verifier: verify's per-entry check of format /2 entries (draftFeatures under
 * a /3 policy permitting it) next to the same entries as format /1, in the same run.
 *
 *   npm run build && node dist/bench/draft-entry.bench.js [entries]
 *
 * Workload: n disposition entries (default 20,000) built by the one builder, once as /1 and once as /2 recording
 * ["rfc0008-quantifiers"]. Measured: checkEntry (core/ledger/verify/entry-status.ts) with the signature deferred, as
 * on the checkpoint path — strict canonical read, every invariant incl. Core §8.3, key lookup, projection, build and
 * draft-feature policy checks — and with the Ed25519 signature checked (every-signature path).
 * Baseline: the same check of the /1 entries under a /2 policy. Rounds alternate; each side shows its best of three.
 */
import './support/node-crypto.js';
import { buildEntry, toStoredEntry } from '../core/ledger/entries/entry.js';
import { ENTRY_FORMAT_V2 } from '../core/ledger/entries/entry-types.js';
import { signerFromKeyPair } from '../core/ledger/primitives/signature.js';
import type { StoredEntry } from '../core/ledger/store/store.js';
import type { TrustPolicy } from '../core/ledger/trust-policy/trust-policy.js';
import { checkEntry } from '../core/ledger/verify/entry-status.js';
import { K1, unsignedEntry } from '../conformance/ledger/fixtures.js';
import { policyFromSeq0, readPolicy } from './support/generated-ledger.js';

const COMMAND = 'npm run build && node dist/bench/draft-entry.bench.js';
const n = Number(process.argv[2] ?? 20_000);
const signer = signerFromKeyPair(K1);
const Q = 'rfc0008-quantifiers';

/** n disposition entries (the corpus's honest entry of seq 0, filed at each seq), as /1 or as /2 recording Q. */
const entries = (draft: boolean): StoredEntry[] =>
  Array.from({ length: n }, (_, seq) => {
    const over = { seq, requestId: `bench-${seq}`, ...(draft ? { format: ENTRY_FORMAT_V2, draftFeatures: [Q] } : {}) };
    return toStoredEntry(buildEntry(unsignedEntry('log-0', 0, seq === 0 ? null : 'a'.repeat(64), K1, over), signer));
  });

function rate(list: readonly StoredEntry[], p: TrustPolicy, signature: boolean): number {
  for (const s of list.slice(0, 500)) checkEntry(s, p, signature); // warm-up
  const t0 = process.hrtime.bigint();
  for (const s of list) if (checkEntry(s, p, signature).status !== 'ok') throw new Error('bench entry not ok');
  return list.length / (Number(process.hrtime.bigint() - t0) / 1e9);
}

const v1 = entries(false);
const v2 = entries(true);
const p2 = readPolicy(policyFromSeq0(['log-0']));
const p3 = readPolicy(policyFromSeq0(['log-0'], [Q]));
const f = (x: number): string => Math.round(x).toLocaleString('en-US');
console.log(`${COMMAND}  (${f(n)} entries; Node ${process.version})`);
for (const signature of [false, true]) {
  // Alternating rounds, best of three each, so JIT warm-up and a loaded machine favour neither side.
  let base = 0;
  let draft = 0;
  for (let round = 0; round < 3; round++) {
    base = Math.max(base, rate(v1, p2, signature));
    draft = Math.max(draft, rate(v2, p3, signature));
  }
  const label = signature ? 'check incl. Ed25519' : 'check, signature deferred';
  console.log(
    `  ${label}: /2 entries ${f(draft)}/s   baseline /1 entries ${f(base)}/s   ${(base / draft).toFixed(2)}× the cost`,
  );
}
