/**
 * core/ledger/checkpoints: RFC 9162 Merkle trees and proofs, signed checkpoints and their C2SP checkpoint notes, and
 * publishing a note beside its checkpoint (ADR 0130).
 */
export {
  leafHash,
  nodeHash,
  merkleRoot,
  inclusionProof,
  consistencyProof,
  verifyInclusion,
  verifyConsistency,
  MerkleFrontier,
  EMPTY_ROOT,
} from './merkle.js';
export {
  CHECKPOINT_FORMAT,
  CHECKPOINT_FORMAT_V1,
  buildCheckpoint,
  signCheckpoint,
  parseCheckpoint,
  checkpointSigningMessage,
  checkpointViolation,
  verifyCheckpointSignature,
  computeLogTree,
  CheckpointInvariantError,
  type CheckpointSigner,
  type CheckpointOrigin,
  type UnsignedCheckpoint,
  type SignedCheckpoint,
  type CheckpointReadError,
  type LogTreeState,
} from './checkpoint.js';
export { keepsNotes, publishCheckpointNote } from './publish-note.js';
export { parseCheckpointOrigin, readCheckpointNote, checkpointVkeys, type NoteSigner } from './checkpoint-note.js';
