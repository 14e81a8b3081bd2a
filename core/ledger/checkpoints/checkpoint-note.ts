/**
 * Docket checkpoints as C2SP tlog-checkpoint signed notes (c2sp.org/tlog-checkpoint; docs/adr/0130-checkpoint-notes.md):
 *
 *   docket/<environment>/<table>/<logId>\n      origin: the log's identity and the log key's name
 *   <tree size, ASCII decimal>\n
 *   <base64 of the RFC 9162 root hash>\n
 *   \n
 *   — docket/<environment>/<table>/<logId> <base64(keyId ‖ Ed25519 signature)>\n
 *
 * The log signature is an Ed25519 note signature (type 0x01) under the log's checkpoint key, found through the trust
 * policy (keyForCheckpoint). Witnesses add cosignature lines (core/ledger/witness/cosignature.ts) to the same note.
 */
import { err, ok, type Result } from '../../result.js';
import { fromHex, toHex, utf8Bytes } from '../primitives/bytes.js';
import type { CheckpointOrigin, SignedCheckpoint } from './checkpoint.js';
import { LOG_ID_PATTERN } from '../entries/entry-rules.js';
import { verifyEd25519 } from '../primitives/signature.js';
import {
  decodeBase64Strict,
  encodeBase64,
  isValidKeyName,
  noteKeyId,
  NOTE_SIG_ED25519,
  NoteInvariantError,
  noteTextViolation,
  readSignedNote,
  serializeSignedNote,
  type NoteReadError,
  type SignedNote,
} from '../notes/signed-note.js';
import { keyForCheckpoint, type TrustedKey, type TrustPolicy } from '../trust-policy/trust-policy.js';
import { serializeVkey } from '../notes/vkey.js';

