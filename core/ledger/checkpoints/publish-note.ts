/**
 * Publishing a stored Docket checkpoint as its C2SP checkpoint note (docs/adr/0130-checkpoint-notes.md): the note
 * states the checkpoint's origin, tree size and root, signed by the checkpoint signer, and is stored beside it.
 */
import { parseCheckpoint } from './checkpoint.js';
import { noteBodyOf, signCheckpointNote, type NoteSigner } from './checkpoint-note.js';
import type { CheckpointNoteStore, StoredNote } from '../store/note-store.js';
import type { StoredCheckpoint } from '../store/store.js';

export class NotePublishError extends Error {
  override readonly name = 'NotePublishError';
  readonly code = 'note-publish-failed';
}

/** Signs and stores the note of a stored checkpoint; returns the stored note (an existing one is kept as it is). */
export async function publishCheckpointNote(
  store: CheckpointNoteStore,
  stored: StoredCheckpoint,
  signer: NoteSigner,
): Promise<StoredNote> {
  const cp = parseCheckpoint(stored.body);
  if (!cp.ok)
    throw new NotePublishError(`checkpoint ${stored.logId}@${stored.treeSize} is unreadable: ${cp.error.detail}`);
  const note: StoredNote = {
    logId: stored.logId,
    treeSize: stored.treeSize,
    note: await signCheckpointNote(noteBodyOf(cp.value), signer),
  };
  if (await store.putNoteIfAbsent(note)) return note;
  for await (const n of store.readNotes(stored.logId)) if (n.treeSize === stored.treeSize) return n;
  throw new NotePublishError(`note ${stored.logId}@${stored.treeSize} refused yet absent`);
}

/** True when a store also keeps checkpoint notes (the table adapters and the memory store do). */
export const keepsNotes = (store: object): store is CheckpointNoteStore =>
  typeof (store as Partial<CheckpointNoteStore>).putNoteIfAbsent === 'function' &&
  typeof (store as Partial<CheckpointNoteStore>).readNotes === 'function';
