/**
 * One checkpoint run: a signed checkpoint of every log's current state (core/ledger/checkpoint.ts), then the
 * checkpoint export (every stored checkpoint of those logs) for storage outside the table.
 */
import { checkpointLog, type CheckpointOrigin } from '../../core/ledger/checkpoint.js';
import { exportCheckpoints } from '../../core/ledger/export.js';
import type { Signer } from '../../core/ledger/signature.js';
import type { LedgerStore } from '../../core/ledger/store.js';

export interface CheckpointRun {
  readonly checkpoints: readonly { readonly logId: string; readonly treeSize: number; readonly written: boolean }[];
  /** docket.checkpoint-export/1 text. */
  readonly export: string;
}

export async function runCheckpoints(o: {
  store: LedgerStore;
  signer: Signer;
  logIds: readonly string[];
  origin: CheckpointOrigin;
  time: string;
}): Promise<CheckpointRun> {
  const checkpoints = [];
  for (const logId of o.logIds) {
    const r = await checkpointLog(o.store, logId, { signer: o.signer, origin: o.origin, time: o.time });
    checkpoints.push({ logId, treeSize: r.stored.treeSize, written: r.written });
  }
  return { checkpoints, export: await exportCheckpoints(o.store, o.logIds) };
}

export const rfc3339Now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
