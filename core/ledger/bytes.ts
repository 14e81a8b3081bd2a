/** Byte helpers shared by the ledger: lowercase hex, SHA-256 and UTF-8. node:crypto hashing is pure and deterministic. */
import { createHash, hash } from 'node:crypto';

const utf8 = new TextEncoder();

export const utf8Bytes = (s: string): Uint8Array => utf8.encode(s);

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Lowercase hex of exactly `byteLength` bytes (the only spelling the ledger accepts: no upper case, no prefix). */
export function isHex(s: unknown, byteLength: number): s is string {
  return typeof s === 'string' && s.length === byteLength * 2 && /^[0-9a-f]*$/.test(s);
}

export function fromHex(s: string): Uint8Array {
  if (s.length % 2 !== 0 || !/^[0-9a-f]*$/.test(s)) throw new RangeError('not lowercase hex');
  return new Uint8Array(Buffer.from(s, 'hex'));
}

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

/** SHA-256 (lowercase hex) of exact bytes: request, pack, facts, evidence and disposition digests. */
export const sha256Hex = (bytes: Uint8Array | string): string => hash('sha256', bytes, 'hex'); // strings as UTF-8

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= (a[i] as number) ^ (b[i] as number);
  return d === 0;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string holds no lone surrogate (so it has a UTF-8 encoding). */
export const isWellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);
