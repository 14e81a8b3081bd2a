/**
 * Ed25519 signing and strict verification for ledger entries and checkpoints: Docket's own pre-checks (S < L,
 * canonical A and R, neither of small order) and the cofactorless RFC 8032 §5.1.7 equation, identically on the node
 * and noble paths — docs/adr/0051-entry-hash-signatures-and-key-ids.md gives the rules and why (noble's own verify is
 * cofactored); test/ledger/signature.test.ts proves the paths agree. Private keys are parameters only: never logged,
 * never serialized into any record.
 */
import * as ed from '@noble/ed25519';
import { bytesEqual, concatBytes, fromHex, sha256, toHex } from './bytes.js';
import { ledgerCrypto } from './crypto-port.js';

// noble v3 needs a synchronous SHA-512: the installed crypto port's (crypto-port.ts).
const sha512 = (m: Uint8Array): Uint8Array => ledgerCrypto().sha512(m);
ed.hashes.sha512 = sha512 as typeof ed.hashes.sha512;

/** Group order L (RFC 8032 §5.1). */
export const ED25519_L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;

/**
 * 'node': the installed crypto port's native Ed25519 (node:crypto in Node programs, WebCrypto-backed in the offline
 * page; the strict noble equation below when the port has none). 'noble': always the @noble/ed25519 equation.
 */
export type SignatureBackend = 'node' | 'noble';

export interface Ed25519KeyPair {
  /** 32-byte RFC 8032 secret seed. Never log or store it in a record. */
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
}

/**
 * Key id = "ed25519:" + lowercase hex of the first 16 bytes of SHA-256(public key) (docs/adr/0051). It names the key
 * in entries, checkpoints and trust policies; verifiers recompute it from the pinned public key.
 */
export function keyIdOf(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new RangeError('an Ed25519 public key is 32 bytes');
  return `ed25519:${toHex(sha256(publicKey).subarray(0, 16))}`;
}

export const KEY_ID_PATTERN = /^ed25519:[0-9a-f]{32}$/;

/** Derives the key pair from a 32-byte seed. Core has no randomness: the caller supplies the entropy. */
export function keyPairFromSeed(seed: Uint8Array): Ed25519KeyPair {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  const secretKey = Uint8Array.from(seed);
  const publicKey = ed.getPublicKey(secretKey);
  const keyId = keyIdOf(publicKey);
  const pair = { secretKey, publicKey, keyId };
  // JSON.stringify and console.log / util.inspect show the public half only; the secret is read explicitly or never.
  const visible = (): { keyId: string; publicKey: string } => ({ keyId, publicKey: toHex(publicKey) });
  Object.defineProperty(pair, 'toJSON', { value: visible, enumerable: false });
  Object.defineProperty(pair, Symbol.for('nodejs.util.inspect.custom'), { value: visible, enumerable: false });
  return pair;
}

/** Generates a key pair from caller-supplied entropy (e.g. node:crypto randomBytes in cli/ or adapters/). */
export function generateKeyPair(randomBytes: (n: number) => Uint8Array): Ed25519KeyPair {
  return keyPairFromSeed(randomBytes(32));
}

// The SPKI DER prefix of a raw Ed25519 public key (RFC 8410 §4).
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

/**
 * The raw 32-byte Ed25519 public key inside a DER SubjectPublicKeyInfo (RFC 8410 §4: exactly the SPKI prefix above
 * and 32 bytes), or null when it is anything else — what KMS GetPublicKey returns for an ECC_NIST_EDWARDS25519 key.
 */
export function ed25519FromSpki(der: Uint8Array): Uint8Array | null {
  if (der.length !== SPKI_PREFIX.length + 32) return null;
  if (!bytesEqual(der.subarray(0, SPKI_PREFIX.length), SPKI_PREFIX)) return null;
  return Uint8Array.from(der.subarray(SPKI_PREFIX.length));
}

/** Ed25519 signature (RFC 8032 §5.1.6; deterministic, so both backends produce the same 64 bytes). */
export function signEd25519(
  message: Uint8Array,
  secretKey: Uint8Array,
  backend: SignatureBackend = 'node',
): Uint8Array {
  if (secretKey.length !== 32) throw new RangeError('an Ed25519 secret key is 32 bytes');
  const native = ledgerCrypto().ed25519Sign;
  if (backend === 'noble' || native === undefined) return ed.sign(message, secretKey);
  return native(message, secretKey);
}

function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

/** n as 32 little-endian bytes (n < 2^256). */
function littleEndianBytes(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}
const L_BYTES = littleEndianBytes(ED25519_L);
const P_BYTES = littleEndianBytes(P);

/**
 * a < b for 32-byte little-endian numbers, the top bit of `a` cleared when `clearTop` (the sign bit of a point
 * encoding): a byte comparison from the most significant end, the same answer as comparing the integers.
 */
function lessThan(a: Uint8Array, b: Uint8Array, clearTop: boolean): boolean {
  for (let i = 31; i >= 0; i--) {
    const x = i === 31 && clearTop ? (a[i] as number) & 0x7f : (a[i] as number);
    const y = b[i] as number;
    if (x !== y) return x < y;
  }
  return false;
}

