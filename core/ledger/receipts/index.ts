/**
 * core/ledger/receipts: receipts: one entry with its inclusion proof to a covering checkpoint, built, read, verified
 * anywhere with the trust policy, and the audit of a saved result (ADRs 0175, 0291).
 */
export { receiptText, readReceipt } from './receipt.js';
export { verifyReceipt, type ReceiptInput, type ReceiptVerdict } from './receipt-verify.js';
export { buildReceipt, locateEntry, type ReceiptBuildError } from './receipt-build.js';
export { auditPromise } from './promise-audit.js';
