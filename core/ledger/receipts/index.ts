/**
 * core/ledger/receipts: receipts: one entry with its inclusion proof to a covering checkpoint, built, read, verified
 * anywhere with the trust policy, and the audit of a saved result (ADRs 0175, 0291).
 */
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
  verifyReceiptBytes,
  RECEIPT_FINDING_CODES,
  type ReceiptBytesVerdict,
  type ReceiptFinding,
  type ReceiptFindingCode,
  type ReceiptInput,
  type ReceiptVerdict,
  type ReceiptVerifyOptions,
} from './receipt-verify.js';
export { buildReceipt, locateEntry, receiptAt, type ReceiptBuildError } from './receipt-build.js';
export { auditPromise, type PromiseAudit } from './promise-audit.js';
