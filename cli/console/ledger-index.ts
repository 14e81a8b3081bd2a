/**
 * The console's in-memory index of a ledger (docs/console.md): one summary per stored entry, the Merkle leaf hash of
 * every entry (RFC 9162 §2.1.1, so an inclusion proof needs no second read) and the first position of each request
 * id. It is filled from a LedgerStore and refreshed incrementally: only entries past the last indexed seq are read.
 * Read-only: the console never writes to the store (ADR 0181).
 */
import { leafHash, parseStoredEntry, type LedgerStore, type StoredEntry } from '../../core/ledger/index.js';

/** One row of the entries list: what an auditor filters and searches by, as the entry states it. */
export interface EntrySummary {
  readonly logId: string;
  readonly seq: number;
  readonly requestId: string;
  /** The entry's kind, or `unreadable` when its stored bytes are not an entry (the projection's request id is kept). */
  readonly kind: 'disposition' | 'evaluation-error' | 'admission-refusal' | 'unreadable';
  /** `outcome` | `no-match` | … for a disposition; the error class or refusal code otherwise. */
  readonly result: string | null;
  readonly outcomeId: string | null;
  readonly packId: string | null;
  readonly packVersion: string | null;
  readonly packDigest: string | null;
  readonly correlation: Readonly<Record<string, string>> | null;
  readonly time: string | null;
  readonly entryHash: string;
}

export interface LogState {
  readonly logId: string;
  /** Stored entries in stored order. */
  readonly entries: EntrySummary[];
  /** leafHash of each stored body, same order (the Merkle tree over the log's entries). */
  readonly leaves: Uint8Array[];
  /** The stored seq to read from next (past the last one read, so a gap in a tampered log is not read twice). */
  nextSeq: number;
}

const encoder = new TextEncoder();

export function summarize(stored: StoredEntry): EntrySummary {
  const parsed = parseStoredEntry(stored.body);
  const base = { logId: stored.logId, seq: stored.seq };
  if (!parsed.ok)
    return {
      ...base,
      requestId: stored.projection.requestId,
      kind: 'unreadable',
      result: parsed.error.code,
      outcomeId: null,
      packId: null,
      packVersion: null,
      packDigest: null,
      correlation: null,
      time: null,
      entryHash: stored.projection.entryHash,
    };
  const e = parsed.value.entry;
  const result =
    e.kind === 'disposition' ? e.disposition.kind : e.kind === 'evaluation-error' ? e.error.class : e.refusal.code;
  return {
    ...base,
    requestId: e.requestId,
    kind: e.kind,
    result,
    outcomeId: e.kind === 'disposition' && e.disposition.kind === 'outcome' ? e.disposition.outcomeId : null,
    packId: e.pack?.id ?? null,
    packVersion: e.pack?.version ?? null,
    packDigest: e.pack?.digest ?? null,
    correlation: e.correlation,
    time: e.time,
    entryHash: parsed.value.entryHash,
  };
}

export class LedgerIndex {
  private readonly logs = new Map<string, LogState>();
  private readonly byRequest = new Map<string, { logId: string; seq: number }>();
  private refreshing: Promise<void> | null = null;

  constructor(private readonly store: LedgerStore) {}

  /** Reads every entry not indexed yet. Concurrent callers share one refresh. */
  refresh(): Promise<void> {
    this.refreshing ??= this.readNew().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async readNew(): Promise<void> {
    for (const logId of [...(await this.store.listLogs())].sort()) {
      let state = this.logs.get(logId);
      if (state === undefined) this.logs.set(logId, (state = { logId, entries: [], leaves: [], nextSeq: 0 }));
      for await (const stored of this.store.readEntries(logId, state.nextSeq)) {
        const s = summarize(stored);
        state.entries.push(s);
        state.leaves.push(leafHash(encoder.encode(stored.body)));
        state.nextSeq = stored.seq + 1;
        if (!this.byRequest.has(s.requestId)) this.byRequest.set(s.requestId, { logId, seq: stored.seq });
      }
    }
  }

  logStates(): LogState[] {
    return [...this.logs.values()].sort((a, b) => (a.logId < b.logId ? -1 : 1));
  }

  log(logId: string): LogState | undefined {
    return this.logs.get(logId);
  }

  /** Where a request id is first recorded, by the index (never trusted for a verdict: verify judges duplicates). */
  positionOf(requestId: string): { logId: string; seq: number } | undefined {
    return this.byRequest.get(requestId);
  }

  all(): EntrySummary[] {
    return this.logStates().flatMap((l) => l.entries);
  }

  get size(): number {
    let n = 0;
    for (const l of this.logs.values()) n += l.entries.length;
    return n;
  }
}
