/**
 * Where `verifyLedger` reads a ledger from: the live store (any LedgerStore, e.g. adapters/dynamodb-ledger-store.ts)
 * or a docket.ledger-export/1 file. A source yields each log once, in ascending log id, with its stored entries in
 * stored order. A store read cut short throws StoreReadError out of the iteration, which verifyLedger turns into
 * "no verdict" — never a shorter ledger.
 */
import type { LedgerExport } from '../export/export.js';
import type { LedgerStore, StoredCheckpoint, StoredEntry } from '../store/store.js';

export interface LogSource {
  readonly logId: string;
  /** Stored entries in stored order (ascending stored seq for a store; file order for an export). */
  readonly entries: AsyncIterable<StoredEntry> | Iterable<StoredEntry>;
}

export interface LedgerSource {
  /** Every log that holds at least one entry, once each, ascending log id. */
  logs(): AsyncIterable<LogSource>;
}

/** The live ledger behind a LedgerStore: listLogs (complete or throws), then readEntries(logId, 0) per log. */
export function storeSource(store: LedgerStore): LedgerSource {
  return {
    async *logs() {
      for (const logId of [...(await store.listLogs())].sort()) yield { logId, entries: store.readEntries(logId, 0) };
    },
  };
}

/**
 * A caller's pause between batches of entries, so that a single-threaded host (a browser page) can repaint a
 * progress bar during a long verification. Core has no timers: the caller supplies the pause.
 */
export interface Pace {
  readonly every: number;
  readonly pause: () => Promise<void>;
}

async function* paced(list: readonly StoredEntry[], pace: Pace): AsyncIterable<StoredEntry> {
  for (let i = 0; i < list.length; i++) {
    if (i > 0 && i % pace.every === 0) await pace.pause();
    yield list[i] as StoredEntry;
  }
}

/**
 * A parsed export: records grouped by the log they are filed under, file order kept within a log. Without a pace
 * each log is a plain array, walked synchronously (the CLI's path); with one, an async iterable that pauses.
 */
export function exportSource(exp: LedgerExport, pace?: Pace): LedgerSource {
  const byLog = new Map<string, StoredEntry[]>();
  for (const e of exp.entries) {
    let list = byLog.get(e.logId);
    if (list === undefined) byLog.set(e.logId, (list = []));
    list.push(e);
  }
  return {
    async *logs() {
      for (const logId of [...byLog.keys()].sort()) {
        const list = byLog.get(logId) as StoredEntry[];
        yield { logId, entries: pace === undefined ? list : paced(list, pace) };
      }
    },
  };
}

/** Every checkpoint stored for the given logs (the live table's own anchors; a checkpoint file is stronger). */
export async function storeCheckpoints(store: LedgerStore, logIds: Iterable<string>): Promise<StoredCheckpoint[]> {
  const out: StoredCheckpoint[] = [];
  for (const logId of [...new Set(logIds)].sort()) for await (const c of store.readCheckpoints(logId)) out.push(c);
  return out;
}
