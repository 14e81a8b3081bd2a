/**
 * One checkpoint run: a signed checkpoint of every log's current state (core/ledger/checkpoint.ts), its C2SP
 * checkpoint note when the signer knows its public key and the store keeps notes (core/ledger/publish-note.ts), then
 * the checkpoint export and the notes export (every stored checkpoint and note of those logs) for storage outside
 * the table.
 */
import { checkpointLog, type CheckpointOrigin } from '../../core/ledger/checkpoint.js';
import { exportCheckpoints } from '../../core/ledger/export.js';
import type { Signer } from '../../core/ledger/signature.js';
import type { NoteSigner } from '../../core/ledger/checkpoint-note.js';
import { exportNotes } from '../../core/ledger/notes-export.js';
import { keepsNotes, publishCheckpointNote } from '../../core/ledger/publish-note.js';
import type { LedgerStore } from '../../core/ledger/store.js';

export interface CheckpointRun {
  readonly checkpoints: readonly { readonly logId: string; readonly treeSize: number; readonly written: boolean }[];
  /** docket.checkpoint-export/1 text. */
  readonly export: string;
  /** docket.checkpoint-notes/1 text (null when the store keeps no notes or the signer has no public key). */
  readonly notes: string | null;
}

export async function runCheckpoints(o: {
  store: LedgerStore;
  signer: Signer;
  logIds: readonly string[];
  origin: CheckpointOrigin;
  time: string;
}): Promise<CheckpointRun> {
  const checkpoints = [];
  const publicKey = o.signer.publicKey;
  const noteSigner: NoteSigner | null =
    publicKey === undefined || !keepsNotes(o.store) ? null : { publicKey, sign: (m) => o.signer.sign(m) };
  for (const logId of o.logIds) {
    const r = await checkpointLog(o.store, logId, { signer: o.signer, origin: o.origin, time: o.time });
    if (noteSigner !== null && keepsNotes(o.store)) await publishCheckpointNote(o.store, r.stored, noteSigner);
    checkpoints.push({ logId, treeSize: r.stored.treeSize, written: r.written });
  }
  return {
    checkpoints,
    export: await exportCheckpoints(o.store, o.logIds),
    notes: keepsNotes(o.store) ? await exportNotes(o.store, o.logIds) : null,
  };
}

export const rfc3339Now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
