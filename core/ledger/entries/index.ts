/**
 * core/ledger/entries: the ledger entry: its kinds and limits, the rules an entry keeps, the one serializer and strict
 * reader, its signature, and the worst-case entry size admission checks (docs/ledger-format.md, ADR 0054).
 */
export { type PackRef, type EvaluatorRef, type RefusalCode, type SignedEntry } from './entry-types.js';
export { graphRunStatus } from './graph-run-summary.js';
export { parseStoredEntry, entryHashOf, verifyParsedEntrySignature, type ParsedEntry } from './entry.js';
export {
  checkEntryFits,
  checkGraphRunFits,
  type GraphRunEntryDraft,
  DEFAULT_ADMISSION_LIMITS,
  type AdmissionInput,
} from './worst-case-entry.js';
