/**
 * C2SP signed-note (c2sp.org/signed-note): UTF-8 note text ending in a newline, an empty line, then one or more
 * signature lines `— <key name> <base64(4-byte key ID ‖ signature)>\n`. The signed message is the text with its
 * final newline. One serializer (validates, then emits) and one strict reader; both never touch a key.
 */
import { err, ok, type Result } from '../../result.js';
import { concatBytes, isWellFormed, sha256, utf8Bytes } from '../primitives/bytes.js';

/** Signature types of the key ID hash (signed-note "Signature types"). */
export const NOTE_SIG_ED25519 = 0x01;
export const NOTE_SIG_COSIGNATURE_V1 = 0x04;

/** The reader accepts at least 16 signature lines (signed-note "Verifying"); more is refused to bound the work. */
export const MAX_NOTE_SIGNATURES = 64;

export interface NoteSignature {
  readonly name: string;
  /** 4 bytes. */
  readonly keyId: Uint8Array;
  readonly signature: Uint8Array;
}

export interface SignedNote {
  /** The signed text, ending in "\n". */
  readonly text: string;
  readonly signatures: readonly NoteSignature[];
}

export interface NoteReadError {
  readonly code: 'note-malformed';
  readonly detail: string;
}

const EM_DASH = '\u2014';
// signed-note: no ASCII control characters in the text but the newline.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;
// Key names: non-empty, no Unicode spaces, no "+" (signed-note "Signatures").
const BAD_NAME = /[\s+\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const isValidKeyName = (name: string): boolean => name.length > 0 && !BAD_NAME.test(name);

/** Strict standard base64 (RFC 4648 §4, padded, canonical): round-trips exactly or is refused. */
export function decodeBase64Strict(s: string): Uint8Array | null {
  if (!BASE64.test(s)) return null;
  const bin = atob(s);
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
  if (encodeBase64(b) !== s) return null;
  return b;
}
export function encodeBase64(b: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < b.length; i++) bin += String.fromCharCode(b[i] as number);
  return btoa(bin);
}

/** Key ID = SHA-256(key name ‖ 0x0A ‖ signature type ‖ public key)[:4] (signed-note "Key IDs"). */
export function noteKeyId(name: string, type: number, publicKey: Uint8Array): Uint8Array {
  return sha256(utf8Bytes(name), Uint8Array.of(0x0a, type), publicKey).subarray(0, 4);
}

/** First violated rule of a note text, or null. */
export function noteTextViolation(text: string): string | null {
  if (text.length === 0 || !text.endsWith('\n')) return 'the note text ends with a newline';
  if (text.includes('\n\n') || text.startsWith('\n')) return 'the note text holds no empty line';
  if (CONTROL.test(text)) return 'the note text holds no control character but newline';
  if (!isWellFormed(text)) return 'the note text is well-formed Unicode';
  return null;
}

export class NoteInvariantError extends Error {
  override readonly name = 'NoteInvariantError';
  readonly code = 'note-invariant';
}

/** The one serializer: text, empty line, one line per signature. Throws NoteInvariantError on a bug. */
export function serializeSignedNote(note: SignedNote): string {
  const v = noteTextViolation(note.text);
  if (v !== null) throw new NoteInvariantError(v);
  if (note.signatures.length === 0 || note.signatures.length > MAX_NOTE_SIGNATURES)
    throw new NoteInvariantError(`a note carries 1…${MAX_NOTE_SIGNATURES} signatures`);
  return `${note.text}\n${note.signatures.map(signatureLine).join('')}`;
}

/** One signature line, `— name base64(keyId ‖ sig)\n`. */
export function signatureLine(s: NoteSignature): string {
  if (!isValidKeyName(s.name)) throw new NoteInvariantError('a key name is non-empty, without spaces or "+"');
  if (s.keyId.length !== 4 || s.signature.length === 0)
    throw new NoteInvariantError('a signature line has a 4-byte key ID and a signature');
  return `${EM_DASH} ${s.name} ${encodeBase64(concatBytes(s.keyId, s.signature))}\n`;
}

/** Strict reader of signature lines (each ends in "\n"), e.g. a witness's 200 response body. */
export function readSignatureLines(block: string): Result<NoteSignature[], NoteReadError> {
  if (block.length === 0 || !block.endsWith('\n')) return err(bad('signature lines end with a newline'));
  const out: NoteSignature[] = [];
  for (const line of block.slice(0, -1).split('\n')) {
    const parts = line.split(' ');
    if (parts.length !== 3 || parts[0] !== EM_DASH) return err(bad('a signature line is "— <name> <base64>"'));
    const name = parts[1] as string;
    if (!isValidKeyName(name)) return err(bad('a key name is non-empty, without spaces or "+"'));
    const raw = decodeBase64Strict(parts[2] as string);
    if (raw === null || raw.length < 5) return err(bad('a signature is base64 of a 4-byte key ID and the signature'));
    out.push({ name, keyId: raw.slice(0, 4), signature: raw.slice(4) });
    if (out.length > MAX_NOTE_SIGNATURES) return err(bad(`a note carries at most ${MAX_NOTE_SIGNATURES} signatures`));
  }
  return ok(out);
}

/** The strict reader: splits at the last empty line, checks the text and every signature line. */
export function readSignedNote(input: string): Result<SignedNote, NoteReadError> {
  const at = input.lastIndexOf('\n\n');
  if (at < 0) return err(bad('a signed note has an empty line before its signatures'));
  const text = input.slice(0, at + 1);
  const v = noteTextViolation(text);
  if (v !== null) return err(bad(v));
  const sigs = readSignatureLines(input.slice(at + 2));
  if (!sigs.ok) return sigs;
  return ok({ text, signatures: sigs.value });
}

const bad = (detail: string): NoteReadError => ({ code: 'note-malformed', detail });
