/** Byte helpers shared by the ledger: lowercase hex, SHA-256 and UTF-8, through the crypto port (crypto-port.ts). */
import { concatBytes } from '@noble/hashes/utils.js';
import { hexOf, ledgerCrypto } from './crypto-port.js';

export { concatBytes };

const utf8 = new TextEncoder();

export const utf8Bytes = (s: string): Uint8Array => utf8.encode(s);

export const toHex = (bytes: Uint8Array): string => hexOf(bytes);

// Nibble value per char code: only '0'–'9' and 'a'–'f' are hex digits here (−1 for everything else).
const NIBBLE = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 16; i++) t['0123456789abcdef'.charCodeAt(i)] = i;
  return t;
})();

/** Lowercase hex of exactly `byteLength` bytes (the only spelling the ledger accepts: no upper case, no prefix). */
export function isHex(s: unknown, byteLength: number): s is string {
  if (typeof s !== 'string' || s.length !== byteLength * 2) return false;
  for (let i = 0; i < s.length; i++) if ((NIBBLE[s.charCodeAt(i)] ?? -1) < 0) return false;
  return true;
}

/** Lowercase hex to bytes; anything else (odd length, upper case, a prefix, any other character) is a RangeError. */
export function fromHex(s: string): Uint8Array {
  if (s.length % 2 !== 0) throw new RangeError('not lowercase hex');
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = NIBBLE[s.charCodeAt(2 * i)] ?? -1;
    const lo = NIBBLE[s.charCodeAt(2 * i + 1)] ?? -1;
    if ((hi | lo) < 0) throw new RangeError('not lowercase hex');
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export function sha256(...parts: Uint8Array[]): Uint8Array {
  return ledgerCrypto().sha256(parts.length === 1 ? (parts[0] as Uint8Array) : concatBytes(...parts));
}

/** SHA-256 (lowercase hex) of exact bytes: request, pack, facts, evidence and disposition digests. */
export const sha256Hex = (bytes: Uint8Array | string): string => ledgerCrypto().sha256Hex(bytes); // strings as UTF-8

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= (a[i] as number) ^ (b[i] as number);
  return d === 0;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when a string holds no lone surrogate (so it has a UTF-8 encoding): the native String#isWellFormed (ES2024;
 * Node ≥ 20, current browsers) when present, the same test by regular expression otherwise.
 */
export const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);
