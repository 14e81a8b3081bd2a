/**
 * Ed25519 edge cases shared by the signature tests: the malleability corpus (every case must be refused), the twelve
 * categories of Chalkias, Garillot and Nikolaenko, "Taming the many EdDSAs" (2020), Table 6 — built here from their
 * definitions, each case's defining properties asserted as it is built — and a deterministic byte stream for random
 * cases. The paper's published bytes are not reachable offline; the categories are what distinguishes verifiers.
 */
import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { fromHex } from '../../core/ledger/primitives/bytes.js';
import { ED25519_L, keyPairFromSeed, signEd25519 } from '../../core/ledger/primitives/signature.js';

export interface Case {
  readonly name: string;
  readonly sig: Uint8Array;
  readonly msg: Uint8Array;
  readonly pub: Uint8Array;
}

export const P = 2n ** 255n - 19n;

export const le = (n: bigint): Uint8Array => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};
export const leNum = (b: Uint8Array): bigint => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);
export const sha512 = (...parts: Uint8Array[]): Uint8Array => {
  const h = createHash('sha512');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
export const cat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

/** Deterministic byte stream (SHA-256 counter mode) so the random cases are the same on every run. */
export function stream(label: string): (n: number) => Uint8Array {
  let counter = 0;
  return (n) => {
    const out: number[] = [];
    while (out.length < n) out.push(...createHash('sha256').update(`${label}:${counter++}`).digest());
    return Uint8Array.from(out.slice(0, n));
  };
}

/** The 8 torsion points: the multiples of a point of order exactly 8 (checked here, not assumed). */
export function torsionPoints(): ed.Point[] {
  const t = ed.Point.fromBytes(fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'), false);
  if (!t.isSmallOrder() || t.double().double().is0()) throw new Error('expected a point of order 8');
  return Array.from({ length: 8 }, (_, k) => (k === 0 ? ed.Point.ZERO : t.multiplyUnsafe(BigInt(k))));
}

/** k = SHA-512(R || A || M) mod L (RFC 8032 §5.1.7 step 2). */
export const challenge = (r: Uint8Array, a: Uint8Array, msg: Uint8Array): bigint =>
  leNum(sha512(r, a, msg)) % ED25519_L;

/** The malleability corpus: each case must be rejected by every backend. */
export function malleabilityCorpus(): Case[] {
  const keys = keyPairFromSeed(new Uint8Array(32).fill(3));
  const msg = new TextEncoder().encode('docket malleability');
  const good = signEd25519(msg, keys.secretKey);
  const r = good.subarray(0, 32);
  const s = leNum(good.subarray(32));
  const torsion = torsionPoints();
  const cases: Case[] = [
    { name: 'S + L', sig: cat(r, le(s + ED25519_L)), msg, pub: keys.publicKey },
    { name: 'S + 2L', sig: cat(r, le(s + 2n * ED25519_L)), msg, pub: keys.publicKey },
    { name: 'S = L', sig: cat(r, le(ED25519_L)), msg, pub: keys.publicKey },
    { name: 'S with the top bits set', sig: cat(r, le((1n << 256n) - 1n)), msg, pub: keys.publicKey },
    { name: 'a flipped bit in S', sig: cat(r, le(s ^ 1n)), msg, pub: keys.publicKey },
    { name: 'a flipped bit in R', sig: cat(le(leNum(r) ^ 2n), good.subarray(32)), msg, pub: keys.publicKey },
    { name: 'a truncated signature', sig: good.subarray(0, 63), msg, pub: keys.publicKey },
    { name: 'another message', sig: good, msg: new TextEncoder().encode('docket malleabilitY'), pub: keys.publicKey },
  ];
  // Small-order public keys with R = identity and S = 0: [0]B = O + [k]A holds for every message.
  for (const [i, t] of torsion.entries()) {
    cases.push({
      name: `small-order public key #${i} with R = O, S = 0`,
      sig: cat(ed.Point.ZERO.toBytes(), le(0n)),
      msg,
      pub: t.toBytes(),
    });
    cases.push({
      name: `small-order public key #${i} with R = A, S = 0`,
      sig: cat(t.toBytes(), le(0n)),
      msg,
      pub: t.toBytes(),
    });
    cases.push({ name: `small-order R #${i}`, sig: cat(t.toBytes(), good.subarray(32)), msg, pub: keys.publicKey });
  }
  // Non-canonical encodings (y ≥ p): y = p (≡ 0), y = p + 1 (≡ 1, the identity), and x = 0 with the sign bit.
  for (const [label, enc] of [
    ['y = p', le(P)],
    ['y = p + 1', le(P + 1n)],
    ['y = 1 with the sign bit (x = 0)', le(1n | (1n << 255n))],
  ] as const) {
    cases.push({ name: `non-canonical public key ${label}`, sig: good, msg, pub: enc });
    cases.push({ name: `non-canonical R ${label}`, sig: cat(enc, good.subarray(32)), msg, pub: keys.publicKey });
  }
  // Mixed-order R: R' = [r]B + T8 with S computed honestly for R'. Cofactored verification accepts it; strict
  // cofactorless verification (OpenSSL, and ours on both paths) rejects it.
  const { scalar: a } = ed.utils.getExtendedPublicKey(keys.secretKey);
  const nonce = 123456789n;
  const rPrime = ed.Point.BASE.multiply(nonce)
    .add(torsion[1] as ed.Point)
    .toBytes();
  const k = challenge(rPrime, keys.publicKey, msg);
  cases.push({
    name: 'mixed-order R (torsion component)',
    sig: cat(rPrime, le((nonce + k * a) % ED25519_L)),
    msg,
    pub: keys.publicKey,
  });
  return cases;
}

export interface TamingCase extends Case {
  /** What Docket's strict cofactorless verifier answers, written by hand from the case's definition. */
  readonly strict: boolean;
}

const isMixedOrder = (p: ed.Point): boolean => !p.isSmallOrder() && !p.isTorsionFree();
const isPrimeOrder = (p: ed.Point): boolean => !p.is0() && p.isTorsionFree();
function check(cond: boolean, what: string): void {
  if (!cond) throw new Error(`Taming case construction: ${what}`);
}
/** Cofactorless equation on points: [S]B = R + [k]A. */
const cofactorless = (s: bigint, r: ed.Point, k: bigint, a: ed.Point): boolean =>
  ed.Point.BASE.multiplyUnsafe(s).equals(r.add(a.multiplyUnsafe(k)));
/** Cofactored equation: [8][S]B = [8]R + [8][k]A. */
const cofactored = (s: bigint, r: ed.Point, k: bigint, a: ed.Point): boolean =>
  ed.Point.BASE.multiplyUnsafe(s)
    .clearCofactor()
    .equals(r.add(a.multiplyUnsafe(k)).clearCofactor());

/**
 * The twelve "Taming the many EdDSAs" categories (Table 6, cases 0–11). Docket accepts exactly case 3 (mixed-order A
 * and R that satisfy the cofactorless equation): its pre-checks refuse small-order A and R, S ≥ L and non-canonical
 * encodings, and the equation is cofactorless.
 */
export function tamingCases(): TamingCase[] {
  const T = torsionPoints();
  const T1 = T[1] as ed.Point;
  const msg = new TextEncoder().encode('taming the many EdDSAs');
  const a = 0x1234567890abcdef1234567890abcdefn;
  const A = ed.Point.BASE.multiply(a);
  const mixedA = A.add(T1);
  const out: TamingCase[] = [];
  const push = (name: string, r: Uint8Array, s: Uint8Array, pub: Uint8Array, strict: boolean): void => {
    out.push({ name: `Taming case ${name}`, sig: cat(r, s), msg, pub, strict });
  };

  // 0: small-order A and R, S = 0; both equations hold when R = −[k]A (k depends on R: searched over messages).
  {
    const A0 = T[2] as ed.Point;
    let found = false;
    for (let i = 0; i < 64 && !found; i++) {
      const m = cat(msg, Uint8Array.of(i));
      for (const R0 of T) {
        const k = challenge(R0.toBytes(), A0.toBytes(), m);
        if (!cofactorless(0n, R0, k, A0)) continue;
        check(cofactored(0n, R0, k, A0), 'case 0 cofactored');
        out.push({
          name: 'Taming case 0 (small-order A and R, S = 0)',
          sig: cat(R0.toBytes(), le(0n)),
          msg: m,
          pub: A0.toBytes(),
          strict: false,
        });
        found = true;
        break;
      }
    }
    check(found, 'case 0 needs R = −[k]A among the torsion points');
  }
  // 1: small-order A, mixed-order R = [r]B + T', S = r: the cofactored equation holds.
  {
    const A0 = T[3] as ed.Point;
    const r = 777n;
    const R = ed.Point.BASE.multiply(r).add(T[5] as ed.Point);
    const k = challenge(R.toBytes(), A0.toBytes(), msg);
    check(isMixedOrder(R) && cofactored(r, R, k, A0), 'case 1');
    push('1 (small-order A, mixed-order R)', R.toBytes(), le(r), A0.toBytes(), false);
  }
  // 2: mixed-order A, small-order R, S = k·a: the cofactored equation holds.
  {
    const R = T[4] as ed.Point;
    const k = challenge(R.toBytes(), mixedA.toBytes(), msg);
    const s = (k * a) % ED25519_L;
    check(isMixedOrder(mixedA) && cofactored(s, R, k, mixedA), 'case 2');
    push('2 (mixed-order A, small-order R)', R.toBytes(), le(s), mixedA.toBytes(), false);
  }
  // 3 and 4: mixed-order A and R = [r]B + T'. Both equations hold when T' = −[k]T1 (3); only the cofactored one
  // otherwise (4). 5: R of prime order with [k]T1 ≠ O: only the cofactored equation holds.
  {
    let three: TamingCase | null = null;
    let four: TamingCase | null = null;
    let five: TamingCase | null = null;
    for (let r = 1000n; three === null || four === null || five === null; r++) {
      const rB = ed.Point.BASE.multiply(r);
      for (const t of [T[1], T[6], ed.Point.ZERO] as ed.Point[]) {
        const R = rB.add(t);
        const k = challenge(R.toBytes(), mixedA.toBytes(), msg);
        const s = (r + k * a) % ED25519_L;
        const less = cofactorless(s, R, k, mixedA);
        check(cofactored(s, R, k, mixedA), 'cases 3–5 cofactored');
        const sig = { sig: cat(R.toBytes(), le(s)), msg, pub: mixedA.toBytes() };
        if (isMixedOrder(R) && less && three === null)
          three = { name: 'Taming case 3 (mixed-order A and R, cofactorless holds)', ...sig, strict: true };
        if (isMixedOrder(R) && !less && four === null)
          four = { name: 'Taming case 4 (mixed-order A and R, only cofactored holds)', ...sig, strict: false };
        if (isPrimeOrder(R) && !less && five === null)
          five = { name: 'Taming case 5 (mixed-order A, prime-order R, only cofactored)', ...sig, strict: false };
      }
    }
    out.push(three, four, five);
  }
  // 6 and 7: prime-order A and R, a valid signature with S + L (6) and S + 15L, its top bits set (7).
  {
    const r = 4242n;
    const R = ed.Point.BASE.multiply(r);
    const k = challenge(R.toBytes(), A.toBytes(), msg);
    const s = (r + k * a) % ED25519_L;
    check(cofactorless(s, R, k, A) && s + 15n * ED25519_L >= 2n ** 255n, 'cases 6–7');
    push('6 (S + L)', R.toBytes(), le(s + ED25519_L), A.toBytes(), false);
    push('7 (S + 15L, top bits set)', R.toBytes(), le(s + 15n * ED25519_L), A.toBytes(), false);
  }
  // 8 and 9: mixed-order A, R a non-canonical encoding of a small-order point (y = p + 1 ≡ 1, the identity; and
  // y = p ≡ 0 with the sign bit), S = k·a so that a lax decoder's cofactored equation holds.
  for (const [name, enc] of [
    ['8 (non-canonical R: y = p + 1, the identity)', le(P + 1n)],
    ['9 (non-canonical R: y = p with the sign bit)', le(P | (1n << 255n))],
  ] as const) {
    const k = challenge(enc, mixedA.toBytes(), msg);
    push(name, enc, le((k * a) % ED25519_L), mixedA.toBytes(), false);
  }
  // 10 and 11: A a non-canonical encoding of a small-order point — the identity (y = p + 1; [S]B = R + [k]O holds
  // for a lax decoder with R = [r]B, S = r) and a point of order 4 (y = p ≡ 0, with the sign bit).
  for (const [name, enc] of [
    ['10 (non-canonical A: y = p + 1, the identity)', le(P + 1n)],
    ['11 (non-canonical A: y = p with the sign bit)', le(P | (1n << 255n))],
  ] as const) {
    const r = 99n;
    push(name, ed.Point.BASE.multiply(r).toBytes(), le(r), enc, false);
  }
  return out;
}
