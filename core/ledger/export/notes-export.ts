/**
 * docket.checkpoint-notes/1 (docs/ledger-format.md): the checkpoint notes of some logs with their cosignatures,
 * for storage beside the checkpoint export (S3, a file) and for `verify --witnesses`. One RFC 8785 object:
 *   {"format":"docket.checkpoint-notes/1","notes":[{"logId":…,"note":"<signed note with cosignature lines>","treeSize":…}]}
 * Each note travels as written; its reader (readCheckpointNote) and verify judge it.
 */
import { readJson } from '../../carrier/index.js';
import { err, ok, type Result } from '../../result.js';
import { canonicalText, withoutFinalNewline } from '../primitives/canonical.js';
import { cosignedNote, type CheckpointNoteStore, type StoredNote } from '../store/note-store.js';

export const CHECKPOINT_NOTES_FORMAT = 'docket.checkpoint-notes/1';

export function notesExportText(notes: readonly StoredNote[]): string {
  const list = [...notes]
    .sort((a, b) => (a.logId < b.logId ? -1 : a.logId > b.logId ? 1 : a.treeSize - b.treeSize))
    .map((n) => {
      if (!Number.isSafeInteger(n.treeSize) || n.treeSize < 0) throw new RangeError('a tree size is an integer ≥ 0');
      return { logId: n.logId, note: n.note, treeSize: n.treeSize };
    });
  return `${canonicalText({ format: CHECKPOINT_NOTES_FORMAT, notes: list })}\n`;
}

/** Every stored note of the given logs, each with its cosignatures appended. */
export async function exportNotes(store: CheckpointNoteStore, logIds: readonly string[]): Promise<string> {
  const out: StoredNote[] = [];
  for (const logId of [...new Set(logIds)].sort())
    for await (const n of store.readNotes(logId)) out.push({ ...n, note: await cosignedNote(store, n) });
  return notesExportText(out);
}

export interface NotesReadError {
  readonly code: 'notes-malformed';
  readonly detail: string;
}

/** Strict reader of a notes export. */
export function readNotesExport(bytes: Uint8Array): Result<StoredNote[], NotesReadError> {
  const bad = (detail: string) => err<NotesReadError>({ code: 'notes-malformed', detail });
  const r = readJson(withoutFinalNewline(bytes));
  if (!r.ok) return bad(`carrier: ${r.error.code}`);
  const v = r.value;
  if (v.kind !== 'object' || v.members.size !== 2) return bad('a notes export is {format, notes}');
  const f = v.members.get('format');
  if (f?.kind !== 'string' || f.value !== CHECKPOINT_NOTES_FORMAT) return bad(`format is ${CHECKPOINT_NOTES_FORMAT}`);
  const list = v.members.get('notes');
  if (list?.kind !== 'array') return bad('notes is an array');
  const out: StoredNote[] = [];
  for (const item of list.items) {
    if (item.kind !== 'object' || item.members.size !== 3) return bad('a note record is {logId, note, treeSize}');
    const logId = item.members.get('logId');
    const note = item.members.get('note');
    const size = item.members.get('treeSize');
    if (logId?.kind !== 'string' || note?.kind !== 'string' || size?.kind !== 'number')
      return bad('a note record is {logId, note, treeSize}');
    if (!/^(?:0|[1-9][0-9]{0,15})$/.test(size.lexeme) || !Number.isSafeInteger(Number(size.lexeme)))
      return bad('treeSize is an integer ≥ 0');
    out.push({ logId: logId.value, treeSize: Number(size.lexeme), note: note.value });
  }
  return ok(out);
}
