/** core/ledger/export: the ledger, checkpoint and checkpoint-note exports: one writer and one strict reader each. */
export { readLedgerExport, exportCheckpoints, readCheckpointExport } from './export.js';
export { readNotesExport, exportNotes, notesExportText } from './notes-export.js';
