/**
 * The witness's cost per checkpoint, beside a same-run baseline.
 * Reproduce: npm run build && node dist/bench/witness.bench.js
 *
 * Per checkpoint a witness run does two things: the log side builds the RFC 9162 consistency proof from the ledger's
 * leaf hashes (from the previous cosigned size n/2 to n here), and the witness side handles the add-checkpoint
 * request (strict note reading, the log's note signature, the consistency proof, the cosignature, the new state).
 * Baseline: one Ed25519 signature and one strict verification of the same note text — the cryptography a witness
 * cannot avoid. Leaf hashes are synthetic (SHA-256 of the index); reading them from a table is not counted.
 */
import './support/node-crypto.js';
import { sha256, utf8Bytes } from '../core/ledger/primitives/bytes.js';
import { checkpointOrigin, signCheckpointNote } from '../core/ledger/checkpoints/checkpoint-note.js';
import { consistencyProof, merkleRoot } from '../core/ledger/checkpoints/merkle.js';
import { keyPairFromSeed, signEd25519, verifyEd25519 } from '../core/ledger/primitives/signature.js';
import type { TrustPolicy } from '../core/ledger/trust-policy/trust-policy.js';
import { serializeAddCheckpointRequest, witnessAddCheckpoint } from '../core/ledger/witness/add-checkpoint.js';
import type { WitnessState } from '../core/ledger/witness/witness-state.js';
import { bestMsPerCall } from './support/timing.js';

const log = keyPairFromSeed(sha256(utf8Bytes('bench log key')));
const wk = keyPairFromSeed(sha256(utf8Bytes('bench witness key')));
const witness = { name: 'bench.example/w', publicKey: wk.publicKey, secretKey: wk.secretKey };
const authority = { environment: 'bench', table: 'docket-bench-ledger' };
const origin = checkpointOrigin(authority, 'log-0');
const policy: TrustPolicy = {
  format: 'docket.trust-policy/2',
  logs: ['log-0'],
  keys: [
    {
      keyId: log.keyId,
      publicKey: log.publicKey,
      roles: ['checkpoints'],
      validity: [{ logId: 'log-0', fromSeq: 0, toSeq: null }],
    },
  ],
  authorities: [authority],
  evaluatorBuilds: [],
};
const signer = { publicKey: log.publicKey, sign: (m: Uint8Array) => signEd25519(m, log.secretKey) };
const ctx = { policy, knowsOrigin: (o: string) => o === origin, key: witness, now: 1_800_000_000 };

process.stdout.write(`node ${process.version}; per checkpoint, best of 3 runs\n`);
for (const n of [1_000, 10_000, 100_000]) {
  const leaves = Array.from({ length: n }, (_, i) => sha256(utf8Bytes(`leaf ${i}`)));
  const half = n / 2;
  const note = await signCheckpointNote({ origin, treeSize: n, rootHash: merkleRoot(leaves), extensions: [] }, signer);
  const text = note.slice(0, note.indexOf('\n\n') + 1);
  const oldNote = await signCheckpointNote(
    { origin, treeSize: half, rootHash: merkleRoot(leaves.slice(0, half)), extensions: [] },
    signer,
  );
  const state: WitnessState = new Map([
    [origin, { origin, treeSize: half, rootHash: merkleRoot(leaves.slice(0, half)), note: oldNote }],
  ]);
  const proof = consistencyProof(half, leaves);
  const body = serializeAddCheckpointRequest({ oldSize: half, proof, note });
  if (witnessAddCheckpoint(body, state, ctx).response.status !== 200)
    throw new Error('the bench checkpoint must be cosigned');

  const reps = n >= 100_000 ? 3 : 20;
  const baseline = bestMsPerCall(3, 200, () => {
    const s = signEd25519(utf8Bytes(text), wk.secretKey);
    if (!verifyEd25519(s, utf8Bytes(text), wk.publicKey)) throw new Error('unreachable');
  });
  const witnessSide = bestMsPerCall(3, 200, () => void witnessAddCheckpoint(body, state, ctx));
  const proofSide = bestMsPerCall(3, reps, () => void consistencyProof(half, leaves));
  const row = (label: string, ms: number) =>
    `  ${label.padEnd(44)} ${(ms * 1000).toFixed(0).padStart(9)} µs  ${(ms / baseline).toFixed(1).padStart(8)}× baseline\n`;
  process.stdout.write(
    `tree size ${n.toLocaleString('en-US')} (from ${half.toLocaleString('en-US')}, proof of ${proof.length} hashes)\n`,
  );
  process.stdout.write(row('baseline: one Ed25519 sign + strict verify', baseline));
  process.stdout.write(row('witness: add-checkpoint request handled', witnessSide));
  process.stdout.write(row('log side: consistency proof from the leaves', proofSide));
}
