/** core/ledger/verify: offline verification of a ledger against a trust policy and signed checkpoints (docs/verify.md). */
export { verifyLedger } from './verify-ledger.js';
export { storeSource, storeCheckpoints, type Pace } from './sources.js';
export { readMarkers } from './markers.js';
export { type Finding, type Verdict, type NoVerdict } from './findings.js';
export { verifyExportFiles, readPolicyBytes, type VerifyFiles } from './files.js';
export { readWitnessFiles, type WitnessInputs } from './witness-files.js';
export { readLedgerExportFast } from './fast-read.js';
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
  type PathQueueState,
  type RequestWithoutEntryFinding,
} from './omission.js';
