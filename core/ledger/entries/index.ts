/**
 * core/ledger/entries: the ledger entry: its kinds and limits, the rules an entry keeps, the one serializer and strict
 * reader, its signature, and the worst-case entry size admission checks (docs/ledger-format.md, ADR 0054).
 */
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
} from './worst-case-entry.js';
