/**
 * The append protocol (ADR 0160; docs/ledger-write-path.md) over LedgerStore's conditional creates: exactly one entry
 * per request id under duplicate and concurrent deliveries and a crash at any point; a log never forks (slots are
 * created conditionally) and never has a gap (only head+1 is ever tried).
 *
 *   (a) with head h0 of the writer's log (read, or cached: heads only grow, so a cached one is a lower bound) create
 *       the claim {requestId, logId, requestDigest, headBefore: h0} if absent (`claimRequest`, which a writer may
 *       start before evaluation, ADR 0402). Created → first sight: skip to (c). Refused → the winner's claim fixes
 *       the log; another requestDigest is a typed `request-id-conflict`;
 *   (b) a position exists (its own item, or a batch marker keyed above headBefore naming it: ADR 0498) → the entry
 *       is already placed: return it (duplicate);
 *   (c) with head n, scan (claim.headBefore, n] for this request id — found → write its position, return it
 *       (duplicate); else build the entry for seq n+1 chained to entry n and create slot n+1 if absent — lost →
 *       re-read the head and repeat. The slot writes of a log are group-committed (`slotCommits`, ADR 0350): its
 *       waiting appends take slots n+1..n+k in one all-or-nothing bundle write (ADR 0400).
 *
 * One writer per log (ADR 0270): a claim naming another log is the typed `claim-in-other-log`, never a slot write
 * there; a head read below a seq this writer created (`writtenSeqs`) is the typed `head-regressed` (ADR 0271).
 */
import { err, ok, type Result } from '../../result.js';
import { entryHashOf, toStoredEntry, type BuiltEntry } from '../entries/entry.js';
import { SlotGroups, type GroupAnswer } from './slot-groups.js';
import type { Claim, LedgerStore, StoredEntry } from '../store/store.js';
import { markedPosition } from '../store/find-position.js';

/** A writer's own memory of each log's head. Only ever a lower bound of the true head, so it can cost a retry but
 *  never correctness; a writer keeps one per process and shares it across its appends. */
export type HeadCache = Map<string, StoredEntry | null>;

export interface AppendRequest {
  readonly requestId: string;
  /** SHA-256 (hex) of the exact request bytes. */
  readonly requestDigest: string;
  /** The writer's log, the only one it writes (ADR 0270); the writer checks it is a configured log. */
  readonly logId: string;
  /** Builds and signs the entry for (logId, seq, prevHash); called once per attempted slot. */
  build(slot: {
    readonly logId: string;
    readonly seq: number;
    readonly prevHash: string | null;
  }): BuiltEntry | Promise<BuiltEntry>;
  /** Upper bound on lost-slot retries before giving up (a store error, not a ledger state); default 10,000. */
  readonly maxAttempts?: number;
  readonly headCache?: HeadCache;
  /** The writer's group commit of the slot step (ADR 0350), so its own appends never race each other for a slot. */
  readonly slotCommits: SlotCommits;
  /** Step (a) already started by `claimRequest` for this request and log; awaited in its place. */
  readonly claimed?: Promise<ClaimSight>;
  /** Awaited before the first slot step (never before the claim); a rejection fails the append, nothing written. */
  readonly beforeSlot?: Promise<unknown>;
  /** This append's arrival, announced to `slotCommits` by the writer (`expect`); passed on its first join. */
  readonly slotArrival?: () => void;
  readonly ownSlots?: OwnSlots;
  /** The highest seq this writer created per log; a head read below it is `head-regressed` (ADR 0271). */
  readonly writtenSeqs?: WrittenSeqs;
  readonly headReads?: HeadReads;
  /**
   * Waits before lost-slot retry number `attempt` (1, 2, ...), outside the group commit. Core has no clock nor
   * randomness: the edge passes a jittered sleep (backoffDelayMs below gives the policy). Absent: retry at once.
   */
  readonly backoff?: (attempt: number) => Promise<void>;
}

/** Per log, the highest seq this writer itself created. Heads only grow, so a head read below it means a deletion. */
export type WrittenSeqs = Map<string, number>;

/**
 * Head reads in flight, per log, shared by a writer's concurrent appends: after a batch forgets its heads, its
 * records' first sights cost one read of each log, not one each (docs/adr/0280-aws-scale-model.md measured the
 * difference: ~1 RCU per entry against ~0.1).
 */
export type HeadReads = Map<string, Promise<StoredEntry | null>>;

/**
 * Full-jitter exponential backoff (the AWS SDK's own policy shape): a delay drawn uniformly from
 * [0, min(1000, 20 * 2^(attempt-1))) ms. `unit` is a uniform draw in [0, 1) from the edge.
 */
