/** core/ledger/verify: offline verification of a ledger against a trust policy and signed checkpoints (docs/verify.md). */
export { verifyLedger, type VerifyOptions } from './verify-ledger.js';
export { checkEntry, type EntryCheck } from './entry-status.js';
export { checkCheckpoint, type CheckpointCheck } from './checkpoint-status.js';
export {
  storeSource,
  exportSource,
  storeCheckpoints,
  type LedgerSource,
  type LogSource,
  type Pace,
} from './sources.js';
export { readMarkers, MARKERS_FORMAT } from './markers.js';
export {
  ENTRY_STATUS_ORDER,
  CHECKPOINT_STATUS_ORDER,
  compareFindings,
  groupOf,
  VERIFY_FINDING_CODES,
  type FindingCode,
  type EntryStatus,
  type CheckpointStatus,
  type Finding,
  type EntryFinding,
  type CheckpointFinding,
  type LogFinding,
  type AnchorFinding,
  type Verdict,
  type VerifySummary,
  type NoVerdict,
} from './findings.js';
export { verifyExportFiles, readPolicyBytes, type VerifyFiles } from './files.js';
export { readWitnessFiles, type WitnessInputs, type NamedBytes } from './witness-files.js';
export { readCanonicalText, readLedgerExportFast, isSortedLedgerValue } from './fast-read.js';
// The crypto port, so that a host without node:crypto (the offline page) can choose its primitives.
export { installLedgerCrypto, portableLedgerCrypto, type LedgerCrypto } from '../primitives/crypto-port.js';
export { verifyEd25519 } from '../primitives/signature.js';
export {
  omissionFindings,
  withArchiveCheck,
  type ArchiveCheck,
  type ArchiveSummary,
  type ArchiveVerdict,
  recordedKey,
  type ArchivedRequest,
  type DeadLetterMessage,
  type ExcusedRequest,
  type OmissionInputs,
  type PathQueueState,
  type RequestWithoutEntryFinding,
} from './omission.js';
