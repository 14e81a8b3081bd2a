/**
 * core/ledger: the audit ledger's formats and protocols (docs/ledger-format.md).
 * Pure: node:crypto hashing/signing only; no clock (time is a parameter), no randomness (entropy is a parameter),
 * no I/O beyond the LedgerStore interface that adapters implement.
 */
export type { LedgerStore, StoredEntry, Claim, Position, StoredCheckpoint } from './store.js';
export { StoreReadError } from './store.js';

export {
  ENTRY_FORMAT,
  ENTRY_KINDS,
  ENTRY_LIMITS,
  REFUSAL_CODES,
  type EntryKind,
  type PackRef,
  type EvaluatorRef,
  type EntryError,
  type EntryRefusal,
  type RefusalCode,
  type UnsignedEntry,
  type SignedEntry,
  type DispositionEntryBody,
  type ErrorEntryBody,
  type RefusalEntryBody,
} from './entry-types.js';
export { entryViolation, isRfc3339Utc, LOG_ID_PATTERN } from './entry-rules.js';
export {
  buildEntry,
  parseStoredEntry,
  entryHashOf,
  entrySigningMessage,
  toStoredEntry,
  verifyEntrySignature,
  verifyParsedEntrySignature,
  capMessage,
  EntryInvariantError,
  type BuiltEntry,
  type ParsedEntry,
  type EntryReadError,
  type EntryReadErrorCode,
} from './entry.js';
export { canonicalText, readCanonicalRecord, LedgerValueError } from './canonical.js';
export { sha256Hex, toHex, fromHex } from './bytes.js';

export {
  keyIdOf,
  keyPairFromSeed,
  generateKeyPair,
  signEd25519,
  verifyEd25519,
  signerFromKeyPair,
  isAcceptablePublicKey,
  passesStrictPrechecks,
  SMALL_ORDER_ENCODINGS,
  ENTRY_SIGNATURE_DOMAIN,
  CHECKPOINT_SIGNATURE_DOMAIN,
  KEY_ID_PATTERN,
  ED25519_L,
  type Ed25519KeyPair,
  type Signer,
  type SignatureBackend,
} from './signature.js';

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
export { checkpointLog, type CheckpointWrite, type CheckpointWriteOptions } from './checkpoint-writer.js';

export {
  LEDGER_EXPORT_FORMAT,
  CHECKPOINT_EXPORT_FORMAT,
  ledgerExportLines,
  readLedgerExport,
  exportCheckpoints,
  readCheckpointExport,
  type LedgerExport,
  type ExportReadError,
} from './export.js';

export {
  TRUST_POLICY_FORMAT,
  TRUST_POLICY_FORMAT_V1,
  readTrustPolicy,
  keyForEntry,
  keyForRole,
  keyForCheckpoint,
  keyCoversTree,
  type KeyRole,
  type CheckpointKeyLookup,
  isAllowedAuthority,
  isAllowedBuild,
  type TrustPolicy,
  type TrustedKey,
  type KeyValidity,
  type KeyLookup,
  type TrustPolicyError,
} from './trust-policy.js';

export { appendOnce, LedgerStateError, type AppendRequest, type AppendOutcome, type AppendError } from './append.js';
export { configuredLogs, logsInTurn, selectLog, type LogChooser } from './log-selection.js';
export { MemoryLedgerStore, type MemoryStoreOptions } from './memory-store.js';
export {
  worstCaseEntryBytes,
  checkEntryFits,
  DEFAULT_ADMISSION_LIMITS,
  type AdmissionInput,
  type AdmissionLimits,
  type AdmissionRefusal,
  type PackWorstCase,
} from './admission.js';
export { keepsNotes } from './publish-note.js';
export { verifyExportFiles, readLedgerExportFast, type Verdict, type NoVerdict, type Finding } from './verify/index.js';
