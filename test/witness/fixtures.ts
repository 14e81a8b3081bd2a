/** Fixed keys, a fixed log and trust policy for the witness tests (no randomness: seeds are constants). */
import { fromHex, sha256, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import {
  checkpointOrigin,
  signCheckpointNote,
  type NoteSigner,
} from '../../core/ledger/checkpoints/checkpoint-note.js';
import type { WitnessKey } from '../../core/ledger/witness/cosignature.js';
import { consistencyProof, merkleRoot } from '../../core/ledger/checkpoints/merkle.js';
import { keyPairFromSeed, signEd25519 } from '../../core/ledger/primitives/signature.js';
import type { TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';

export const seed = (label: string): Uint8Array => sha256(utf8Bytes(label));
export const LOG_KEYS = keyPairFromSeed(seed('log checkpoint key'));
export const OTHER_KEYS = keyPairFromSeed(seed('someone else'));
const W = keyPairFromSeed(seed('witness one'));
export const WITNESS: WitnessKey = { name: 'auditor.example/w1', publicKey: W.publicKey, secretKey: W.secretKey };
const W2 = keyPairFromSeed(seed('witness two'));
export const WITNESS2: WitnessKey = { name: 'auditor.example/w2', publicKey: W2.publicKey, secretKey: W2.secretKey };

export const AUTHORITY = { environment: 'test', table: 'docket-test-ledger' };
export const ORIGIN = checkpointOrigin(AUTHORITY, 'log-0');

export const POLICY: TrustPolicy = {
  format: 'docket.trust-policy/2',
  logs: ['log-0'],
  keys: [
    {
      keyId: LOG_KEYS.keyId,
      publicKey: LOG_KEYS.publicKey,
      roles: ['checkpoints'],
      validity: [{ logId: 'log-0', fromSeq: 0, toSeq: null }],
    },
  ],
  authorities: [AUTHORITY],
  evaluatorBuilds: [],
};

export const signerOf = (k: { publicKey: Uint8Array; secretKey: Uint8Array }): NoteSigner => ({
  publicKey: k.publicKey,
  sign: async (m) => signEd25519(m, k.secretKey),
});

/** Leaf hashes of a made-up log; `fork` changes every leaf from index `fork` on. */
export const leaves = (n: number, fork = Infinity): Uint8Array[] =>
  Array.from({ length: n }, (_, i) => sha256(utf8Bytes(i >= fork ? `forked leaf ${i}` : `leaf ${i}`)));

export const noteFor = (n: number, fork = Infinity, signer = signerOf(LOG_KEYS), origin = ORIGIN): Promise<string> =>
  signCheckpointNote({ origin, treeSize: n, rootHash: merkleRoot(leaves(n, fork)), extensions: [] }, signer);

export const proofBetween = (m: number, n: number, fork = Infinity): Uint8Array[] =>
  m === 0 || m === n ? [] : consistencyProof(m, leaves(n, fork));

export const hex = fromHex;
