/**
 * The append protocol (ADR 0160) over LedgerStore's conditional single-item creates:
 * exactly one terminal entry per request id under duplicate deliveries, concurrent deliveries and a crash at any
 * point; a log never forks (slots are created conditionally) and never has a gap (only slot head+1 is ever tried).
 *
 *   (a) read the head h0 of the log chosen for a new request (or take a cached head: heads only grow, so a cached
 *       one is a valid lower bound) and create the claim {requestId, logId, requestDigest, headBefore: h0} if absent.
 *       Created → this is the request's first sight: no entry or position of it can exist yet, skip to (c).
 *       Refused → read the winner; a requestDigest other than ours is a typed `request-id-conflict`. The claim
 *       fixes the log;
 *   (b) a position item exists → the request's entry is already placed: return it (duplicate);
 *   (c) loop: with head n of the claim's log, scan (claim.headBefore, n] for this request id — found → write the
 *       position (if absent) and return it (duplicate); else build the entry for seq n+1 with prev = hash(entry n)
 *       and create slot n+1 if absent; success → write the position and return; lost slot → re-read the head, repeat.
 * On the fast path (first sight, warm head cache, no contention) an append costs three conditional writes, and only
 * the slot write of (c) has to run one at a time per log within a writer (`slotLock`; ADR 0160).
 */
import { err, ok, type Result } from '../result.js';
import { entryHashOf, toStoredEntry, type BuiltEntry } from './entry.js';
import { selectLog } from './log-selection.js';
import type { Claim, LedgerStore, StoredEntry } from './store.js';

/** A writer's own memory of each log's head. Only ever a lower bound of the true head, so it can cost a retry but
 *  never correctness; a writer keeps one per process and shares it across its appends. */
export type HeadCache = Map<string, StoredEntry | null>;

export interface AppendRequest {
  readonly requestId: string;
  /** SHA-256 (hex) of the exact request bytes. */
  readonly requestDigest: string;
  /** The configured log ids; a new request's log is `logId` when given, else selectLog(requestId, logIds). */
  readonly logIds: readonly string[];
  /** The log for a new request (e.g. a writer's own log, to avoid slot contention); must be one of logIds. */
  readonly logId?: string;
  /** Builds and signs the entry for (logId, seq, prevHash); called once per attempted slot. */
  build(slot: {
    readonly logId: string;
    readonly seq: number;
    readonly prevHash: string | null;
  }): BuiltEntry | Promise<BuiltEntry>;
  /** Upper bound on lost-slot retries before giving up (a store error, not a ledger state); default 10,000. */
  readonly maxAttempts?: number;
  readonly headCache?: HeadCache;
  /**
   * Runs the slot step (find this request's entry above headBefore, or write slot head+1) one at a time per log
   * within this writer, so its own appends never race each other for a slot. Claim and position writes run outside
   * it. Absent: no serialization (correct, but concurrent appends to one log may lose slots and retry).
   */
  readonly slotLock?: SlotLock;
  readonly ownSlots?: OwnSlots;
}

export type SlotLock = <T>(logId: string, task: () => Promise<T>) => Promise<T>;

/**
 * Slots this writer created, per log: seq → request id. A created slot never changes, so this is exact knowledge of
 * those entries: when every slot above a claim's headBefore is one of them and none is the request's, the scan of
 * step (c) can be answered from memory instead of a read. Bounded: the oldest are forgotten (then the scan reads).
 */
export type OwnSlots = Map<string, Map<number, string>>;
const OWN_SLOTS_PER_LOG = 4096;

function rememberOwnSlot(own: OwnSlots | undefined, logId: string, seq: number, requestId: string): void {
  if (own === undefined) return;
  let slots = own.get(logId);
  if (slots === undefined) own.set(logId, (slots = new Map()));
  slots.set(seq, requestId);
  if (slots.size > OWN_SLOTS_PER_LOG) slots.delete(slots.keys().next().value as number);
}