export function backoffDelayMs(attempt: number, unit: number): number {
  const ceiling = Math.min(1000, 20 * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  const u = Number.isFinite(unit) ? Math.min(Math.max(unit, 0), 1) : 0;
  return Math.floor(ceiling * u);
}

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
  | { readonly code: 'append-contention'; readonly message: string }
  /** The request's claim fixes another log; this writer must not write there (ADR 0270). */
  | { readonly code: 'claim-in-other-log'; readonly claim: Claim; readonly message: string }
  /** A log's head read below a seq this writer created: an entry was deleted (ADR 0271). Nothing was written. */
  | {
      readonly code: 'head-regressed';
      readonly logId: string;
      readonly headSeq: number;
      readonly writtenSeq: number;
      readonly message: string;
    };

/** Thrown inside the protocol when a head read regresses; appendOnce answers it as the typed error above. */
class HeadRegressed extends Error {
  constructor(readonly detail: Extract<AppendError, { code: 'head-regressed' }>) {
    super(detail.message);
  }
}

/** The store holds a state the protocol never writes (e.g. a position naming a missing entry): thrown. */
export class LedgerStateError extends Error {
  override readonly name = 'LedgerStateError';
  readonly code = 'ledger-state';
}

async function entryAt(store: LedgerStore, logId: string, seq: number): Promise<StoredEntry | null> {
  for await (const e of store.readEntries(logId, seq, seq)) if (e.seq === seq) return e;
  return null;
}

async function readHead(
  store: LedgerStore,
  logId: string,
  req: Pick<AppendRequest, 'headCache' | 'writtenSeqs' | 'headReads'>,
): Promise<StoredEntry | null> {
  const shared = req.headReads?.get(logId);
  if (shared !== undefined) return shared;
  const read = readHeadChecked(store, logId, req);
  const reads = req.headReads;
  if (reads !== undefined) {
    reads.set(logId, read);
    const done = (): void => {
      if (reads.get(logId) === read) reads.delete(logId);
    };
    read.then(done, done);
  }
  return read;
}

async function readHeadChecked(
  store: LedgerStore,
  logId: string,
  req: Pick<AppendRequest, 'headCache' | 'writtenSeqs'>,
): Promise<StoredEntry | null> {
  // What this writer had created when the read was sent: a consistent read must see at least that. A seq written
  // while the read was in flight proves nothing (the read may have been served just before it).
  const writtenSeq = req.writtenSeqs?.get(logId);
  const head = await store.readHead(logId);
  const headSeq = head === null ? -1 : head.seq;
  if (writtenSeq !== undefined && headSeq < writtenSeq) {
    // Refused before the cache learns the lower head: the writer keeps refusing this log until the head is back.
    throw new HeadRegressed({
      code: 'head-regressed',
      logId,
      headSeq,
      writtenSeq,
      message: `log ${logId} head is ${headSeq}, below seq ${writtenSeq} this writer created: an entry was deleted`,
    });
  }
  // Never lower the cache: a slot this writer wrote while the read was in flight is a better lower bound.
  const cached = req.headCache?.get(logId);
  if (cached === undefined || cached === null || (head !== null && head.seq > cached.seq))
    req.headCache?.set(logId, head);
  return head;
}

/** Step (a)'s answer: the request's claim, whether this call created it, and the head it read first (if it did). */
export interface ClaimSight {
  readonly claim: Claim;
  readonly created: boolean;
  readonly head: StoredEntry | null | undefined;
}

/** The parts of an append that step (a) reads: enough to claim before the entry's content is known. */
export type ClaimRequest = Pick<
  AppendRequest,
  'requestId' | 'requestDigest' | 'logId' | 'headCache' | 'writtenSeqs' | 'headReads'
>;

/**
 * Step (a) on its own, which a writer may run while the request is still being evaluated (ADR 0402): the claim depends
 * only on the request's id and exact bytes, and every later step waits for it, so the protocol's order is unchanged.
 */
export async function claimRequest(store: LedgerStore, req: ClaimRequest): Promise<ClaimSight> {
  const logId = req.logId;
  const cached = req.headCache?.get(logId);
  const head = cached !== undefined ? cached : await readHead(store, logId, req);
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

/** Appends the one terminal entry of a request, or returns the one already there. Store errors propagate (retry). */
export async function appendOnce(store: LedgerStore, req: AppendRequest): Promise<Result<AppendOutcome, AppendError>> {
  try {
    return await appendChecked(store, req);
  } catch (e) {
    if (e instanceof HeadRegressed) return err(e.detail);
    throw e;
  }
}

async function appendChecked(store: LedgerStore, req: AppendRequest): Promise<Result<AppendOutcome, AppendError>> {
  const sight = await (req.claimed ?? claimRequest(store, req));
  const claim = sight.claim;
  if (claim.requestDigest !== req.requestDigest) {
    return err({
      code: 'request-id-conflict',
      claim,
      message: `request id ${JSON.stringify(req.requestId)} was first seen with other bytes`,
    });
  }
  if (!sight.created) {
    // (b) A position (its own item or a batch marker, ADR 0498) is written only after its entry, so when present the
    // entry is final.
    const position = (await store.readPosition(req.requestId)) ?? (await markedPosition(store, claim));
    if (position !== null) {
      const e = await entryAt(store, position.logId, position.seq);
      if (e === null || e.projection.requestId !== req.requestId)
        throw new LedgerStateError(`position of ${req.requestId} names no entry of it`);
      return ok({ status: 'duplicate', entry: e });
    }
  }
  if (claim.logId !== req.logId) {
    // A redelivery whose claim names another log (the logs were reconfigured): that log has its own writer, and
    // writing its slot from here would race it (docs/adr/0270-one-writer-per-log.md).
    return err({
      code: 'claim-in-other-log',
      claim,
      message: `request ${JSON.stringify(req.requestId)} is claimed by log ${claim.logId}, not ${req.logId}`,
    });
  }
  // (c) Only the slot write needs one-at-a-time per log; the claim and the position do not (ADR 0160).
  if (req.beforeSlot !== undefined) await req.beforeSlot;
  const slot = await takeSlot(store, req, claim, sight.head);
  // An entry this call appended gets its position from the delivery stage (core/pipeline/deliver-job.ts): positions
  // only spare duplicates a scan — any entry of the request sits above its claim's headBefore, and step (c) scans
  // there — so none is needed for correctness. A duplicate still writes its own.
  if (!slot.ok || slot.value.status === 'appended') return slot;
  const { entry } = slot.value;
  await store.putPositionIfAbsent({ requestId: req.requestId, logId: entry.logId, seq: entry.seq });
  return slot;
}

export interface SlotSearch {
  /** Entries up to this seq were scanned for the request (from claim.headBefore). */
  scanned: number;
  /** The head to try above; undefined → read it. */
  head: StoredEntry | null | undefined;
}

/**
 * (c) Any entry of this request sits above headBefore (every writer reads the head only after the claim exists):
 * find it, or write slot head+1. Starts from the freshest head this writer knows — the cache is updated by every
 * append that ran while this one waited for its group — which is still only a lower bound. Each try runs in a group
 * commit; a lost slot leaves it and backs off before the next (ADR 0272), and the next try scans only the entries
 * written since the last one, skipping those this writer created itself.
 */
async function takeSlot(
  store: LedgerStore,
  req: AppendRequest,
  claim: Claim,
  sighted: StoredEntry | null | undefined,
): Promise<Result<AppendOutcome, AppendError>> {
  const search: SlotSearch = { scanned: claim.headBefore, head: sighted };
  const maxAttempts = req.maxAttempts ?? 10_000;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    if (attempt > 0 && req.backoff !== undefined) await req.backoff(attempt);
    const tried = await req.slotCommits.join(claim.logId, { store, req, claim, search }, req.slotArrival);
    if (tried !== 'lost') return ok(tried);
  }
  return err({ code: 'append-contention', message: `no free slot after ${maxAttempts} attempts` });
}

/** One append waiting for its log's slot step under group commit. */
export interface SlotMember {
  readonly store: LedgerStore;
  readonly req: AppendRequest;
  readonly claim: Claim;
  readonly search: SlotSearch;
}

export type SlotCommits = SlotGroups<SlotMember, AppendOutcome | 'lost'>;

/**
 * A writer's group commit of slot writes (ADR 0350). `maxBytes` bounds one group's entries (they are stored as one
 * bundle item, ADR 0400, so DynamoDB's 400 KB item limit); members past it wait for the next group, in order.
 */
export function slotCommits(maxBytes = GROUP_MAX_BYTES): SlotCommits {
  return new SlotGroups((logId, members) => commitSlots(logId, members, maxBytes));
}

/**
 * DynamoDB's item limit (409,600 bytes) less 1 KB for the bundle's key and list overhead. Members are sized by their
 * uncompressed body (itemBytes), an upper bound of what the bundle stores (ADR 0355). A first member larger than this
 * still goes alone: admission made every entry fit one item, and a group of one is a single entry item.
 */
export const GROUP_MAX_BYTES = 409_600 - 1024;
/** Bytes an entry holds besides its strings: key and attribute names, a bundle member's map overhead. */
const ITEM_OVERHEAD_BYTES = 64;
const utf8 = new TextEncoder();

function itemBytes(e: StoredEntry): number {
  const p = e.projection;
  return ITEM_OVERHEAD_BYTES + utf8.encode(e.logId + e.body + p.requestId + p.kind + p.entryHash).length;
}

/** The freshest lower bound of the head known without a read: the cache, else the highest head a member sighted. */
function knownHead(logId: string, members: readonly SlotMember[]): StoredEntry | null | undefined {
  const cached = members[0]!.req.headCache?.get(logId);
  if (cached !== undefined) return cached;
  let best: StoredEntry | null | undefined;
  for (const m of members) {
    const h = m.search.head;
    if (h === undefined) continue;
    if (best === undefined || (h !== null && (best === null || h.seq > best.seq))) best = h;
  }
  return best;
}

/**
 * (c) for a group: one head, one scan read covering every member that needs one, then entries n+1..n+k chained in
 * memory and written all or nothing. A member already in the log is answered `duplicate` and takes no slot.
 */
async function commitSlots(
  logId: string,
  members: readonly SlotMember[],
  maxBytes: number,
): Promise<GroupAnswer<AppendOutcome | 'lost'>> {
  const { store, req: shared } = members[0]!;
  let head = knownHead(logId, members);
  if (head === undefined) head = await readHead(store, logId, shared);
  const n = head === null ? -1 : head.seq;
  const found = await scanGroup(store, logId, members, n);
  const outcomes: (AppendOutcome | 'lost')[] = [];
  const written: { member: number; stored: StoredEntry }[] = [];
  const inGroup = new Set<string>();
  let prev = head;
  let bytes = 0;
  for (const [i, m] of members.entries()) {
    const dup = found.get(i);
    if (dup !== undefined) {
      outcomes.push({ status: 'duplicate', entry: dup });
      continue;
    }
    // A second delivery of a request already in this group waits for the next one, whose scan then finds it.
    if (inGroup.has(m.req.requestId)) break;
    const stored = await buildSlot(m, logId, prev);
    bytes += itemBytes(stored);
    if (written.length > 0 && bytes > maxBytes) break;
    inGroup.add(m.req.requestId);
    written.push({ member: i, stored });
    outcomes.push('lost'); // replaced below once the write is answered
    prev = stored;
  }
  if (written.length > 0) {
    const entries = written.map((w) => w.stored);
    const created =
      entries.length === 1 ? await store.putEntryIfAbsent(entries[0]!) : await store.putEntriesIfAbsent(entries);
    if (created) {
      for (const w of written) {
        rememberOwnSlot(shared.ownSlots, logId, w.stored.seq, w.stored.projection.requestId);
        outcomes[w.member] = { status: 'appended', entry: w.stored };
      }
      const last = entries.at(-1)!;
      shared.headCache?.set(logId, last);
      if ((shared.writtenSeqs?.get(logId) ?? -1) < last.seq) shared.writtenSeqs?.set(logId, last.seq);
    } else {
      // Lost: nothing was written. Forget the head so each member's next try reads it (and checks it, ADR 0271).
      for (const m of members) m.search.head = undefined;
      if (shared.headCache?.get(logId) === head) shared.headCache.delete(logId);
    }
  }
  // Only the members answered here were judged against (…, n]; a deferred member scans again in its next group.
  for (const m of members.slice(0, outcomes.length)) if (n > m.search.scanned) m.search.scanned = n;
  return { outcomes, deferred: members.length - outcomes.length };
}

/**
 * Entries of members found in (search.scanned, n], by member index; one read covers every member needing one.
 * Leaves `search.scanned` alone: the caller advances it only for the members it answers.
 */
async function scanGroup(
  store: LedgerStore,
  logId: string,
  members: readonly SlotMember[],
  n: number,
): Promise<Map<number, StoredEntry>> {
  const found = new Map<number, StoredEntry>();
  let from = Infinity;
  for (const m of members) {
    const s = m.search;
    if (n > s.scanned && !ownedByOthers(m.req.ownSlots, logId, s.scanned + 1, n, m.req.requestId))
      from = Math.min(from, s.scanned + 1);
  }
  if (from !== Infinity) {
    const wanted = new Map<string, number[]>();
    for (const [i, m] of members.entries()) wanted.set(m.req.requestId, [...(wanted.get(m.req.requestId) ?? []), i]);
    for await (const e of store.readEntries(logId, from, n)) {
      for (const i of wanted.get(e.projection.requestId) ?? []) {
        if (e.seq > members[i]!.search.scanned && !found.has(i)) found.set(i, e);
      }
    }
  }
  return found;
}

async function buildSlot(m: SlotMember, logId: string, prev: StoredEntry | null): Promise<StoredEntry> {
  const seq = prev === null ? 0 : prev.seq + 1;
  const prevHash = prev === null ? null : entryHashOf(prev.body);
  const built = await m.req.build({ logId, seq, prevHash });
  const e = built.entry;
  if (
    e.logId !== logId ||
    e.seq !== seq ||
    e.prevHash !== prevHash ||
    e.requestId !== m.req.requestId ||
    e.requestDigest !== m.req.requestDigest
  ) {
    throw new LedgerStateError('build() returned an entry for another slot or request');
  }
  return toStoredEntry(built);
}
