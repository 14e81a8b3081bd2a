/**
 * RFC 9162 §2.1 Merkle tree hash over entry leaf hashes, inclusion proofs (§2.1.3) and consistency proofs (§2.1.4),
 * plus a compact frontier so a scheduled checkpoint can extend a tree without rehashing every leaf.
 *   leaf  = SHA-256(0x00 || entry bytes)     (§2.1.1; computed by entryHashOf)
 *   node  = SHA-256(0x01 || left || right)
 *   MTH({}) = SHA-256()                      (§2.1.1: the hash of the empty string)
 *   split k = the largest power of two smaller than n.
 * Hashes are 32-byte Uint8Arrays here; records carry them as lowercase hex.
 */
import { bytesEqual, sha256 } from '../primitives/bytes.js';

const NODE_PREFIX = Uint8Array.of(0x01);
const LEAF_PREFIX = Uint8Array.of(0x00);

export const EMPTY_ROOT: Uint8Array = sha256();

export const leafHash = (entryBytes: Uint8Array): Uint8Array => sha256(LEAF_PREFIX, entryBytes);
// One reused 65-byte input for node hashes: the port's SHA-256 is synchronous and keeps no reference to its input,
// so no node hash allocates more than its result (a frontier append hashes one node per entry on average).
const NODE_INPUT = new Uint8Array(65);
NODE_INPUT[0] = 0x01;

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== 32 || right.length !== 32) return sha256(NODE_PREFIX, left, right);
  NODE_INPUT.set(left, 1);
  NODE_INPUT.set(right, 33);
  return sha256(NODE_INPUT);
}

/** Largest power of two strictly smaller than n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) over leaf hashes (§2.1.1). */
export function merkleRoot(leaves: readonly Uint8Array[], start = 0, end = leaves.length): Uint8Array {
  const n = end - start;
  if (n === 0) return EMPTY_ROOT;
  if (n === 1) return leaves[start] as Uint8Array;
  const k = split(n);
  return nodeHash(merkleRoot(leaves, start, start + k), merkleRoot(leaves, start + k, end));
}

/** PATH(m, D[n]) (§2.1.3.1): the audit path for leaf index m. */
export function inclusionProof(index: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError('leaf index outside the tree');
  const path = (m: number, start: number, end: number): Uint8Array[] => {
    const n = end - start;
    if (n === 1) return [];
    const k = split(n);
    if (m < k) return [...path(m, start, start + k), merkleRoot(leaves, start + k, end)];
    return [...path(m - k, start + k, end), merkleRoot(leaves, start, start + k)];
  };
  return path(index, 0, leaves.length);
}

/** PROOF(m, D[n]) (§2.1.4.1): consistency proof from the first m leaves to all n. */
export function consistencyProof(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  const n = leaves.length;
  if (!Number.isSafeInteger(m) || m < 1 || m > n) throw new RangeError('consistency proof needs 1 <= m <= n');
  const sub = (mm: number, start: number, end: number, b: boolean): Uint8Array[] => {
    const nn = end - start;
    if (mm === nn) return b ? [] : [merkleRoot(leaves, start, end)];
    const k = split(nn);
    if (mm <= k) return [...sub(mm, start, start + k, b), merkleRoot(leaves, start + k, end)];
    return [...sub(mm - k, start + k, end, false), merkleRoot(leaves, start, start + k)];
  };
  return sub(m, 0, n, true);
}

/** §2.1.3.2: verifies an inclusion proof. Never throws. */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize)
    return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(r, root);
}

/** §2.1.4.2: verifies a consistency proof between trees of size first ≤ second. Never throws. */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && bytesEqual(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0; // every tree extends the empty tree
  if (proof.length === 0) return false;
  // Step 1: if first is an exact power of 2, prepend first_hash to the proof.
  const path = isPow2(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0] as Uint8Array;
  let sr = path[0] as Uint8Array;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(fr, firstRoot) && bytesEqual(sr, secondRoot);
}

function isPow2(n: number): boolean {
  if (n < 1) return false;
  while (n % 2 === 0) n /= 2;
  return n === 1;
}

/**
 * The compact frontier of a growing tree: one subtree root per set bit of the size (largest first). Appending is
 * O(log n) hashes; the root is a right-to-left fold of the frontier. Equivalent to MTH by RFC 9162's split rule.
 */
export class MerkleFrontier {
  private readonly nodes: Uint8Array[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  append(leaf: Uint8Array): void {
    this.nodes.push(leaf);
    let n = this.count;
    // Merge equal-size subtrees: every trailing 1 bit of the old size is a left sibling to merge with.
    while (n % 2 === 1) {
      const right = this.nodes.pop() as Uint8Array;
      const left = this.nodes.pop() as Uint8Array;
      this.nodes.push(nodeHash(left, right));
      n = Math.floor(n / 2);
    }
    this.count += 1;
  }

  root(): Uint8Array {
    if (this.nodes.length === 0) return EMPTY_ROOT;
    let r = this.nodes[this.nodes.length - 1] as Uint8Array;
    for (let i = this.nodes.length - 2; i >= 0; i--) r = nodeHash(this.nodes[i] as Uint8Array, r);
    return r;
  }

  /** A copy whose later appends do not affect this frontier. */
  clone(): MerkleFrontier {
    const c = new MerkleFrontier();
    c.nodes.push(...this.nodes);
    c.count = this.count;
    return c;
  }
}
