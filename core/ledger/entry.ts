/**
 * The one builder and the one strict reader of ledger entries (docs/ledger-format.md).
 *
 * Builder: checks every invariant (entry-rules.ts), signs ENTRY_SIGNATURE_DOMAIN || RFC 8785(entry without
 * `signature`), and emits the RFC 8785 bytes of the signed entry — the exact stored body.
 * Reader: strict carrier (duplicates, lone surrogates, invalid UTF-8 → malformed), integers only, every invariant,
 * and the stored bytes must equal the canonical form of what they parse to; anything else is `malformed`, never
 * repaired. A different format version is `unsupported-version`.
 */
import { err, ok, type Result } from '../result.js';
import { fromHex, sha256, toHex, utf8Bytes } from './bytes.js';
import { canonicalText, LedgerValueError, readCanonicalRecord } from './canonical.js';
import { entryViolation } from './entry-rules.js';
import { ENTRY_FORMAT, ENTRY_FORMAT_PREFIX, type SignedEntry, type UnsignedEntry } from './entry-types.js';
import { ENTRY_SIGNATURE_DOMAIN, verifyEd25519, type SignatureBackend, type Signer } from './signature.js';
import type { StoredEntry } from './store.js';

/** A bug in the caller (an entry that breaks an invariant): thrown, never written. */
export class EntryInvariantError extends Error {
  override readonly name = 'EntryInvariantError';
  readonly code = 'entry-invariant';
  constructor(readonly invariant: string) {
    super(`ledger entry invariant violated: ${invariant}`);
  }
}

const ENTRY_DOMAIN_BYTES = utf8Bytes(ENTRY_SIGNATURE_DOMAIN);

/** The exact message an entry signature covers: domain prefix || RFC 8785 bytes of the entry without `signature`. */
export function entrySigningMessage(entry: UnsignedEntry): Uint8Array {
  const { signature: _drop, ...unsigned } = entry as UnsignedEntry & { signature?: string };
  const text = utf8Bytes(canonicalText(unsigned));
  const m = new Uint8Array(ENTRY_DOMAIN_BYTES.length + text.length);
  m.set(ENTRY_DOMAIN_BYTES, 0);
  m.set(text, ENTRY_DOMAIN_BYTES.length);
  return m;
}

export interface BuiltEntry {
  readonly entry: SignedEntry;
  /** The RFC 8785 text of the signed entry: the stored body. */
  readonly body: string;
  /** Entry hash = RFC 9162 leaf hash SHA-256(0x00 || body bytes), lowercase hex (docs/adr/0051). */
  readonly entryHash: string;
}

/** Builds, checks and signs an entry. Throws EntryInvariantError when `unsigned` breaks an invariant (a caller bug). */
export function buildEntry(unsigned: UnsignedEntry, signer: Signer): BuiltEntry {
  const violation = entryViolation(unsigned, false);
  if (violation !== null) throw new EntryInvariantError(violation);
  if (unsigned.keyId !== signer.keyId) throw new EntryInvariantError('keyId names the signing key');
  let message: Uint8Array;
  try {
    message = entrySigningMessage(unsigned);
  } catch (e) {
    if (e instanceof LedgerValueError) throw new EntryInvariantError(e.message);
    throw e;
  }
  const signature = signer.sign(message);
  if (signature.length !== 64) throw new EntryInvariantError('the signer returns a 64-byte Ed25519 signature');
  const entry = { ...unsigned, signature: toHex(signature) } as SignedEntry;
  const body = canonicalText(entry);
  return { entry, body, entryHash: entryHashOf(body) };
}

const LEAF_PREFIX = Uint8Array.of(0x00);

/** Entry hash (hex): RFC 9162 §2.1.1 leaf hash of the exact stored bytes. The chain's prevHash uses the same value. */
export function entryHashOf(body: string | Uint8Array): string {
  return toHex(sha256(LEAF_PREFIX, typeof body === 'string' ? utf8Bytes(body) : body));
}

/** The stored item for a built entry: exact body + the unsigned query projection. */
export function toStoredEntry(built: BuiltEntry): StoredEntry {
  return {
    logId: built.entry.logId,
    seq: built.entry.seq,
    body: built.body,
    projection: { requestId: built.entry.requestId, kind: built.entry.kind, entryHash: built.entryHash },
  };
}

export type EntryReadErrorCode = 'malformed' | 'unsupported-version';
export interface EntryReadError {
  readonly code: EntryReadErrorCode;
  /** Why, for people (never compared): e.g. "carrier: duplicate-member", "not canonical", the first broken invariant. */
  readonly detail: string;
}

export interface ParsedEntry {
  readonly entry: SignedEntry;
  readonly entryHash: string;
}

/** Strict reader of stored entry bytes. Never throws for bad input. */
export function parseStoredEntry(bytes: Uint8Array | string): Result<ParsedEntry, EntryReadError> {
  const raw = typeof bytes === 'string' ? utf8Bytes(bytes) : bytes;
  const read = readCanonicalRecord(raw);
  if (!read.ok) return err({ code: 'malformed', detail: read.error });
  const plain = read.value;
  if (typeof plain === 'object' && plain !== null && !Array.isArray(plain)) {
    const f = (plain as Record<string, unknown>).format;
    if (typeof f === 'string' && f !== ENTRY_FORMAT && f.startsWith(ENTRY_FORMAT_PREFIX)) {
      return err({ code: 'unsupported-version', detail: `format ${f}` });
    }
  }
  const violation = entryViolation(plain, true);
  if (violation !== null) return err({ code: 'malformed', detail: violation });
  return ok({ entry: plain as SignedEntry, entryHash: toHex(sha256(LEAF_PREFIX, raw)) });
}

/** Strict signature check of a parsed entry against a public key (the key id match is the caller's policy check). */
export function verifyEntrySignature(entry: SignedEntry, publicKey: Uint8Array, backend: SignatureBackend = 'node'): boolean {
  return verifyEd25519(fromHex(entry.signature), entrySigningMessage(entry), publicKey, backend);
}

/** Truncates an error message to the entry's cap at a code point boundary (so a long evaluator message still fits). */
export function capMessage(message: string, maxBytes = 1024): string {
  const wf = message.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  if (Buffer.byteLength(wf, 'utf8') <= maxBytes) return wf;
  let out = '';
  let n = 0;
  for (const ch of wf) {
    const b = Buffer.byteLength(ch, 'utf8');
    if (n + b > maxBytes - 3) break;
    out += ch;
    n += b;
  }
  return `${out}…`;
}
