/**
 * The ledger table as the AWS scale model sees it: the real in-memory store (core/ledger/store/memory-store.ts) behind the
 * calls the DynamoDB adapter (adapters/dynamodb-ledger-store.ts) would send, each one
 *   - waiting out the instance's pending CPU (the request leaves only when the code that issues it has run),
 *   - taking half its operation's latency (latency-profile.ts: reads and writes apart) to reach the table, being
 *     applied and metered there at that virtual instant (or throttled: ThrottlingError, nothing charged), and half a
 *     latency plus what the item's size adds to answer,
 *   - retried on throttling by the SDK's standard strategy (sdk-retry.ts).
 * Items are metered in the adapter's layout: entry {pk "log#<logId>", sk seq, bodyz, requestId, kind, entryHash} built
 * by the adapter's own encoder (adapters/ledger-entry-item.ts: the body raw-DEFLATEd, ADR 0355),
 * claim {pk "req#<requestId>", sk 0, logId, requestDigest, headBefore}, position {pk "req#<requestId>", sk 1, logId,
 * seq}, batch marker by the adapter's own encoder (adapters/ledger-marker-item.ts, ADR 0498). A Query is paged at 1 MB as DynamoDB pages it, one call (latency and units) per page.
 * A group of slot writes (putEntriesIfAbsent, docs/adr/0350-group-commit-of-slot-writes.md) is one conditional
 * PutItem of the adapter's bundle item (docs/adr/0400-group-commit-as-one-entry-bundle.md): one latency, 1 WCU per
 * started KB of the whole bundle. Reads size what DynamoDB returns: the head read the log's last item (a bundle whole),
 * readEntries every item keyed from MAX_GROUP_MEMBERS - 1 below its first seq, as the adapter queries.
 * Checkpoint and listing methods are passed through unmodelled: the append path never calls them.
 */
import type { AttributeValue as WireValue } from '@aws-sdk/client-dynamodb';
import { entriesItem, entryItem as wireEntryItem } from '../../../adapters/ledger-entry-item.js';
import { markerItem } from '../../../adapters/ledger-marker-item.js';
import { MemoryLedgerStore } from '../../../core/ledger/store/memory-store.js';
import {
  MAX_GROUP_MEMBERS,
  type BatchMarker,
  type Claim,
  type LedgerStore,
  type Position,
  type StoredCheckpoint,
  type StoredEntry,
} from '../../../core/ledger/store/store.js';
import { itemSize, readUnits, writeUnits, type AttributeValue } from './dynamodb-capacity.js';
import type { CapacityMeter } from './capacity-meter.js';
import { ThrottlingError, withSdkRetry, type RetryContext } from './sdk-retry.js';
import type { VirtualClock } from './virtual-clock.js';
import type { CallLatency, DynamoOp } from './latency-profile.js';

/** DynamoDB's Query page limit (1 MB of items read). */
export const QUERY_PAGE_BYTES = 1024 * 1024;
export const LEDGER_TABLE = 'ledger';

/** What a modelled call needs from the simulated instance that sends it. */
export interface CallSite {
  readonly clock: VirtualClock;
  readonly meter: CapacityMeter;
  /** The latency of each kind of call (latency-profile.ts). */
  readonly latency: CallLatency;
  readonly retry: RetryContext;
  /** Resolves once the instance's CPU has done the work queued before this call. */
  readonly cpuDone: () => Promise<void>;
  /** Told of every slot write: when it was sent, answered, and whether it created the slot. */
  readonly onSlotWrite?: (sentAt: number, answeredAt: number, created: boolean, entries: number) => void;
  /** Told of every head read: when it was sent and answered (the batch cycle's head-read step). */
  readonly onHeadRead?: (sentAt: number, answeredAt: number) => void;
}

export type MessagingService = 'sqs-standard' | 'sqs-fifo' | 'sns';

/** The world shared by every instance: the one table, the size of each stored item, when each entry became durable. */
export class LedgerTable {
  readonly store = new MemoryLedgerStore();
  readonly sizes = new Map<string, number>();
  /** `${logId}\u0000${seq}` → the first seq of the item (entry or bundle) holding it. */
  readonly itemOf = new Map<string, number>();
  /** Request id → virtual time its entry's slot write was applied (durable). */
  readonly durableAt = new Map<string, number>();
  lostSlots = 0;
}

/**
 * An entry's item as the adapter stores it: built by the adapter's own encoder (adapters/ledger-entry-item.ts, the
 * compressed body of ADR 0355), translated to the model's attribute values, so what is metered is what is stored.
 */
export const entryItem = (e: StoredEntry): Record<string, AttributeValue> => fromWire(wireEntryItem(e));
/** A group's one item as the adapter stores it: an entry item, or a bundle item (ADR 0400). */
export const groupItem = (entries: readonly StoredEntry[]): Record<string, AttributeValue> =>
  fromWire(entriesItem(entries));

