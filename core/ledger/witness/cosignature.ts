/**
 * C2SP tlog-cosignature, Ed25519 form "cosignature/v1" (c2sp.org/tlog-cosignature):
 *   key ID    = SHA-256(name ‖ 0x0A ‖ 0x04 ‖ 32-byte public key)[:4]
 *   signature = 8-byte big-endian POSIX timestamp ‖ Ed25519 signature over
 *               "cosignature/v1\ntime <timestamp>\n" ‖ the checkpoint note text
 * It states: as of that time, this is the largest consistent checkpoint the witness has seen for the origin.
 */
import { bytesEqual, utf8Bytes } from '../primitives/bytes.js';
import { signEd25519, verifyEd25519 } from '../primitives/signature.js';
import { noteKeyId, NOTE_SIG_COSIGNATURE_V1, NoteInvariantError, type NoteSignature } from '../notes/signed-note.js';

/** A witness's own key: the name it signs under (a key name, e.g. `auditor.example/witness`) and its Ed25519 pair. */
export interface WitnessKey {
  readonly name: string;
  readonly publicKey: Uint8Array;
  /** 32-byte seed; never logged. */
  readonly secretKey: Uint8Array;
}

export interface WitnessIdentity {
  readonly name: string;
  readonly publicKey: Uint8Array;
}

export const cosignatureKeyId = (w: WitnessIdentity): Uint8Array =>
  noteKeyId(w.name, NOTE_SIG_COSIGNATURE_V1, w.publicKey);

/** The message a cosignature/v1 signs. */
export function cosignatureMessage(noteText: string, timestamp: number): Uint8Array {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new NoteInvariantError('a cosignature time is a non-negative integer');
  return utf8Bytes(`cosignature/v1\ntime ${timestamp}\n${noteText}`);
}

/** Cosigns a checkpoint note's text at `timestamp` (seconds; the caller's clock). */
export function cosign(noteText: string, key: WitnessKey, timestamp: number): NoteSignature {
  const sig = signEd25519(cosignatureMessage(noteText, timestamp), key.secretKey);
  const bytes = new Uint8Array(72);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(timestamp));
  bytes.set(sig, 8);
  return { name: key.name, keyId: cosignatureKeyId(key), signature: bytes };
}

/**
 * The timestamp of a valid cosignature by `w` among a note's signatures, or null. A line with `w`'s name and key ID
 * that does not verify counts as none (never as valid).
 */
export function cosignatureTime(
  noteText: string,
  signatures: readonly NoteSignature[],
  w: WitnessIdentity,
): number | null {
  const id = cosignatureKeyId(w);
  let best: number | null = null;
  for (const s of signatures) {
    if (s.name !== w.name || s.signature.length !== 72 || !bytesEqual(s.keyId, id)) continue;
    const t = new DataView(s.signature.buffer, s.signature.byteOffset, 8).getBigUint64(0);
    if (t > BigInt(Number.MAX_SAFE_INTEGER)) continue;
    const time = Number(t);
    if (verifyEd25519(s.signature.subarray(8), cosignatureMessage(noteText, time), w.publicKey))
      best = best === null ? time : Math.max(best, time);
  }
  return best;
}
