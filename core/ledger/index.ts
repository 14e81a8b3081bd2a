/**
 * core/ledger: the audit ledger's formats and protocols (docs/ledger-format.md).
 * Pure: hashing/signing through the injected crypto port (crypto-port.ts); no clock (time is a parameter), no
 * randomness (entropy is a parameter), no I/O beyond the LedgerStore interface that adapters implement.
 */
export type { LedgerStore, StoredEntry, Claim, Position, StoredCheckpoint } from './store.js';
export { StoreReadError } from './store.js';

export {
  ENTRY_FORMAT,
  ENTRY_FORMAT_V2,
  ENTRY_FORMAT_V3,
  ENTRY_FORMATS,
  entryFormatFor,
  type EntryFormat,
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
  type GraphRunEntryBody,
  type EntryGraphRef,
} from './entry-types.js';
export { entryViolation, isRfc3339Utc, LOG_ID_PATTERN, DRAFT_FEATURE_NAME_PATTERN } from './entry-rules.js';
export { graphRunViolation, GRAPH_RUN_FEATURE } from './graph-run-rules.js';
export { graphRunStatus } from './graph-run-summary.js';
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
export { sha256Hex, toHex, fromHex, isHex } from './bytes.js';
export { installLedgerCrypto, ledgerCrypto, portableLedgerCrypto, type LedgerCrypto } from './crypto-port.js';

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
  TRUST_POLICY_FORMAT_V3,
  TRUST_POLICY_FORMAT_V4,
  readTrustPolicy,
  draftFeaturesAllowed,
  type DraftFeatureAllowance,
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

export {
  appendOnce,
  backoffDelayMs,
  LedgerStateError,
  type AppendRequest,
  type AppendOutcome,
  type AppendError,
  type HeadReads,
  type WrittenSeqs,
} from './append.js';
export { configuredLogs, logsInTurn, selectLog, type LogChooser } from './log-selection.js';
export { MemoryLedgerStore, type MemoryStoreOptions } from './memory-store.js';
export {
  worstCaseEntryBytes,
  checkEntryFits,
  checkGraphRunFits,
  type GraphRunEntryDraft,
  DEFAULT_ADMISSION_LIMITS,
  type AdmissionInput,
  type AdmissionLimits,
  type AdmissionRefusal,
  type PackWorstCase,
} from './admission.js';
export { cosignatureSortKey } from './note-store.js';
export type { CheckpointNoteStore } from './note-store.js';
export type { StoredCosignature } from './note-store.js';
export type { StoredNote } from './note-store.js';
export { ed25519FromSpki } from './signature.js';
export { readMarkers } from './verify/markers.js';
export { readPolicyBytes } from './verify/files.js';
export { verifyExportFiles } from './verify/files.js';
export type { NoVerdict } from './verify/findings.js';
export type { Verdict } from './verify/findings.js';
export { storeCheckpoints } from './verify/sources.js';
export { storeSource } from './verify/sources.js';
export { verifyLedger } from './verify/verify-ledger.js';
export {
  omissionFindings,
  recordedKey,
  type ArchivedRequest,
  type ExcusedRequest,
  type PathQueueState,
  type RequestWithoutEntryFinding,
} from './verify/omission.js';
export { keepsNotes } from './publish-note.js';
export { cosignedNote } from './note-store.js';
export { readNotesExport } from './notes-export.js';
export { readWitnessState } from './witness/witness-state.js';
export { parseCheckpointOrigin } from './checkpoint-note.js';
export { readCheckpointNote } from './checkpoint-note.js';
export { exportNotes } from './notes-export.js';
export { notesExportText } from './notes-export.js';
export { encodeBase64 } from './signed-note.js';
export { signatureLine } from './signed-note.js';
export type { NoteSignature } from './signed-note.js';
export type { AddCheckpointResponse } from './witness/add-checkpoint.js';
export { WitnessService } from './witness/witness-service.js';
export { runWitness } from './witness/witness-run.js';
export type { WitnessRunResult } from './witness/witness-run.js';
export { witnessPolicyDocument, witnessVkey } from './witness/witness-policy.js';
export { readVkey, serializeVkey } from './vkey.js';
export { checkpointVkeys } from './checkpoint-note.js';
export type { Vkey, VkeyError, VkeyErrorCode, VkeyType } from './vkey.js';
export type { WitnessKey } from './cosignature.js';
export { emptyWitnessState } from './witness/witness-state.js';
export { serializeWitnessState } from './witness/witness-state.js';
export type { WitnessState } from './witness/witness-state.js';
export { isValidKeyName } from './signed-note.js';
export type { NoteSigner } from './checkpoint-note.js';
export { publishCheckpointNote } from './publish-note.js';
export type { Finding } from './verify/findings.js';

export {
  RECEIPT_FORMAT,
  receiptText,
  readReceipt,
  receiptViolation,
  ReceiptInvariantError,
  type Receipt,
  type InclusionProof,
  type ReceiptReadError,
} from './receipt.js';
export {
  verifyReceipt,
  RECEIPT_FINDING_CODES,
  type ReceiptFinding,
  type ReceiptFindingCode,
  type ReceiptInput,
  type ReceiptVerdict,
  type ReceiptVerifyOptions,
} from './receipt-verify.js';
export { buildReceipt, locateEntry, receiptAt, type ReceiptBuildError } from './receipt-build.js';
export { auditPromise, type PromiseAudit } from './promise-audit.js';
export {
  readWitnessPolicy,
  WITNESS_POLICY_FORMAT,
  type WitnessPolicy,
  type WitnessPolicyError,
} from './witness/witness-policy.js';

export { readWitnessFiles, type WitnessInputs, type NamedBytes } from './verify/witness-files.js';
export {
  judgeNotes,
  newestClaim,
  type CheckpointClaim,
  type NewestClaim,
  type NoteCheckpoint,
} from './witness/witness-evidence.js';
export { readLedgerExportFast } from './verify/fast-read.js';
