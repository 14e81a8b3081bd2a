/**
 * The pipeline's LedgerWriter over the ledger's append protocol (core/ledger/append.ts): the pipeline decides the
 * entry's content, the protocol decides its slot (log, seq, prevHash), and the builder checks and signs it.
 * Time and the signer are passed in (core has no clock and never holds a key it did not receive).
 */
import { appendOnce, type HeadCache, type OwnSlots } from '../ledger/append.js';
import { buildEntry, parseStoredEntry, type BuiltEntry } from '../ledger/entry.js';
import { entryFormatFor, type UnsignedEntry } from '../ledger/entry-types.js';
import { logsInTurn, type LogChooser } from '../ledger/log-selection.js';
import type { Signer } from '../ledger/signature.js';
import type { LedgerStore, StoredEntry } from '../ledger/store.js';
import type { AppendResult, EntryDraft, LedgerWriter, RecordedEntry } from './ports.js';

export interface LedgerWriterOptions {
  readonly store: LedgerStore;
  readonly signer: Signer;
  readonly logIds: readonly string[];
  /** RFC 3339 UTC time of the entry (the handler's clock). */
  readonly now: () => string;
  /** The log offered to each new request (ADR 0161); default: the logs in turn from the first. The edge passes
   *  logsInTurn from a per-instance offset, so instances spread. Must only return configured log ids. */
  readonly chooseLog?: LogChooser;
}

/** A stored entry that does not read back strictly: the ledger is damaged; never repaired here. */
export class StoredEntryError extends Error {
  readonly code = 'stored-entry-unreadable';
}

function recorded(stored: StoredEntry): RecordedEntry {
  const parsed = parseStoredEntry(stored.body);
  if (!parsed.ok)
    throw new StoredEntryError(`entry ${stored.logId}/${stored.seq} is ${parsed.error.code}: ${parsed.error.detail}`);
  return {
    logId: stored.logId,
    seq: stored.seq,
    entryHash: parsed.value.entryHash,
    entry: parsed.value.entry,
    body: stored.body,
  };
}

export function ledgerWriter(o: LedgerWriterOptions): LedgerWriter {
  const lock = new KeyedMutex();
  const logs = [...new Set(o.logIds)].sort();
  const headCache: HeadCache = new Map();
  const ownSlots: OwnSlots = new Map();
  const chooseLog = o.chooseLog ?? logsInTurn(logs);
  return {
    async append(draft: EntryDraft): Promise<AppendResult> {
      // One slot write per log runs at a time within this instance (ADR 0162), so records offered distinct logs
      // never race each other for a slot; the head cache then makes a first sight three conditional writes
      // (ADR 0160). Any log is correct: the claim fixes it for every duplicate (ADR 0161).
      return appendNow(draft, chooseLog(draft.requestId));
    },
  };
  async function appendNow(draft: EntryDraft, logId: string): Promise<AppendResult> {
    const time = o.now();
    let built: BuiltEntry | undefined;
    const out = await appendOnce(o.store, {
      requestId: draft.requestId,
      requestDigest: draft.requestDigest,
      logIds: logs,
      logId,
      headCache,
      ownSlots,
      slotLock: (log, task) => lock.run(log, task),
      build: (slot) =>
        (built = buildEntry(
          {
            ...draft,
            // Version 1 unless the draft records draft features (ADR 0220).
            format: entryFormatFor(draft.draftFeatures),
            ...slot,
            time,
            keyId: o.signer.keyId,
          } as UnsignedEntry,
          o.signer,
        )),
    });
    if (!out.ok) {
      if (out.error.code === 'request-id-conflict')
        return { status: 'conflict', existingRequestDigest: out.error.claim.requestDigest };
      throw new Error(`${out.error.code}: ${out.error.message}`);
    }
    const stored = out.value.entry;
    if (out.value.status === 'appended' && built !== undefined && stored.body === built.body) {
      // Our own entry, just written: buildEntry validated it (entry-rules, the same member and value rules a strict
      // read applies) and the stored bytes are exactly its canonical text, so reading them back would only repeat
      // that work. Entries written by anyone else (duplicates, earlier deliveries) are still read back strictly.
      return {
        status: 'appended',
        recorded: {
          logId: stored.logId,
          seq: stored.seq,
          entryHash: built.entryHash,
          entry: built.entry,
          body: built.body,
        },
      };
    }
    return { status: out.value.status === 'appended' ? 'appended' : 'existing', recorded: recorded(stored) };
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