/** True when slots from..to are all this writer's and none holds `requestId`: nothing there to find. */
function ownedByOthers(own: OwnSlots | undefined, logId: string, from: number, to: number, requestId: string): boolean {
  const slots = own?.get(logId);
  if (slots === undefined) return false;
  for (let seq = from; seq <= to; seq++) {
    const r = slots.get(seq);
    if (r === undefined || r === requestId) return false;
  }
  return true;
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

async function readHead(store: LedgerStore, logId: string, cache: HeadCache | undefined): Promise<StoredEntry | null> {
  const head = await store.readHead(logId);
  cache?.set(logId, head);
  return head;
}

function newRequestLog(req: AppendRequest): string {
  if (req.logId === undefined) return selectLog(req.requestId, req.logIds);
  if (!req.logIds.includes(req.logId)) throw new RangeError(`log ${JSON.stringify(req.logId)} is not a configured log`);
  return req.logId;
}

interface ClaimSight {
  readonly claim: Claim;
  readonly created: boolean;
  readonly head: StoredEntry | null | undefined;
}

async function claimFor(store: LedgerStore, req: AppendRequest): Promise<ClaimSight> {
  const logId = newRequestLog(req);
  const cached = req.headCache?.get(logId);
  const head = cached !== undefined ? cached : await readHead(store, logId, req.headCache);
  const claim: Claim = {
    requestId: req.requestId,
    logId,
    requestDigest: req.requestDigest,
    headBefore: head === null ? -1 : head.seq,
  };
  if (await store.putClaimIfAbsent(claim)) return { claim, created: true, head };
  const winner = await store.readClaim(req.requestId);
  if (winner === null) throw new LedgerStateError(`claim for ${req.requestId} refused yet absent`);
  return { claim: winner, created: false, head: undefined };
}

async function placed(store: LedgerStore, entry: StoredEntry, status: AppendOutcome['status']): Promise<AppendOutcome> {
  await store.putPositionIfAbsent({ requestId: entry.projection.requestId, logId: entry.logId, seq: entry.seq });
  return { status, entry };
}

/** Appends the one terminal entry of a request, or returns the one already there. Store errors propagate (retry). */
export async function appendOnce(store: LedgerStore, req: AppendRequest): Promise<Result<AppendOutcome, AppendError>> {
  const sight = await claimFor(store, req);
  const claim = sight.claim;
  if (claim.requestDigest !== req.requestDigest) {
    return err({
      code: 'request-id-conflict',
      claim,
      message: `request id ${JSON.stringify(req.requestId)} was first seen with other bytes`,
    });
  }
  if (!sight.created) {
    // (b) The position is written only after its entry, so when present the entry is final.
    const position = await store.readPosition(req.requestId);
    if (position !== null) {
      const e = await entryAt(store, position.logId, position.seq);
      if (e === null || e.projection.requestId !== req.requestId)
        throw new LedgerStateError(`position of ${req.requestId} names no entry of it`);
      return ok({ status: 'duplicate', entry: e });
    }
  }
  // (c) Only the slot write needs one-at-a-time per log; the claim and the position do not (ADR 0160).
  const slotLock = req.slotLock ?? ((_logId, task) => task());
  const slot = await slotLock(claim.logId, () => takeSlot(store, req, claim, sight.head));
  if (!slot.ok) return slot;
  return ok(await placed(store, slot.value.entry, slot.value.status));
}

/**
 * (c) Any entry of this request sits above headBefore (every writer reads the head only after the claim exists):
 * find it, or write slot head+1. Starts from the freshest head this writer knows — the cache is updated by every
 * append that ran while this one waited for the slot lock — which is still only a lower bound.
 */
async function takeSlot(
  store: LedgerStore,
  req: AppendRequest,
  claim: Claim,
  sighted: StoredEntry | null | undefined,
): Promise<Result<AppendOutcome, AppendError>> {
  let scanned = claim.headBefore;
  const cached = req.headCache?.get(claim.logId);
  let head = cached !== undefined ? cached : sighted;
  const maxAttempts = req.maxAttempts ?? 10_000;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    if (head === undefined) head = await readHead(store, claim.logId, req.headCache);
    const n = head === null ? -1 : head.seq;
    if (n > scanned) {
      if (!ownedByOthers(req.ownSlots, claim.logId, scanned + 1, n, req.requestId)) {
        for await (const e of store.readEntries(claim.logId, scanned + 1, n)) {
          if (e.projection.requestId === req.requestId) return ok({ status: 'duplicate', entry: e });
        }
      }
      scanned = n;
    }
    const prevHash = head === null ? null : entryHashOf(head.body);
    const built = await req.build({ logId: claim.logId, seq: n + 1, prevHash });
    const e = built.entry;
    if (
      e.logId !== claim.logId ||
      e.seq !== n + 1 ||
      e.prevHash !== prevHash ||
      e.requestId !== req.requestId ||
      e.requestDigest !== req.requestDigest
    ) {
      throw new LedgerStateError('build() returned an entry for another slot or request');
    }
    const stored = toStoredEntry(built);
    if (await store.putEntryIfAbsent(stored)) {
      req.headCache?.set(claim.logId, stored);
      rememberOwnSlot(req.ownSlots, claim.logId, stored.seq, req.requestId);
      return ok({ status: 'appended', entry: stored });
    }
    head = undefined; // lost the slot: the cached or read head was stale
  }
  return err({ code: 'append-contention', message: `no free slot after ${maxAttempts} attempts` });
}
