/**
 * The append protocol (docs/adr/0050-append-protocol.md) over LedgerStore's conditional single-item creates:
 * exactly one terminal entry per request id under duplicate deliveries, concurrent deliveries and a crash at any
 * point; a log never forks (slots are created conditionally) and never has a gap (only slot head+1 is ever tried).
 *
 *   (a) a position item exists → the request's entry is already placed: return it (duplicate);
 *   (b) read the claim; if absent, read the head h0 of the selected log and create the claim
 *       {requestId, logId, requestDigest, headBefore: h0} if absent (a lost race re-reads it). A claim whose
 *       requestDigest differs from ours is a typed `request-id-conflict`. The claim fixes the log;
 *   (c) loop: read head n of the claim's log; scan (claim.headBefore, n] for this request id — found → write the
 *       position (if absent) and return it (duplicate); else build the entry for seq n+1 with prev = hash(entry n)
 *       and create slot n+1 if absent; success → write the position and return; lost slot → repeat.
 */
import { err, ok, type Result } from '../result.js';
import { entryHashOf, toStoredEntry, type BuiltEntry } from './entry.js';
import { selectLog } from './log-selection.js';
import type { Claim, LedgerStore, StoredEntry } from './store.js';

export interface AppendRequest {
  readonly requestId: string;
  /** SHA-256 (hex) of the exact request bytes. */
  readonly requestDigest: string;
  /** The configured log ids; a new request's log is selectLog(requestId, logIds). */
  readonly logIds: readonly string[];
  /** Builds and signs the entry for (logId, seq, prevHash); called once per attempted slot. */
  build(slot: { readonly logId: string; readonly seq: number; readonly prevHash: string | null }): BuiltEntry | Promise<BuiltEntry>;
  /** Upper bound on lost-slot retries before giving up (a store error, not a ledger state); default 10,000. */
  readonly maxAttempts?: number;
}

export interface AppendOutcome {
  /** appended: this call wrote the entry; duplicate: an earlier delivery did. */
  readonly status: 'appended' | 'duplicate';
  readonly entry: StoredEntry;
}

export type AppendError =
  | { readonly code: 'request-id-conflict'; readonly claim: Claim; readonly message: string }
  | { readonly code: 'append-contention'; readonly message: string };

/** The store holds a state the protocol never writes (e.g. a position naming a missing entry): thrown. */
export class LedgerStateError extends Error {
  override readonly name = 'LedgerStateError';
  readonly code = 'ledger-state';
}

async function entryAt(store: LedgerStore, logId: string, seq: number): Promise<StoredEntry | null> {
  for await (const e of store.readEntries(logId, seq, seq)) if (e.seq === seq) return e;
  return null;
}

async function claimFor(store: LedgerStore, req: AppendRequest): Promise<Claim> {
  const existing = await store.readClaim(req.requestId);
  if (existing !== null) return existing;
  const logId = selectLog(req.requestId, req.logIds);
  const head = await store.readHead(logId);
  const claim: Claim = { requestId: req.requestId, logId, requestDigest: req.requestDigest, headBefore: head === null ? -1 : head.seq };
  if (await store.putClaimIfAbsent(claim)) return claim;
  const winner = await store.readClaim(req.requestId);
  if (winner === null) throw new LedgerStateError(`claim for ${req.requestId} refused yet absent`);
  return winner;
}

async function placed(store: LedgerStore, entry: StoredEntry, status: AppendOutcome['status']): Promise<AppendOutcome> {
  await store.putPositionIfAbsent({ requestId: entry.projection.requestId, logId: entry.logId, seq: entry.seq });
  return { status, entry };
}

/** Appends the one terminal entry of a request, or returns the one already there. Store errors propagate (retry). */
export async function appendOnce(store: LedgerStore, req: AppendRequest): Promise<Result<AppendOutcome, AppendError>> {
  const claim = await claimFor(store, req);
  if (claim.requestDigest !== req.requestDigest) {
    return err({ code: 'request-id-conflict', claim, message: `request id ${JSON.stringify(req.requestId)} was first seen with other bytes` });
  }
  // (a) The position is written only after its entry, so when present the entry is final.
  const position = await store.readPosition(req.requestId);
  if (position !== null) {
    const e = await entryAt(store, position.logId, position.seq);
    if (e === null || e.projection.requestId !== req.requestId) throw new LedgerStateError(`position of ${req.requestId} names no entry of it`);
    return ok({ status: 'duplicate', entry: e });
  }
  // (c) Any entry of this request sits above headBefore (the claim was read before any attempt read the head).
  let scanned = claim.headBefore;
  const maxAttempts = req.maxAttempts ?? 10_000;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const head = await store.readHead(claim.logId);
    const n = head === null ? -1 : head.seq;
    if (n > scanned) {
      for await (const e of store.readEntries(claim.logId, scanned + 1, n)) {
        if (e.projection.requestId === req.requestId) return ok(await placed(store, e, 'duplicate'));
      }
      scanned = n;
    }
    const prevHash = head === null ? null : entryHashOf(head.body);
    const built = await req.build({ logId: claim.logId, seq: n + 1, prevHash });
    const e = built.entry;
    if (e.logId !== claim.logId || e.seq !== n + 1 || e.prevHash !== prevHash || e.requestId !== req.requestId || e.requestDigest !== req.requestDigest) {
      throw new LedgerStateError('build() returned an entry for another slot or request');
    }
    const stored = toStoredEntry(built);
    if (await store.putEntryIfAbsent(stored)) return ok(await placed(store, stored, 'appended'));
  }
  return err({ code: 'append-contention', message: `no free slot after ${maxAttempts} attempts` });
}
