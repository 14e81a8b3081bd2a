/**
 * Signed checkpoints, format "docket.checkpoint/2" (docs/ledger-format.md "Checkpoint" gives every member;
 * schema/checkpoint.schema.json): the writer verified every entry it newly covers before signing
 * (core/ledger/write/checkpoint-writer.ts; docs/adr/0121-checkpoints-verify-before-signing.md). "docket.checkpoint/1"
 * is still read, never written. The signature covers CHECKPOINT_SIGNATURE_DOMAIN || RFC 8785(checkpoint without
 * `signature`), a prefix no entry signature uses.
 */
import { err, ok, type Result } from '../../result.js';
import { fromHex, isHex, sha256, toHex, utf8Bytes } from '../primitives/bytes.js';
import { canonicalText, LedgerValueError, readCanonicalRecord } from '../primitives/canonical.js';
import { isRfc3339Utc, LOG_ID_PATTERN } from '../entries/entry-rules.js';
import { exactly, isNat, isRec, otherVersion } from '../primitives/shape.js';
import {
  CHECKPOINT_SIGNATURE_DOMAIN,
  KEY_ID_PATTERN,
  verifyEd25519,
  type SignatureBackend,
  type Signer,
} from '../primitives/signature.js';

export const CHECKPOINT_FORMAT = 'docket.checkpoint/2';
export const CHECKPOINT_FORMAT_V1 = 'docket.checkpoint/1';

export interface CheckpointOrigin {
  /** The deployment environment (stage), e.g. "prod". */
  readonly environment: string;
  /** The ledger table the log lives in. */
  readonly table: string;
}

export interface UnsignedCheckpoint {
  readonly format: typeof CHECKPOINT_FORMAT | typeof CHECKPOINT_FORMAT_V1;
  readonly logId: string;
  readonly treeSize: number;
  readonly rootHash: string;
  readonly chainHead: string | null;
  readonly keyId: string;
  readonly origin: CheckpointOrigin;
  readonly time: string;
  /** Present (true) exactly in format /2: the writer verified every entry it covers before signing. */
  readonly entriesVerified?: true;
}
export type SignedCheckpoint = UnsignedCheckpoint & { readonly signature: string };

export class CheckpointInvariantError extends Error {
  override readonly name = 'CheckpointInvariantError';
  readonly code = 'checkpoint-invariant';
  constructor(readonly invariant: string) {
    super(`checkpoint invariant violated: ${invariant}`);
  }
}

const ENVIRONMENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** DynamoDB table name rules: 3–255 of [A-Za-z0-9_.-]. */
const TABLE_PATTERN = /^[A-Za-z0-9_.-]{3,255}$/;
const MEMBERS = ['format', 'logId', 'treeSize', 'rootHash', 'chainHead', 'keyId', 'origin', 'time'];
const EMPTY_ROOT_HEX = toHex(sha256());

/** First violated invariant of a checkpoint, or null. */
export function checkpointViolation(o: unknown, signed: boolean): string | null {
  if (!isRec(o)) return 'a checkpoint is an object';
  if (o.format !== CHECKPOINT_FORMAT && o.format !== CHECKPOINT_FORMAT_V1)
    return `format is ${CHECKPOINT_FORMAT} or ${CHECKPOINT_FORMAT_V1}`;
  const base = o.format === CHECKPOINT_FORMAT ? [...MEMBERS, 'entriesVerified'] : MEMBERS;
  const members = signed ? [...base, 'signature'] : base;
  for (const k of Object.keys(o)) if (!members.includes(k)) return `checkpoint has no member ${JSON.stringify(k)}`;
  for (const k of members) if (!Object.hasOwn(o, k)) return `checkpoint.${k} is present`;
  if (typeof o.logId !== 'string' || !LOG_ID_PATTERN.test(o.logId)) return 'logId is a valid log id';
  if (!isNat(o.treeSize)) return 'treeSize is a non-negative integer';
  if (!isHex(o.rootHash, 32)) return 'rootHash is 64 lowercase hex digits';
  if (o.treeSize === 0 ? o.chainHead !== null || o.rootHash !== EMPTY_ROOT_HEX : !isHex(o.chainHead, 32)) {
    return 'chainHead is null with the empty root for an empty tree, else 64 lowercase hex digits';
  }
  if (o.treeSize === 1 && o.rootHash !== o.chainHead) return 'a one-entry tree has its only entry hash as root';
  if (typeof o.keyId !== 'string' || !KEY_ID_PATTERN.test(o.keyId))
    return 'keyId is "ed25519:" + 32 lowercase hex digits';
  const origin = o.origin;
  if (!isRec(origin)) return 'origin is an object';
  if (!exactly(origin, ['environment', 'table'])) return 'origin has exactly environment and table';
  if (typeof origin.environment !== 'string' || !ENVIRONMENT_PATTERN.test(origin.environment))
    return 'origin.environment is a short ASCII token';
  if (typeof origin.table !== 'string' || !TABLE_PATTERN.test(origin.table))
    return 'origin.table is a DynamoDB table name';
  if (!isRfc3339Utc(o.time)) return 'time is an RFC 3339 UTC date-time (…Z)';
  if (o.format === CHECKPOINT_FORMAT && o.entriesVerified !== true) return 'entriesVerified is true';
  if (signed && !isHex(o.signature, 64)) return 'signature is 128 lowercase hex digits';
  return null;
}

