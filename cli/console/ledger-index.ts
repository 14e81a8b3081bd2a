/**
 * The console's in-memory index of a ledger (docs/console.md): one summary per stored entry, the Merkle leaf hash of
 * every entry (RFC 9162 §2.1.1, so an inclusion proof needs no second read) and the first position of each request
 * id. It is filled from a LedgerStore and refreshed incrementally: only entries past the last indexed seq are read.
 * Read-only: the console never writes to the store (ADR 0181).
 */
import { graphRunStatus, leafHash, toHex, type LedgerStore, type StoredEntry } from '../../core/ledger/index.js';
import type { EntrySummary } from '../../core/console-api/index.js';

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
/** Entries indexed between two turns of the event loop. */
const YIELD_EVERY = 500;

type Loose = Record<string, unknown>;
const isRec = (x: unknown): x is Loose => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const KINDS = new Set(['disposition', 'evaluation-error', 'admission-refusal', 'graph-run']);

/** An entry whose body is not read as one: only its place and the key projection stored beside it. */
function unreadable({ logId, seq, projection }: StoredEntry, code: string): EntrySummary {
  const none = { outcomeId: null, packId: null, packVersion: null, packDigest: null, correlation: null, time: null };
  return {
    logId,
    seq,
    requestId: projection.requestId,
    kind: 'unreadable',
    result: code,
    ...none,
    entryHash: projection.entryHash,
  };
}

function correlationOf(x: unknown): Readonly<Record<string, string>> | null {
  if (!isRec(x)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(x)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * The list row of a stored entry, read leniently for speed (ADR 0182): the body's members as they are, or
 * `unreadable` when it is not JSON of an entry's shape. The entry page reads the entry strictly
 * (parseStoredEntry) and verify judges it; the list only helps to find it.
 */
export function summarize(stored: StoredEntry, entryHash: string): EntrySummary {
  let o: unknown;
  try {
    o = JSON.parse(stored.body);
  } catch {
    return unreadable(stored, 'malformed');
  }
  if (!isRec(o) || typeof o.requestId !== 'string' || typeof o.kind !== 'string' || !KINDS.has(o.kind))
    return unreadable(stored, 'malformed');
  const kind = o.kind as EntrySummary['kind'];
  const d = isRec(o.disposition) ? o.disposition : null;
  const e = isRec(o.error) ? o.error : null;
  const r = isRec(o.refusal) ? o.refusal : null;
  const pack = isRec(o.pack) ? o.pack : null;
  const result =
    kind === 'disposition'
      ? str(d?.kind)
      : kind === 'evaluation-error'
        ? str(e?.class)
        : kind === 'graph-run'
          ? typeof o.run === 'string'
            ? graphRunStatus(o.run)
            : null
          : str(r?.code);
  return {
    logId: stored.logId,
    seq: stored.seq,
    requestId: o.requestId,
    kind,
    result,
    outcomeId: kind === 'disposition' ? str(d?.outcomeId) : null,
    packId: str(pack?.id),
    packVersion: str(pack?.version),
    packDigest: str(pack?.digest),
    correlation: correlationOf(o.correlation),
    time: str(o.time),
    entryHash,
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
      let sinceYield = 0;
      for await (const stored of this.store.readEntries(logId, state.nextSeq)) {
        // An in-memory store yields as microtasks only: give the event loop a turn now and then, so the server keeps
        // answering (the overview, assets) while a large ledger is indexed (ADR 0230).
        if (++sinceYield === YIELD_EVERY) {
          sinceYield = 0;
          await new Promise<void>((r) => setImmediate(r));
        }
        // The entry hash is the RFC 9162 leaf hash of the stored bytes (docs/ledger-format.md): one hash for both.
        const leaf = leafHash(encoder.encode(stored.body));
        const s = summarize(stored, toHex(leaf));
        state.entries.push(s);
        state.leaves.push(leaf);
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
