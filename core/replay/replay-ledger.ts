/**
 * Replay over a ledger store: one entry (by position or by request id), a range of one log, a whole log, or every
 * log (docs/replay.md). Entries are replayed in log order, logs in code-unit order of their ids, one outcome each.
 * A read that cannot be completed throws (StoreReadError, or the fetcher's own error): the caller reports no
 * verdict rather than a shorter one (the store's contract, core/ledger/store/store.ts).
 */
import type { LedgerStore, StoredEntry } from '../ledger/store/store.js';
import { findPosition } from '../ledger/store/find-position.js';
import { replayStoredEntry } from './replay-entry.js';
import { replayContext, type ReplayContext } from './replay-context.js';
import type { ReplayOptions, ReplayOutcome, ReplaySummary } from './types.js';

export type ReplaySelection =
  | { readonly kind: 'entry'; readonly logId: string; readonly seq: number }
  | { readonly kind: 'request'; readonly requestId: string }
  /** Inclusive; `toSeq` undefined = to the log's end. */
  | { readonly kind: 'range'; readonly logId: string; readonly fromSeq: number; readonly toSeq?: number }
  | { readonly kind: 'log'; readonly logId: string }
  | { readonly kind: 'all' };

const absent = (logId: string | null, seq: number | null, detail: string): ReplayOutcome => ({
  logId,
  seq,
  requestId: null,
  kind: null,
  entryHash: null,
  result: 'not-replayable',
  reason: 'entry-absent',
  detail,
});

export async function* replayLedger(
  store: LedgerStore,
  selection: ReplaySelection,
  options: ReplayOptions,
): AsyncGenerator<ReplayOutcome> {
  const ctx = replayContext(options);
  switch (selection.kind) {
    case 'entry':
      yield* replayOne(store, selection.logId, selection.seq, ctx, `no entry at ${selection.logId}/${selection.seq}`);
      return;
    case 'request': {
      const position = await findPosition(store, selection.requestId);
      if (position === null) {
        yield {
          ...absent(null, null, `no entry is recorded for request ${selection.requestId}`),
          requestId: selection.requestId,
        };
        return;
      }
      yield* replayOne(
        store,
        position.logId,
        position.seq,
        ctx,
        `the position of ${selection.requestId} names a missing entry`,
      );
      return;
    }
    case 'range':
      yield* replayRange(store, selection.logId, selection.fromSeq, selection.toSeq, ctx);
      return;
    case 'log':
      yield* replayRange(store, selection.logId, 0, undefined, ctx);
      return;
    case 'all':
      for (const logId of [...(await store.listLogs())].sort()) yield* replayRange(store, logId, 0, undefined, ctx);
  }
}

async function* replayOne(
  store: LedgerStore,
  logId: string,
  seq: number,
  ctx: ReplayContext,
  missing: string,
): AsyncGenerator<ReplayOutcome> {
  let found: StoredEntry | undefined;
  for await (const e of store.readEntries(logId, seq, seq)) if (e.seq === seq) found = e;
  yield found === undefined ? absent(logId, seq, missing) : await replayStoredEntry(found, ctx);
}

/** A gap inside the range (an entry missing between two present ones, or before the first) is reported as absent. */
async function* replayRange(
  store: LedgerStore,
  logId: string,
  fromSeq: number,
  toSeq: number | undefined,
  ctx: ReplayContext,
): AsyncGenerator<ReplayOutcome> {
  let next = fromSeq;
  for await (const e of store.readEntries(logId, fromSeq, toSeq)) {
    for (; next < e.seq; next++) yield absent(logId, next, `no entry at ${logId}/${next} (a gap in the log)`);
    yield await replayStoredEntry(e, ctx);
    next = e.seq + 1;
  }
}

/** Running counts of a replay, so a long run streams its lines without keeping them (ADR 0103). */
export class ReplayTally {
  private match = 0;
  private mismatch = 0;
  private notReplayable = 0;
  private readonly reasons = new Map<string, number>();

  add(o: ReplayOutcome): void {
    if (o.result === 'replay-match') this.match++;
    else if (o.result === 'replay-mismatch') this.mismatch++;
    else {
      this.notReplayable++;
      const r = o.reason ?? 'unknown';
      this.reasons.set(r, (this.reasons.get(r) ?? 0) + 1);
    }
  }

  /** `ok` only when at least one entry was replayed and every one matched (ADR 0103). */
  summary(): ReplaySummary {
    const entries = this.match + this.mismatch + this.notReplayable;
    const reasons: Record<string, number> = {};
    for (const k of [...this.reasons.keys()].sort()) reasons[k] = this.reasons.get(k) as number;
    return {
      entries,
      match: this.match,
      mismatch: this.mismatch,
      notReplayable: this.notReplayable,
      reasons,
      ok: entries > 0 && this.match === entries,
    };
  }
}