/** y < p once the sign bit is cleared (RFC 8032 §5.1.3 decoding step 1). */
const isCanonicalEncoding = (enc: Uint8Array): boolean => lessThan(enc, P_BYTES, true);

/** Strict decoding (noble, zip215: false): canonical y, x = 0 never with the sign bit; null when not a point. */
function decodePoint(enc: Uint8Array): ed.Point | null {
  if (!isCanonicalEncoding(enc)) return null;
  try {
    return ed.Point.fromBytes(enc, false);
  } catch {
    return null;
  }
}

const smallOrderCache = new Map<string, boolean>();

/** A public key the ledger accepts: a canonical encoding of a point that is not of small order. */
export function isAcceptablePublicKey(publicKey: Uint8Array): boolean {
  if (publicKey.length !== 32) return false;
  const a = decodePoint(publicKey);
  return a !== null && !a.isSmallOrder();
}

/**
 * Encodings of the eight small-order points (the multiples of a point of order 8), plus the x = 0 encodings with the
 * sign bit set. Computed once; test/ledger/signature.test.ts checks each really is of small order.
 */
export const SMALL_ORDER_ENCODINGS: ReadonlySet<string> = (() => {
  const t = ed.Point.fromBytes(fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'), false);
  const out = new Set<string>();
  for (let k = 0n; k < 8n; k++) out.add(toHex((k === 0n ? ed.Point.ZERO : t.multiplyUnsafe(k)).toBytes()));
  for (const y of ['01', 'ec']) {
    const enc = new Uint8Array(32).fill(y === 'ec' ? 0xff : 0);
    enc[0] = Number.parseInt(y, 16);
    enc[31] = y === 'ec' ? 0xff : 0x80; // y = 1 or y = p − 1 with the sign bit set (x = 0)
    out.add(toHex(enc));
  }
  return out;
})();

/**
 * Pre-checks shared by both backends: lengths, S < L, A a canonical non-small-order point (decoded once per key and
 * cached), R a canonical encoding that is not of small order. R is not decoded: a canonical encoding that is not on
 * the curve can never equal the encoding of [S]B − [k]A, so both backends reject it in the final comparison.
 */
export function passesStrictPrechecks(signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  if (!lessThan(signature.subarray(32), L_BYTES, false)) return false; // RFC 8032 §5.1.7 step 1: S < L
  const pubHex = toHex(publicKey);
  let aBad = smallOrderCache.get(pubHex);
  if (aBad === undefined) {
    const a = decodePoint(publicKey);
    aBad = a === null || a.isSmallOrder();
    if (smallOrderCache.size > 1024) smallOrderCache.clear();
    smallOrderCache.set(pubHex, aBad);
  }
  if (aBad) return false;
  const r = signature.subarray(0, 32);
  return isCanonicalEncoding(r) && !SMALL_ORDER_ENCODINGS.has(toHex(r));
}

function nobleCofactorless(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const a = decodePoint(publicKey);
  // Strict decoding of R too, so noble's own point rules apply (the comparison below would reject it anyway).
  if (decodePoint(signature.subarray(0, 32)) === null) return false;
  if (a === null) return false;
  const s = littleEndian(signature.subarray(32));
  const rBytes = signature.subarray(0, 32);
  const k = littleEndian(sha512(concatBytes(rBytes, publicKey, message))) % ED25519_L;
  // RFC 8032 §5.1.7: check [S]B = R + [k]A by encoding [S]B − [k]A and comparing it with the R bytes.
  const check = ed.Point.BASE.multiply(s, false).subtract(a.multiply(k, false));
  return bytesEqual(check.toBytes(), rBytes);
}

/** Strict Ed25519 verification (see the module header). Never throws for bad input. */
export function verifyEd25519(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
  backend: SignatureBackend = 'node',
): boolean {
  if (!passesStrictPrechecks(signature, publicKey)) return false;
  const native = ledgerCrypto().ed25519Verify;
  if (backend === 'noble' || native === undefined) return nobleCofactorless(signature, message, publicKey);
  try {
    return native(signature, message, publicKey);
  } catch {
    return false;
  }
}

/** Domain-separation prefixes: an entry signature can never be presented as a checkpoint signature or vice versa. */
export const ENTRY_SIGNATURE_DOMAIN = 'docket.ledger-entry.v1\0';
export const CHECKPOINT_SIGNATURE_DOMAIN = 'docket.checkpoint.v1\0';

/** A signer held by the caller; core never stores it. */
export interface Signer {
  readonly keyId: string;
  /** The public half, when the signer knows it: checkpoint notes name their key by it (core/ledger/checkpoints/checkpoint-note.ts). */
  readonly publicKey?: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export function signerFromKeyPair(keys: Ed25519KeyPair, backend: SignatureBackend = 'node'): Signer {
  const secret = keys.secretKey;
  return {
    keyId: keys.keyId,
    publicKey: keys.publicKey,
    sign: (m) => signEd25519(m, secret, backend),
    // Keep the secret out of JSON.stringify / util.inspect output of the signer.
    toJSON: () => ({ keyId: keys.keyId }),
    [Symbol.for('nodejs.util.inspect.custom')]: () => ({ keyId: keys.keyId }),
  } as Signer;
}
