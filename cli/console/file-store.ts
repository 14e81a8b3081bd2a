/**
 * A read-only LedgerStore over an export and a checkpoint export (`docket console --export … --checkpoints …`).
 * Entries stay in file order per log (the verifier judges that order, docs/verify.md); every write refuses, so the
 * console cannot change what it shows.
 */
import type { BatchMarker, LedgerStore, Position, StoredCheckpoint, StoredEntry } from '../../core/ledger/index.js';

export class ReadOnlyStoreError extends Error {
  readonly code = 'console-read-only';
}

const refuse = (): Promise<boolean> => Promise.reject(new ReadOnlyStoreError('the console never writes to a ledger'));

export class ExportStore implements LedgerStore {
  private readonly logs = new Map<string, StoredEntry[]>();
  private readonly checkpoints = new Map<string, StoredCheckpoint[]>();

  constructor(entries: Iterable<StoredEntry>, checkpoints: Iterable<StoredCheckpoint>) {
    for (const e of entries) {
      let list = this.logs.get(e.logId);
      if (list === undefined) this.logs.set(e.logId, (list = []));
      list.push(e);
    }
    for (const c of checkpoints) {
      let list = this.checkpoints.get(c.logId);
      if (list === undefined) this.checkpoints.set(c.logId, (list = []));
      list.push(c);
    }
    for (const list of this.checkpoints.values()) list.sort((a, b) => a.treeSize - b.treeSize);
  }

  readHead(logId: string): Promise<StoredEntry | null> {
    return Promise.resolve(this.logs.get(logId)?.at(-1) ?? null);
  }

  async *readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry> {
    const list = this.logs.get(logId) ?? [];
    // File order is stored order; entries are found by their stored seq, which a tampered export may repeat.
    let i = list.findIndex((e) => e.seq >= fromSeq);
    if (i < 0) return;
    for (; i < list.length; i++) {
      const e = list[i] as StoredEntry;
      if (toSeq !== undefined && e.seq > toSeq) return;
      yield e;
    }
  }

  async *readCheckpoints(logId: string): AsyncIterable<StoredCheckpoint> {
    for (const c of this.checkpoints.get(logId) ?? []) yield c;
  }

  listLogs(): Promise<string[]> {
    return Promise.resolve([...this.logs.keys()].sort());
  }

  readClaim(): Promise<null> {
    return Promise.resolve(null);
  }

  readPosition(): Promise<Position | null> {
    return Promise.resolve(null);
  }

  // An export holds no markers, and a claim-less store has nothing to find them from.
  async *readMarkers(): AsyncIterable<BatchMarker> {}

  readonly putEntryIfAbsent = refuse;
  readonly putEntriesIfAbsent = refuse;
  readonly putClaimIfAbsent = refuse;
  readonly putPositionIfAbsent = refuse;
  readonly putMarkerIfAbsent = refuse;
  readonly putCheckpointIfAbsent = refuse;
}
