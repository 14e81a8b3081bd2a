/**
 * core/ledger/store: the storage ports adapters implement (LedgerStore, CheckpointNoteStore; ADR 0061) and the
 * in-memory store the tests and the conformance corpus use.
 */
export {
  type LedgerStore,
  type StoredEntry,
  type Claim,
  type Position,
  type StoredCheckpoint,
  StoreReadError,
  checkGroup,
  MAX_GROUP_MEMBERS,
} from './store.js';
export {
  cosignatureSortKey,
  type CheckpointNoteStore,
  type StoredCosignature,
  type StoredNote,
  cosignedNote,
} from './note-store.js';
