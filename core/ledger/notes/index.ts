/** core/ledger/notes: C2SP signed notes: signature lines, key names and verifier keys (vkeys; ADR 0302). */
export { encodeBase64, signatureLine, type NoteSignature, isValidKeyName } from './signed-note.js';