/** A DynamoDB item's attribute values (S, N, B, and the L of M a bundle holds) as the model sizes them. */
export function fromWire(item: Readonly<Record<string, WireValue>>): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [name, v] of Object.entries(item)) out[name] = fromWireValue(name, v);
  return out;
}

function fromWireValue(name: string, v: WireValue): AttributeValue {
  if (typeof v.S === 'string') return v.S;
  if (typeof v.N === 'string') return Number(v.N);
  if (v.B instanceof Uint8Array) return v.B;
  if (Array.isArray(v.L)) return v.L.map((x) => fromWireValue(name, x));
  if (v.M !== undefined) return fromWire(v.M);
  throw new Error(`the scale model sizes S, N, B, L and M attributes only, not ${name}`);
}
export const claimItem = (c: Claim): Record<string, AttributeValue> => ({
  pk: `req#${c.requestId}`,
  sk: 0,
  logId: c.logId,
  requestDigest: c.requestDigest,
  headBefore: c.headBefore,
});
export const positionItem = (p: Position): Record<string, AttributeValue> => ({
  pk: `req#${p.requestId}`,
  sk: 1,
  logId: p.logId,
  seq: p.seq,
});

/**
 * One network round trip of a DynamoDB call from `site`, retried as the SDK retries a throttle: half the operation's
 * latency to reach the table, the call served there (it reports the bytes of item it moved), then the other half and
 * the time those bytes add (latency-profile.ts `itemMs`) to answer.
 */
export async function dynamoCall<T>(
  site: CallSite,
  op: DynamoOp,
  serve: (nowMs: number, moved: (bytes: number) => void) => Promise<T>,
): Promise<T> {
  await site.cpuDone();
  return withSdkRetry(async () => {
    const l = site.latency.dynamo(op);
    let bytes = 0;
    await site.clock.sleep(l / 2);
    try {
      return await serve(site.clock.now, (b) => (bytes += b));
    } finally {
      await site.clock.sleep(l / 2 + site.latency.itemMs(bytes));
    }
  }, site.retry);
}

export class ModelledLedgerStore implements LedgerStore {
  private readonly inner: MemoryLedgerStore;

  constructor(
    private readonly table: LedgerTable,
    private readonly site: CallSite,
  ) {
    this.inner = table.store;
  }

  private charge(pk: string, kind: 'wcu' | 'rcu', units: number, now: number): void {
    if (!this.site.meter.charge(LEDGER_TABLE, pk, kind, units, now)) throw new ThrottlingError(`${pk} throttled`);
  }

  /** A conditional create: charged at the larger of the stored and the offered item, created or not. */
  private async putIfAbsent(
    item: Record<string, AttributeValue>,
    now: number,
    apply: () => Promise<boolean>,
  ): Promise<boolean> {
    const key = `${String(item.pk)}\u0000${String(item.sk)}`;
    const size = itemSize(item);
    const old = this.table.sizes.get(key);
    this.charge(String(item.pk), 'wcu', writeUnits(Math.max(size, old ?? 0)), now);
    // Recorded before the store applies it, so a concurrent write at the same instant sees the item as present.
    if (old === undefined) this.table.sizes.set(key, size);
    const created = await apply();
    if (created !== (old === undefined)) throw new Error(`scale model out of step with the store at ${key}`);
    return created;
  }

  /** Size of the item (entry or bundle) holding `seq`, and its key's sort value. */
  private itemHolding(logId: string, seq: number): { sk: number; size: number } {
    const sk = this.table.itemOf.get(`${logId}\u0000${seq}`) ?? seq;
    return { sk, size: this.table.sizes.get(`log#${logId}\u0000${sk}`) ?? 0 };
  }

  readHead(logId: string): Promise<StoredEntry | null> {
    const sentAt = this.site.clock.now;
    return dynamoCall(this.site, 'read', async (now, moved) => {
      const head = await this.inner.readHead(logId);
      const size = head === null ? 0 : this.itemHolding(logId, head.seq).size;
      this.charge(`log#${logId}`, 'rcu', readUnits(size), now);
      moved(size);
      return head;
    }).then((head) => {
      this.site.onHeadRead?.(sentAt, this.site.clock.now);
      return head;
    });
  }

