/** core/ledger/export: the ledger, checkpoint and checkpoint-note exports: one writer and one strict reader each. */
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
export { readNotesExport, exportNotes, notesExportText } from './notes-export.js';
