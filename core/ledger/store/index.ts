/**
 * core/ledger/store: the storage ports adapters implement (LedgerStore, CheckpointNoteStore; ADR 0061) and the
 * in-memory store the tests and the conformance corpus use.
 */
export {
  type LedgerStore,
  type StoredEntry,
  type Claim,
  type Position,
  type BatchMarker,
  type StoredCheckpoint,
  StoreReadError,
  checkGroup,
  MAX_GROUP_MEMBERS,
  MAX_MARKER_MEMBERS,
  checkMarker,
  markerKey,
} from './store.js';
export { findPosition, markedPosition, type PositionIndex } from './find-position.js';
export {
  cosignatureSortKey,
  type CheckpointNoteStore,
  type StoredCosignature,
  type StoredNote,
  cosignedNote,
} from './note-store.js';
