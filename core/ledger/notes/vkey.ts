/**
 * C2SP signed-note verifier keys ("vkeys", c2sp.org/signed-note "Verifier keys"): `<name>+<key ID>+<base64 key>`,
 * where the key ID is 8 lowercase hex digits of SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4] and the base64 encodes
 * the signature-type byte followed by the public key. Docket writes and reads two types, both Ed25519:
 *   0x01  note signatures (a log's checkpoint key, under the log's origin as its name)
 *   0x04  cosignature/v1 (a witness's key, c2sp.org/tlog-cosignature)
 * docs/adr/0302-c2sp-vkeys-in-keys-and-policies.md. One serializer (validates, then emits) and one strict reader.
 */
import { err, ok, type Result } from '../../result.js';
import { bytesEqual, fromHex, toHex } from '../primitives/bytes.js';
import { isAcceptablePublicKey } from '../primitives/signature.js';
import {
  decodeBase64Strict,
  encodeBase64,
  isValidKeyName,
  noteKeyId,
  NOTE_SIG_COSIGNATURE_V1,
  NOTE_SIG_ED25519,
} from './signed-note.js';

export type VkeyType = typeof NOTE_SIG_ED25519 | typeof NOTE_SIG_COSIGNATURE_V1;

export interface Vkey {
  readonly name: string;
  readonly type: VkeyType;
  /** 32 bytes. */
  readonly publicKey: Uint8Array;
  /** 4 bytes. */
  readonly keyId: Uint8Array;
}

/** Why a vkey is refused: stable codes, one per rule. */
export type VkeyErrorCode =
  | 'vkey-malformed'
  | 'vkey-bad-name'
  | 'vkey-bad-key-id'
  | 'vkey-bad-base64'
  | 'vkey-wrong-type'
  | 'vkey-bad-public-key'
  | 'vkey-key-id-mismatch';

export interface VkeyError {
  readonly code: VkeyErrorCode;
  readonly detail: string;
}

const KEY_ID_HEX = /^[0-9a-f]{8}$/;
const TYPE_NAMES: Readonly<Record<number, string>> = {
  [NOTE_SIG_ED25519]: 'Ed25519 note signature (0x01)',
  [NOTE_SIG_COSIGNATURE_V1]: 'cosignature/v1 (0x04)',
};

export class VkeyInvariantError extends Error {
  override readonly name = 'VkeyInvariantError';
  readonly code = 'vkey-invariant';
}

/** The one serializer: validates the name and key, then emits `<name>+<key ID>+<base64(type ‖ key)>`. */
export function serializeVkey(name: string, type: VkeyType, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new VkeyInvariantError('a vkey name is a key name (non-empty, no spaces, no "+")');
  if (type !== NOTE_SIG_ED25519 && type !== NOTE_SIG_COSIGNATURE_V1)
    throw new VkeyInvariantError('Docket writes Ed25519 vkeys of type 0x01 or 0x04');
  if (!isAcceptablePublicKey(publicKey)) throw new VkeyInvariantError('a vkey carries an acceptable Ed25519 key');
  const body = new Uint8Array(33);
  body[0] = type;
  body.set(publicKey, 1);
  return `${name}+${toHex(noteKeyId(name, type, publicKey))}+${encodeBase64(body)}`;
}

const fail = (code: VkeyErrorCode, detail: string): Result<Vkey, VkeyError> => err({ code, detail });

/**
 * The strict reader. `type` is the signature type the caller needs (0x01 for a log key, 0x04 for a witness): a vkey
 * of any other type is refused, never reinterpreted. Never throws for bad input.
 */
export function readVkey(text: string, type: VkeyType): Result<Vkey, VkeyError> {
  if (typeof text !== 'string') return fail('vkey-malformed', 'a vkey is a string');
  // The name may not contain "+", so a vkey is exactly three "+"-separated parts, the last being base64 (which may
  // itself contain "+"): split at the first two.
  const a = text.indexOf('+');
  const b = a < 0 ? -1 : text.indexOf('+', a + 1);
  if (a < 0 || b < 0) return fail('vkey-malformed', 'a vkey is <name>+<key ID>+<base64 key>');
  const name = text.slice(0, a);
  const idHex = text.slice(a + 1, b);
  const keyB64 = text.slice(b + 1);
  if (!isValidKeyName(name)) return fail('vkey-bad-name', 'the name is non-empty, without spaces or "+"');
  if (!KEY_ID_HEX.test(idHex)) return fail('vkey-bad-key-id', 'the key ID is 8 lowercase hex digits');
  const key = decodeBase64Strict(keyB64);
  if (key === null) return fail('vkey-bad-base64', 'the key is canonical padded standard base64');
  if (key.length === 0 || key[0] !== type)
    return fail(
      'vkey-wrong-type',
      `the key's type byte is ${key.length === 0 ? 'missing' : `0x${(key[0] as number).toString(16).padStart(2, '0')}`}; expected ${TYPE_NAMES[type]}`,
    );
  const publicKey = key.subarray(1);
  if (publicKey.length !== 32 || !isAcceptablePublicKey(publicKey))
    return fail('vkey-bad-public-key', 'the key is a canonical, non-small-order 32-byte Ed25519 public key');
  const keyId = noteKeyId(name, type, publicKey);
  if (!bytesEqual(keyId, fromHex(idHex)))
    return fail('vkey-key-id-mismatch', `the key ID is ${toHex(keyId)} for this name, type and key, not ${idHex}`);
  return ok({ name, type, publicKey: Uint8Array.from(publicKey), keyId });
}

/** True when a string is shaped like a vkey rather than hex (it holds a "+"). */
export const looksLikeVkey = (s: unknown): s is string => typeof s === 'string' && s.includes('+');