export function checkpointSigningMessage(cp: UnsignedCheckpoint): Uint8Array {
  const { signature: _drop, ...unsigned } = cp as UnsignedCheckpoint & { signature?: string };
  // The domain prefix is ASCII, so encoding prefix + text at once gives the same bytes as concatenating them.
  return utf8Bytes(CHECKPOINT_SIGNATURE_DOMAIN + canonicalText(unsigned));
}

/**
 * A checkpoint signer whose signature may arrive later: a local key (Signer) or a remote one that never leaves its
 * custody (adapters/kms-checkpoint-signer.ts; docs/adr/0120-separate-entry-and-checkpoint-keys.md).
 */
export interface CheckpointSigner {
  readonly keyId: string;
  /** The public half, when the signer knows it: checkpoint notes name their key by it (core/ledger/checkpoints/checkpoint-note.ts). */
  readonly publicKey?: Uint8Array;
  sign(message: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** The checked signing message of an unsigned checkpoint. Throws CheckpointInvariantError on a bug. */
function checkedMessage(unsigned: UnsignedCheckpoint, keyId: string): Uint8Array {
  const v = checkpointViolation(unsigned, false);
  if (v !== null) throw new CheckpointInvariantError(v);
  if (unsigned.keyId !== keyId) throw new CheckpointInvariantError('keyId names the signing key');
  try {
    return checkpointSigningMessage(unsigned);
  } catch (e) {
    if (e instanceof LedgerValueError) throw new CheckpointInvariantError(e.message);
    throw e;
  }
}

/** A signed checkpoint and its RFC 8785 bytes. */
type BuiltCheckpoint = { checkpoint: SignedCheckpoint; body: string };

function emit(unsigned: UnsignedCheckpoint, signature: Uint8Array): BuiltCheckpoint {
  if (signature.length !== 64) throw new CheckpointInvariantError('the signer returns a 64-byte Ed25519 signature');
  const checkpoint = { ...unsigned, signature: toHex(signature) } as SignedCheckpoint;
  return { checkpoint, body: canonicalText(checkpoint) };
}

/** The one checkpoint builder: checks, signs, emits the RFC 8785 bytes. Throws CheckpointInvariantError on a bug. */
export function buildCheckpoint(unsigned: UnsignedCheckpoint, signer: Signer): BuiltCheckpoint {
  return emit(unsigned, signer.sign(checkedMessage(unsigned, signer.keyId)));
}

/** buildCheckpoint for a signer that may answer asynchronously (same checks, same bytes). */
export async function signCheckpoint(unsigned: UnsignedCheckpoint, signer: CheckpointSigner): Promise<BuiltCheckpoint> {
  return emit(unsigned, await signer.sign(checkedMessage(unsigned, signer.keyId)));
}

export interface CheckpointReadError {
  readonly code: 'malformed' | 'unsupported-version';
  readonly detail: string;
}

/** The strict checkpoint reader (same rules as entries: canonical bytes or `malformed`). */
export function parseCheckpoint(bytes: Uint8Array | string): Result<SignedCheckpoint, CheckpointReadError> {
  const raw = typeof bytes === 'string' ? utf8Bytes(bytes) : bytes;
  const read = readCanonicalRecord(raw);
  if (!read.ok) return err({ code: 'malformed', detail: read.error });
  const other = otherVersion(read.value, 'docket.checkpoint/', [CHECKPOINT_FORMAT, CHECKPOINT_FORMAT_V1]);
  if (other !== null) return err({ code: 'unsupported-version', detail: `format ${other}` });
  const v = checkpointViolation(read.value, true);
  if (v !== null) return err({ code: 'malformed', detail: v });
  return ok(read.value as SignedCheckpoint);
}

export function verifyCheckpointSignature(
  cp: SignedCheckpoint,
  publicKey: Uint8Array,
  backend: SignatureBackend = 'node',
): boolean {
  return verifyEd25519(fromHex(cp.signature), checkpointSigningMessage(cp), publicKey, backend);
}