/** The checkpoint signer, injected: a key file today, an asynchronous KMS Sign call in AWS. */
export interface NoteSigner {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

export interface CheckpointNoteBody {
  readonly origin: string;
  readonly treeSize: number;
  /** 32 bytes. */
  readonly rootHash: Uint8Array;
  /** Optional extension lines (tlog-checkpoint allows them; Docket never writes any). */
  readonly extensions: readonly string[];
}

export interface CheckpointNote {
  readonly note: SignedNote;
  readonly body: CheckpointNoteBody;
}

const ORIGIN_PREFIX = 'docket/';
const PART = /^[A-Za-z0-9._-]+$/;
const SIZE = /^(?:0|[1-9][0-9]{0,15})$/;

/** The origin line (and log key name) of a Docket log: `docket/<environment>/<table>/<logId>` (ADR 0130). */
export function checkpointOrigin(origin: CheckpointOrigin, logId: string): string {
  const s = `${ORIGIN_PREFIX}${origin.environment}/${origin.table}/${logId}`;
  if (parseCheckpointOrigin(s) === null) throw new NoteInvariantError(`not a Docket origin: ${JSON.stringify(s)}`);
  return s;
}

/** The parts of a Docket origin, or null for any other origin. */
export function parseCheckpointOrigin(s: string): (CheckpointOrigin & { readonly logId: string }) | null {
  if (!s.startsWith(ORIGIN_PREFIX)) return null;
  const parts = s.slice(ORIGIN_PREFIX.length).split('/');
  if (parts.length !== 3 || !parts.every((p) => PART.test(p))) return null;
  const [environment, table, logId] = parts as [string, string, string];
  if (!LOG_ID_PATTERN.test(logId)) return null;
  return { environment, table, logId };
}

/** The note text of a checkpoint body (validates before it emits). */
export function checkpointNoteText(body: CheckpointNoteBody): string {
  if (!isValidKeyName(body.origin)) throw new NoteInvariantError('the origin is a valid key name');
  if (!Number.isSafeInteger(body.treeSize) || body.treeSize < 0)
    throw new NoteInvariantError('the tree size is a non-negative integer');
  if (body.rootHash.length !== 32) throw new NoteInvariantError('the root hash is 32 bytes');
  const text = [body.origin, String(body.treeSize), encodeBase64(body.rootHash), ...body.extensions]
    .map((l) => `${l}\n`)
    .join('');
  const v = noteTextViolation(text);
  if (v !== null || body.extensions.some((l) => l === '')) throw new NoteInvariantError(v ?? 'no empty extension');
  return text;
}

/** The note body a Docket checkpoint states. */
export function noteBodyOf(cp: SignedCheckpoint): CheckpointNoteBody {
  return {
    origin: checkpointOrigin(cp.origin, cp.logId),
    treeSize: cp.treeSize,
    rootHash: fromHex(cp.rootHash),
    extensions: [],
  };
}

/**
 * A log checkpoint key's C2SP vkeys, one per log: named by the log's origin (the name its note signatures carry),
 * type 0x01 (docs/adr/0302-c2sp-vkeys-in-keys-and-policies.md).
 */
export function checkpointVkeys(
  publicKey: Uint8Array,
  authority: CheckpointOrigin,
  logIds: readonly string[],
): Record<string, string> {
  return Object.fromEntries(
    logIds.map((l) => [l, serializeVkey(checkpointOrigin(authority, l), NOTE_SIG_ED25519, publicKey)]),
  );
}

/** Signs a checkpoint note under the log key (key name = origin). Returns the serialized note. */
export async function signCheckpointNote(body: CheckpointNoteBody, signer: NoteSigner): Promise<string> {
  const text = checkpointNoteText(body);
  const signature = await signer.sign(utf8Bytes(text));
  if (signature.length !== 64) throw new NoteInvariantError('an Ed25519 signature is 64 bytes');
  return serializeSignedNote({
    text,
    signatures: [{ name: body.origin, keyId: noteKeyId(body.origin, NOTE_SIG_ED25519, signer.publicKey), signature }],
  });
}

/** Strict reader of a checkpoint note's text. */
export function readCheckpointNoteText(text: string): Result<CheckpointNoteBody, NoteReadError> {
  const malformed = (detail: string) => err<NoteReadError>({ code: 'note-malformed', detail });
  const v = noteTextViolation(text);
  if (v !== null) return malformed(v);
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return malformed('a checkpoint has origin, size and root lines');
  const [origin, size, root, ...extensions] = lines as [string, string, string, ...string[]];
  if (!isValidKeyName(origin)) return malformed('the origin is a valid key name');
  if (!SIZE.test(size) || !Number.isSafeInteger(Number(size)))
    return malformed('the tree size is decimal without leading zeros');
  const rootHash = decodeBase64Strict(root);
  if (rootHash === null || rootHash.length !== 32) return malformed('the root hash is base64 of 32 bytes');
  return ok({ origin, treeSize: Number(size), rootHash, extensions });
}

/** Strict reader of a whole checkpoint note (text and signature lines). */
export function readCheckpointNote(input: string): Result<CheckpointNote, NoteReadError> {
  const note = readSignedNote(input);
  if (!note.ok) return note;
  const body = readCheckpointNoteText(note.value.text);
  if (!body.ok) return body;
  return ok({ note: note.value, body: body.value });
}

/**
 * The trust-policy key whose log signature on a Docket checkpoint note verifies, or null (signed-note "Verifying":
 * unknown signatures are ignored; a known key whose signature fails rejects the note).
 */
export function verifyLogSignature(cn: CheckpointNote, policy: TrustPolicy): TrustedKey | null {
  const parts = parseCheckpointOrigin(cn.body.origin);
  if (parts === null) return null;
  let verified: TrustedKey | null = null;
  const message = utf8Bytes(cn.note.text);
  for (const k of policy.keys) {
    const found = keyForCheckpoint(policy, k.keyId, parts.logId, cn.body.treeSize);
    if (!found.ok) continue;
    const id = toHex(noteKeyId(cn.body.origin, NOTE_SIG_ED25519, found.key.publicKey));
    for (const s of cn.note.signatures) {
      if (s.name !== cn.body.origin || toHex(s.keyId) !== id) continue;
      if (!verifyEd25519(s.signature, message, found.key.publicKey)) return null;
      verified = found.key;
    }
  }
  return verified;
}
