/**
 * @docket/verify: what a relying party embeds to check what Docket hands it, offline, against the trust policy it
 * pins (docs/pipeline.md "Verifying a handoff", "Verifying a result"; docs/verify.md). Pure: no AWS SDK, no node:*
 * import, so it runs in Node ≥ 22 and in a browser. Every function re-exported here lives in core/; this file only
 * names the public surface (docs/adr/0440-packages-built-from-the-repository-folders.md).
 */
export {
  readTrustPolicy,
  type TrustPolicy,
  type TrustPolicyError,
  type TrustedKey,
  type KeyValidity,
} from '../../../core/ledger/trust-policy/index.js';
export {
  verifyHandoff,
  HANDOFF_REJECTIONS,
  UNROUTED_QUEUE_KEY,
  type HandoffRejection,
  type HandoffVerdict,
  type HandoffVerifyOptions,
  type RouteQueueOfReader,
} from '../../../core/pipeline/handoff-verdict.js';
export type { HandoffMessage } from '../../../core/pipeline/handoff-message.js';
export {
  verifyResultBytes as verifyResult,
  type ResultBytesOptions as ResultVerifyOptions,
  type ResultBytesVerdict as ResultVerdict,
  type VerifiedResult,
} from '../../../core/pipeline/result-bytes-verdict.js';
export { RESULT_REJECTIONS, type ResultRejection } from '../../../core/pipeline/result-verdict.js';
export {
  verifyReceiptBytes as verifyReceipt,
  RECEIPT_FINDING_CODES,
  type ReceiptBytesVerdict as ReceiptVerdict,
  type ReceiptFinding,
  type ReceiptFindingCode,
  type ReceiptInput,
  type ReceiptVerifyOptions,
} from '../../../core/ledger/receipts/receipt-verify.js';
export { readWitnessPolicy, type WitnessPolicy } from '../../../core/ledger/witness/witness-policy.js';
export {
  verifyExportFiles as verifyExport,
  type VerifyFiles as ExportFiles,
} from '../../../core/ledger/verify/files.js';
export {
  VERIFY_FINDING_CODES,
  type Finding,
  type FindingCode,
  type NoVerdict,
  type Verdict,
} from '../../../core/ledger/verify/findings.js';
export {
  installLedgerCrypto,
  portableLedgerCrypto,
  type LedgerCrypto,
} from '../../../core/ledger/primitives/crypto-port.js';
