/**
 * core/ledger/checkpoints: RFC 9162 Merkle trees and proofs, signed checkpoints and their C2SP checkpoint notes, and
 * publishing a note beside its checkpoint (ADR 0130).
 */
export { leafHash, nodeHash, inclusionProof, consistencyProof, verifyInclusion } from './merkle.js';
export {
  parseCheckpoint,
  verifyCheckpointSignature,
  type CheckpointSigner,
  type CheckpointOrigin,
} from './checkpoint.js';
export { keepsNotes, publishCheckpointNote } from './publish-note.js';
export { parseCheckpointOrigin, readCheckpointNote, checkpointVkeys, type NoteSigner } from './checkpoint-note.js';
