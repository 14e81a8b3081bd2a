/**
 * The one builder and the one strict reader of ledger entries (docs/ledger-format.md).
 *
 * Builder: checks every invariant (entry-rules.ts), signs ENTRY_SIGNATURE_DOMAIN || RFC 8785(entry without
 * `signature`), and emits the RFC 8785 bytes of the signed entry — the exact stored body.
 * Reader: strict carrier (duplicates, lone surrogates, invalid UTF-8 → malformed), integers only, every invariant,
 * and the stored bytes must equal the canonical form of what they parse to; anything else is `malformed`, never
 * repaired. A different format version is `unsupported-version`.
 */
import { err, ok, type Result } from '../../result.js';
import { concatBytes, fromHex, sha256Hex, toHex, utf8Bytes } from '../primitives/bytes.js';
import {
  canonicalMembers,
  canonicalText,
  joinMembers,
  LedgerValueError,
  provenCanonicalValue,
  readCanonicalRecord,
} from '../primitives/canonical.js';
import { entryViolation } from './entry-rules.js';
import { ENTRY_FORMAT_PREFIX, ENTRY_FORMATS, type SignedEntry, type UnsignedEntry } from './entry-types.js';
import { ENTRY_SIGNATURE_DOMAIN, verifyEd25519, type SignatureBackend, type Signer } from '../primitives/signature.js';
import { otherVersion } from '../primitives/shape.js';
import type { StoredEntry } from '../store/store.js';

/** A bug in the caller (an entry that breaks an invariant): thrown, never written. */
export class EntryInvariantError extends Error {
  override readonly name = 'EntryInvariantError';
  readonly code = 'entry-invariant';
  constructor(readonly invariant: string) {
    super(`ledger entry invariant violated: ${invariant}`);
  }
}

/** The exact message an entry signature covers: domain prefix || RFC 8785 bytes of the entry without `signature`. */
export function entrySigningMessage(entry: UnsignedEntry): Uint8Array {
  const { signature: _drop, ...unsigned } = entry as UnsignedEntry & { signature?: string };
  return signingMessage(canonicalText(unsigned));
}

function signingMessage(unsignedText: string): Uint8Array {
  // The domain prefix is ASCII, so encoding prefix + text at once gives the same bytes with one copy.
  return utf8Bytes(ENTRY_SIGNATURE_DOMAIN + unsignedText);
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
  let members: [string, string][];
  try {
    members = canonicalMembers(unsigned as unknown as Record<string, unknown>);
  } catch (e) {
    if (e instanceof LedgerValueError) throw new EntryInvariantError(e.message);
    throw e;
  }
  const signature = signer.sign(signingMessage(joinMembers(members)));
  if (signature.length !== 64) throw new EntryInvariantError('the signer returns a 64-byte Ed25519 signature');
  const hex = toHex(signature);
  // The body is the same canonical text with the signature member spliced in at its RFC 8785 position.
  const at = members.findIndex(([k]) => k > 'signature');
  members.splice(at === -1 ? members.length : at, 0, ['signature', `"signature":"${hex}"`]);
  const body = joinMembers(members);
  const entry = { ...unsigned, signature: hex } as SignedEntry;
  return { entry, body, entryHash: entryHashOf(body) };
}

const LEAF_PREFIX = Uint8Array.of(0x00);
// ignoreBOM: a leading U+FEFF stays in the text, where the reader refuses it, as the carrier does (docs/adr/0010).
const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Entry hash (hex): RFC 9162 §2.1.1 leaf hash of the exact stored bytes. The chain's prevHash uses the same value. */
export function entryHashOf(body: string | Uint8Array): string {
  // One-shot hashing of one buffer is markedly cheaper than a streaming Hash object.
  return sha256Hex(typeof body === 'string' ? `\0${body}` : concatBytes(LEAF_PREFIX, body));
}

/** The entry hash as 32 bytes (the Merkle leaf): entryHashOf's value decoded (hashing to hex is the cheaper call). */
export const entryLeafHash = (body: string): Uint8Array => fromHex(entryHashOf(body));

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
  /** The exact message the signature must cover (domain prefix + canonical text without `signature`). */
  readonly signingMessage: Uint8Array;
}

const SIGNATURE_MEMBER = ',"signature":"';

