/**
 * The pipeline's LedgerWriter over the ledger's append protocol (core/ledger/append.ts): the pipeline decides the
 * entry's content, the protocol decides its slot (log, seq, prevHash), and the builder checks and signs it.
 * Time and the signer are passed in (core has no clock and never holds a key it did not receive).
 */
import { appendOnce } from '../ledger/append.js';
import { selectLog } from '../ledger/log-selection.js';
import { buildEntry, parseStoredEntry } from '../ledger/entry.js';
import { ENTRY_FORMAT, type UnsignedEntry } from '../ledger/entry-types.js';
import type { Signer } from '../ledger/signature.js';
import type { LedgerStore, StoredEntry } from '../ledger/store.js';
import type { AppendResult, EntryDraft, LedgerWriter, RecordedEntry } from './ports.js';

export interface LedgerWriterOptions {
  readonly store: LedgerStore;
  readonly signer: Signer;
  readonly logIds: readonly string[];
  /** RFC 3339 UTC time of the entry (the handler's clock). */
  readonly now: () => string;
}

/** A stored entry that does not read back strictly: the ledger is damaged; never repaired here. */
export class StoredEntryError extends Error {
  readonly code = 'stored-entry-unreadable';
}

function recorded(stored: StoredEntry): RecordedEntry {
  const parsed = parseStoredEntry(stored.body);
  if (!parsed.ok) throw new StoredEntryError(`entry ${stored.logId}/${stored.seq} is ${parsed.error.code}: ${parsed.error.detail}`);
  return { logId: stored.logId, seq: stored.seq, entryHash: parsed.value.entryHash, entry: parsed.value.entry };
}

export function ledgerWriter(o: LedgerWriterOptions): LedgerWriter {
  const lock = new KeyedMutex();
  return {
    async append(draft: EntryDraft): Promise<AppendResult> {
      // One append per log at a time within this instance: concurrent records of one batch that land on the same
      // log would otherwise race for the same slot and retry (each retry re-reads the head and re-signs). The
      // append protocol still guarantees one entry per request across instances; this only removes self-contention.
      return lock.run(selectLog(draft.requestId, o.logIds), () => appendNow(draft));
    },
  };
  async function appendNow(draft: EntryDraft): Promise<AppendResult> {
    const time = o.now();
    const out = await appendOnce(o.store, {
      requestId: draft.requestId,
      requestDigest: draft.requestDigest,
      logIds: o.logIds,
      build: (slot) => buildEntry({ ...draft, format: ENTRY_FORMAT, ...slot, time, keyId: o.signer.keyId } as UnsignedEntry, o.signer),
    });
    if (!out.ok) {
      if (out.error.code === 'request-id-conflict') return { status: 'conflict', existingRequestDigest: out.error.claim.requestDigest };
      throw new Error(`${out.error.code}: ${out.error.message}`);
    }
    return { status: out.value.status === 'appended' ? 'appended' : 'existing', recorded: recorded(out.value.entry) };
  }
}

/** Runs tasks one at a time per key (FIFO), different keys concurrently. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const result = prev.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
