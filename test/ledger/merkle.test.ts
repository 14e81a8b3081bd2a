import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../core/ledger/primitives/bytes.js';
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  MerkleFrontier,
  merkleRoot,
  verifyConsistency,
  verifyInclusion,
} from '../../core/ledger/checkpoints/merkle.js';

const leaves = (n: number): Uint8Array[] =>
  Array.from({ length: n }, (_, i) => leafHash(new TextEncoder().encode(`entry-${i}`)));

// Roots computed independently from the RFC 9162 §2.1.1 definition (Python hashlib, outside this code base) over
// leaves SHA-256(0x00 || "entry-i"), then frozen here.
const PINNED_ROOTS: Record<number, string> = {
  0: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  1: '40766b2033429026f53d54502679a839706b4741f8dcaf3a8bba5f41b5ffe075',
  2: '2f27a5082c1d42afa488ac350a9fc4390c084f54f71ecdff859e98db8429b479',
  3: 'a64bf26e09128f6fe2fe6f8b2d8c801e166b57c047a7cd9b2b809e7a96a2f1cb',
  4: '256b9e8825e5d370a4ae005d0901ea291977e2927f5cf8e3e72660dd09519edb',
  5: '1aa68d3074905a581f84cbbd0f753794904fd80451bc4c13e69d9a53bc59502c',
  7: '9139601cc1ca8ab2a7a0c2c134c04845f2b1ba549a83d6c845cfcda439cc585d',
  8: 'dfcc13b9b0ca932c68de3d59eaaa8fe266a9c8091c0300e8405ebfeb0d0e5832',
  9: '12f4efa8ca23286c700af22893801cff9e72c58ed63a7316c30a87cf17bd5126',
};

const flip = (h: Uint8Array): Uint8Array => {
  const c = Uint8Array.from(h);
  c[0] = (c[0] as number) ^ 1;
  return c;
};

// The tree size itself is bound by the signed checkpoint, not by the proof: RFC 9162 §2.1.3.2 accepts, e.g., the
// size-3 path of leaf 1 against the same root claimed as size 4 (the unseen right subtree "is" leaf 2), so these
// tests never expect a proof to pin the size on its own.
describe('the RFC 9162 Merkle tree', () => {
  it('computes the pinned tree heads, including the empty tree as SHA-256 of nothing', () => {
    for (const [n, root] of Object.entries(PINNED_ROOTS)) expect(toHex(merkleRoot(leaves(Number(n))))).toBe(root);
  });

  it('hashes a leaf as SHA-256(0x00 || bytes) and an interior node as SHA-256(0x01 || left || right)', () => {
    const l = leafHash(new TextEncoder().encode('x'));
    expect(toHex(l)).toBe(
      createHash('sha256')
        .update(Buffer.from([0, 0x78]))
        .digest('hex'),
    );
    const two = leaves(2);
    expect(toHex(merkleRoot(two))).toBe(
      createHash('sha256')
        .update(Buffer.concat([Buffer.from([1]), two[0] as Uint8Array, two[1] as Uint8Array]))
        .digest('hex'),
    );
  });

  it('verifies every inclusion proof of every tree up to 64 leaves, and rejects wrong leaves, indexes, roots and paths', () => {
    for (let n = 1; n <= 64; n++) {
      const ls = leaves(n);
      const root = merkleRoot(ls);
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(m, ls);
        expect(verifyInclusion(m, n, ls[m] as Uint8Array, proof, root)).toBe(true);
        expect(verifyInclusion(m, n, flip(ls[m] as Uint8Array), proof, root)).toBe(false);
        expect(verifyInclusion(m, n, ls[m] as Uint8Array, proof, flip(root))).toBe(false);
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, ls[m] as Uint8Array, proof, root)).toBe(false);
        if (proof.length > 0) {
          expect(verifyInclusion(m, n, ls[m] as Uint8Array, proof.slice(1), root)).toBe(false);
          expect(
            verifyInclusion(
              m,
              n,
              ls[m] as Uint8Array,
              [...proof.slice(0, -1), flip(proof[proof.length - 1] as Uint8Array)],
              root,
            ),
          ).toBe(false);
        }
        expect(verifyInclusion(m, n, ls[m] as Uint8Array, [...proof, root], root)).toBe(false);
      }
    }
  });

  it('verifies every consistency proof between trees up to 40 leaves, and rejects wrong roots, first sizes and paths', () => {
    for (let n = 1; n <= 40; n++) {
      const ls = leaves(n);
      const second = merkleRoot(ls);
      for (let m = 1; m <= n; m++) {
        const first = merkleRoot(ls.slice(0, m));
        const proof = consistencyProof(m, ls);
        expect(verifyConsistency(m, n, first, second, proof)).toBe(true);
        expect(verifyConsistency(m, n, flip(first), second, proof)).toBe(false);
        expect(verifyConsistency(m, n, first, flip(second), proof)).toBe(false);
        if (m < n) {
          expect(verifyConsistency(m, n, first, second, proof.slice(1))).toBe(false);
          if (m > 1) expect(verifyConsistency(m - 1, n, first, second, proof)).toBe(false);
        }
      }
    }
  });

  it('rejects a consistency proof between a tree and a rewritten extension of it', () => {
    const ls = leaves(13);
    const rewritten = [...ls];
    rewritten[4] = flip(rewritten[4] as Uint8Array);
    const proof = consistencyProof(6, rewritten);
    expect(verifyConsistency(6, 13, merkleRoot(ls.slice(0, 6)), merkleRoot(rewritten), proof)).toBe(false);
  });

  it('keeps a compact frontier whose root equals the tree head at every size, and whose clone grows apart', () => {
    const ls = leaves(130);
    const f = new MerkleFrontier();
    expect(toHex(f.root())).toBe(PINNED_ROOTS[0]);
    for (let n = 1; n <= ls.length; n++) {
      f.append(ls[n - 1] as Uint8Array);
      expect(toHex(f.root())).toBe(toHex(merkleRoot(ls.slice(0, n))));
    }
    const before = toHex(f.root());
    const branch = f.clone();
    branch.append(ls[0] as Uint8Array);
    expect(toHex(f.root())).toBe(before);
    expect(toHex(branch.root())).not.toBe(before);
  });
});