/**
 * The unsigned canonical text, cut out of a canonical signed body: removing one member of a canonical object leaves
 * the canonical text of the rest. The top-level `signature` member is the last `,"signature":"` in the text:
 * every member sorted after it (specVersion, supportedExtensions, time, work, workBudget) holds no object, and inside a
 * string a quote is always escaped. The caller has already checked the body is canonical.
 */
function unsignedTextOf(body: string, signatureHex: string): string | null {
  const at = body.lastIndexOf(SIGNATURE_MEMBER);
  const end = at + SIGNATURE_MEMBER.length + 128;
  if (at < 0 || body.slice(at + SIGNATURE_MEMBER.length, end) !== signatureHex || body[end] !== '"') return null;
  return body.slice(0, at) + body.slice(end + 1);
}

/** The stored text of `bytes`, or null when they are not UTF-8 (the strict reader then says why). */
function textOf(bytes: Uint8Array): string | null {
  try {
    return FATAL_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Strict reader of stored entry bytes. Never throws for bad input. The text is read as readCanonicalText reads it, by
 * the strict reader's checked fast path (same answers, docs/adr/0093-verify-performance.md); bytes that are not UTF-8 go
 * to the strict reader itself.
 */
export function parseStoredEntry(bytes: Uint8Array | string): Result<ParsedEntry, EntryReadError> {
  const text = typeof bytes === 'string' ? bytes : textOf(bytes);
  // readCanonicalText's two steps, so the rules below know when the fast path proved the value sorted (ADR 0494).
  const proven = text === null ? undefined : provenCanonicalValue(text);
  const read =
    proven !== undefined
      ? ok(proven.value)
      : readCanonicalRecord(text === null ? (bytes as Uint8Array) : utf8Bytes(text));
  if (!read.ok) return err({ code: 'malformed', detail: read.error });
  const plain = read.value;
  const other = otherVersion(plain, ENTRY_FORMAT_PREFIX, ENTRY_FORMATS);
  if (other !== null) return err({ code: 'unsupported-version', detail: `format ${other}` });
  const violation = entryViolation(plain, true, proven !== undefined);
  if (violation !== null) return err({ code: 'malformed', detail: violation });
  const entry = plain as SignedEntry;
  // The strict read succeeded, so `text` is the stored bytes' text (a string input decoding itself).
  const unsigned = unsignedTextOf(text as string, entry.signature);
  if (unsigned === null) return err({ code: 'malformed', detail: 'signature member not found where RFC 8785 puts it' });
  return ok({ entry, entryHash: entryHashOf(bytes), signingMessage: signingMessage(unsigned) });
}

/** Strict signature check of a read entry, using the message cut from its stored bytes (no re-serialization). */
export function verifyParsedEntrySignature(
  parsed: ParsedEntry,
  publicKey: Uint8Array,
  backend: SignatureBackend = 'node',
): boolean {
  return verifyEd25519(fromHex(parsed.entry.signature), parsed.signingMessage, publicKey, backend);
}

/**
 * The signing message of an entry read strictly from `body` (its canonical text), cut from those bytes: the same
 * bytes entrySigningMessage(entry) re-serializes (removing one member of a canonical object leaves the canonical
 * text of the rest), without the second serialization. Falls back to re-serializing if the member is not found.
 */
export function storedSigningMessage(body: string, entry: SignedEntry): Uint8Array {
  const unsigned = unsignedTextOf(body, entry.signature);
  return unsigned === null ? entrySigningMessage(entry) : signingMessage(unsigned);
}

/** Strict signature check of an entry read strictly from `body`, its message cut from those bytes (storedSigningMessage). */
export function verifyStoredEntrySignature(
  body: string,
  entry: SignedEntry,
  publicKey: Uint8Array,
  backend: SignatureBackend = 'node',
): boolean {
  return verifyEd25519(fromHex(entry.signature), storedSigningMessage(body, entry), publicKey, backend);
}

/** An error or refusal message cut to the entry's cap (1024 UTF-8 bytes) at a character boundary, marked "...". */
export function capMessage(message: string, maxBytes = 1024): string {
  if (utf8Bytes(message).length <= maxBytes) return message;
  // encodeInto writes whole characters only: `read` ends the longest prefix that fits before the marker.
  const { read } = new TextEncoder().encodeInto(message, new Uint8Array(maxBytes - 3));
  return `${message.slice(0, read)}...`;
}