  /** The adapter's one Query: every item keyed from MAX_GROUP_MEMBERS - 1 below fromSeq to toSeq, 1 MB pages. */
  async *readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry> {
    const low = Math.max(0, fromSeq - (MAX_GROUP_MEMBERS - 1));
    const pages: { entries: StoredEntry[]; bytes: number }[] = [{ entries: [], bytes: 0 }];
    const counted = new Set<number>();
    for await (const e of this.inner.readEntries(logId, low, toSeq)) {
      const item = this.itemHolding(logId, e.seq);
      if (item.sk >= low && !counted.has(item.sk)) {
        counted.add(item.sk);
        if (pages.at(-1)!.bytes + item.size > QUERY_PAGE_BYTES && pages.at(-1)!.bytes > 0)
          pages.push({ entries: [], bytes: 0 });
        pages.at(-1)!.bytes += item.size;
      }
      if (e.seq >= fromSeq) pages.at(-1)!.entries.push(e);
    }
    for (const page of pages) {
      await dynamoCall(this.site, 'read', async (now, moved) => {
        this.charge(`log#${logId}`, 'rcu', readUnits(page.bytes), now);
        moved(page.bytes);
      });
      yield* page.entries;
    }
  }

  putEntryIfAbsent(entry: StoredEntry): Promise<boolean> {
    return this.putGroup([entry], () => this.inner.putEntryIfAbsent(entry));
  }

  /** One conditional PutItem of the group's bundle item (ADR 0400): created when its first slot's key is free. */
  putEntriesIfAbsent(entries: readonly StoredEntry[]): Promise<boolean> {
    return this.putGroup(entries, () => this.inner.putEntriesIfAbsent(entries));
  }

  private putGroup(entries: readonly StoredEntry[], apply: () => Promise<boolean>): Promise<boolean> {
    const sentAt = this.site.clock.now;
    const first = entries[0]!;
    return dynamoCall(this.site, 'write', async (now, moved) => {
      // The store checks every slot; the item's key is only the first: "out of step" if they ever disagree.
      const item = groupItem(entries);
      moved(itemSize(item));
      const created = await this.putIfAbsent(item, now, apply);
      if (created)
        for (const e of entries) {
          this.table.durableAt.set(e.projection.requestId, now);
          this.table.itemOf.set(`${e.logId}\u0000${e.seq}`, first.seq);
        }
      else this.table.lostSlots += entries.length;
      return created;
    }).then((created) => {
      this.site.onSlotWrite?.(sentAt, this.site.clock.now, created, entries.length);
      return created;
    });
  }

  readClaim(requestId: string): Promise<Claim | null> {
    return dynamoCall(this.site, 'read', async (now) => {
      const c = await this.inner.readClaim(requestId);
      this.charge(`req#${requestId}`, 'rcu', readUnits(c === null ? 0 : itemSize(claimItem(c))), now);
      return c;
    });
  }

  putClaimIfAbsent(claim: Claim): Promise<boolean> {
    return dynamoCall(this.site, 'write', (now) =>
      this.putIfAbsent(claimItem(claim), now, () => this.inner.putClaimIfAbsent(claim)),
    );
  }

  readPosition(requestId: string): Promise<Position | null> {
    return dynamoCall(this.site, 'read', async (now) => {
      const p = await this.inner.readPosition(requestId);
      this.charge(`req#${requestId}`, 'rcu', readUnits(p === null ? 0 : itemSize(positionItem(p))), now);
      return p;
    });
  }

  putPositionIfAbsent(position: Position): Promise<boolean> {
    return dynamoCall(this.site, 'write', (now) =>
      this.putIfAbsent(positionItem(position), now, () => this.inner.putPositionIfAbsent(position)),
    );
  }

  /** One conditional PutItem of the adapter's marker item (adapters/ledger-marker-item.ts, ADR 0498). */
  putMarkerIfAbsent(marker: BatchMarker): Promise<boolean> {
    return dynamoCall(this.site, 'write', (now, moved) => {
      const item = fromWire(markerItem(marker));
      moved(itemSize(item));
      return this.putIfAbsent(item, now, () => this.inner.putMarkerIfAbsent(marker));
    });
  }

  /** The adapter's one Query of the log's marker partition, in 1 MB pages. */
  async *readMarkers(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<BatchMarker> {
    const pages: { markers: BatchMarker[]; bytes: number }[] = [{ markers: [], bytes: 0 }];
    for await (const m of this.inner.readMarkers(logId, fromSeq, toSeq)) {
      const size = itemSize(fromWire(markerItem(m)));
      if (pages.at(-1)!.bytes + size > QUERY_PAGE_BYTES) pages.push({ markers: [], bytes: 0 });
      pages.at(-1)!.bytes += size;
      pages.at(-1)!.markers.push(m);
    }
    for (const page of pages) {
      await dynamoCall(this.site, 'read', async (now, moved) => {
        this.charge(`mark#${logId}`, 'rcu', readUnits(page.bytes), now);
        moved(page.bytes);
      });
      yield* page.markers;
    }
  }

  putCheckpointIfAbsent(checkpoint: StoredCheckpoint): Promise<boolean> {
    return this.inner.putCheckpointIfAbsent(checkpoint);
  }

  readCheckpoints(logId: string): AsyncIterable<StoredCheckpoint> {
    return this.inner.readCheckpoints(logId);
  }

  listLogs(): Promise<string[]> {
    return this.inner.listLogs();
  }
}
