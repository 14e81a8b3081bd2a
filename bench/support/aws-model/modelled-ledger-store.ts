/**
 * The ledger table as the AWS scale model sees it: the real in-memory store (core/ledger/store/memory-store.ts) behind the
 * calls the DynamoDB adapter (adapters/dynamodb-ledger-store.ts) would send, each one
 *   - waiting out the instance's pending CPU (the request leaves only when the code that issues it has run),
 *   - taking half a network latency to reach the table, being applied and metered there at that virtual instant
 *     (or throttled: ThrottlingError, nothing charged), and half a latency to answer,
 *   - retried on throttling by the SDK's standard strategy (sdk-retry.ts).
 * Items are metered in the adapter's layout: entry {pk "log#<logId>", sk seq, bodyz, requestId, kind, entryHash} built
 * by the adapter's own encoder (adapters/ledger-entry-item.ts: the body raw-DEFLATEd, ADR 0355),
 * claim {pk "req#<requestId>", sk 0, logId, requestDigest, headBefore}, position {pk "req#<requestId>", sk 1, logId,
 * seq}. A Query is paged at 1 MB as DynamoDB pages it, one call (latency and units) per page.
 * A group of slot writes (putEntriesIfAbsent: TransactWriteItems, docs/adr/0350-group-commit-of-slot-writes.md) costs
 * two phases, prepare then commit, each the slowest of one latency draw per item (the coordinator waits for every
 * item's storage node); it is applied and metered when the prepare phase ends: 2 WCU per started KB per item
 * (DynamoDB's transactional price), a cancelled transaction charged the same, at the larger of stored and offered.
 * Checkpoint and listing methods are passed through unmodelled: the append path never calls them.
 */
import type { AttributeValue as WireValue } from '@aws-sdk/client-dynamodb';
import { entryItem as wireEntryItem } from '../../../adapters/ledger-entry-item.js';
import { MemoryLedgerStore } from '../../../core/ledger/store/memory-store.js';
import type { Claim, LedgerStore, Position, StoredCheckpoint, StoredEntry } from '../../../core/ledger/store/store.js';
import { itemSize, readUnits, writeUnits, type AttributeValue } from './dynamodb-capacity.js';
import type { CapacityMeter } from './capacity-meter.js';
import { ThrottlingError, withSdkRetry, type RetryContext } from './sdk-retry.js';
import type { VirtualClock } from './virtual-clock.js';

/** DynamoDB's Query page limit (1 MB of items read). */
export const QUERY_PAGE_BYTES = 1024 * 1024;
export const LEDGER_TABLE = 'ledger';

/** What a modelled call needs from the simulated instance that sends it. */
export interface CallSite {
  readonly clock: VirtualClock;
  readonly meter: CapacityMeter;
  /** One network latency draw (ms). */
  readonly latency: () => number;
  readonly retry: RetryContext;
  /** Resolves once the instance's CPU has done the work queued before this call. */
  readonly cpuDone: () => Promise<void>;
  /** Told of every slot write: when it was sent, answered, and whether it created the slot. */
  readonly onSlotWrite?: (sentAt: number, answeredAt: number, created: boolean, entries: number) => void;
  /** A transaction phase: the slowest of one draw per item (default), or one draw (ADR 0350). */
  readonly transactionPhase?: 'slowest-item' | 'one-call';
  /** Told of every SQS or SNS call the site sends (they are priced per request). */
  readonly onMessagingCall?: () => void;
}

/** The world shared by every instance: the one table, the size of each stored item, when each entry became durable. */
export class LedgerTable {
  readonly store = new MemoryLedgerStore();
  readonly sizes = new Map<string, number>();
  /** Request id → virtual time its entry's slot write was applied (durable). */
  readonly durableAt = new Map<string, number>();
  lostSlots = 0;
}

/**
 * An entry's item as the adapter stores it: built by the adapter's own encoder (adapters/ledger-entry-item.ts, the
 * compressed body of ADR 0355), translated to the model's attribute values, so what is metered is what is stored.
 */
export const entryItem = (e: StoredEntry): Record<string, AttributeValue> => fromWire(wireEntryItem(e));

/** A DynamoDB item's attribute values (S, N, B: the only kinds the ledger writes) as the model sizes them. */
export function fromWire(item: Readonly<Record<string, WireValue>>): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [name, v] of Object.entries(item)) {
    if (typeof v.S === 'string') out[name] = v.S;
    else if (typeof v.N === 'string') out[name] = Number(v.N);
    else if (v.B instanceof Uint8Array) out[name] = v.B;
    else throw new Error(`the scale model sizes S, N and B attributes only, not ${name}`);
  }
  return out;
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

/** One network round trip of a DynamoDB call from `site`, retried as the SDK retries a throttle. */
export async function dynamoCall<T>(site: CallSite, serve: (nowMs: number) => Promise<T>): Promise<T> {
  await site.cpuDone();
  return withSdkRetry(async () => {
    const l = site.latency();
    await site.clock.sleep(l / 2);
    try {
      return await serve(site.clock.now);
    } finally {
      await site.clock.sleep(l / 2);
    }
  }, site.retry);
}

/** A transaction's round trip: the prepare phase, applied at the table, then the commit phase; retried on throttle. */
async function transactCall<T>(site: CallSite, phase: () => number, serve: (nowMs: number) => Promise<T>): Promise<T> {
  await site.cpuDone();
  return withSdkRetry(async () => {
    await site.clock.sleep(phase());
    try {
      return await serve(site.clock.now);
    } finally {
      await site.clock.sleep(phase());
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

  readHead(logId: string): Promise<StoredEntry | null> {
    return dynamoCall(this.site, async (now) => {
      const head = await this.inner.readHead(logId);
      const size =
        head === null ? 0 : (this.table.sizes.get(`log#${logId}\u0000${head.seq}`) ?? itemSize(entryItem(head)));
      this.charge(`log#${logId}`, 'rcu', readUnits(size), now);
      return head;
    });
  }

  async *readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry> {
    const pages: StoredEntry[][] = [[]];
    let pageBytes = 0;
    for await (const e of this.inner.readEntries(logId, fromSeq, toSeq)) {
      const size = this.table.sizes.get(`log#${logId}\u0000${e.seq}`) ?? itemSize(entryItem(e));
      if (pageBytes + size > QUERY_PAGE_BYTES && pages.at(-1)!.length > 0) {
        pages.push([]);
        pageBytes = 0;
      }
      pages.at(-1)!.push(e);
      pageBytes += size;
    }
    for (const page of pages) {
      const bytes = page.reduce((n, e) => n + (this.table.sizes.get(`log#${logId}\u0000${e.seq}`) ?? 0), 0);
      await dynamoCall(this.site, async (now) => this.charge(`log#${logId}`, 'rcu', readUnits(bytes), now));
      yield* page;
    }
  }

  putEntryIfAbsent(entry: StoredEntry): Promise<boolean> {
    const sentAt = this.site.clock.now;
    return dynamoCall(this.site, async (now) => {
      const created = await this.putIfAbsent(entryItem(entry), now, () => this.inner.putEntryIfAbsent(entry));
      if (created) this.table.durableAt.set(entry.projection.requestId, now);
      else this.table.lostSlots += 1;
      return created;
    }).then((created) => {
      this.site.onSlotWrite?.(sentAt, this.site.clock.now, created, 1);
      return created;
    });
  }

  /** TransactWriteItems of conditional Puts on one log's slots: all created, or none (ADR 0350). */
  putEntriesIfAbsent(entries: readonly StoredEntry[]): Promise<boolean> {
    const sentAt = this.site.clock.now;
    const slowest = (): number =>
      this.site.transactionPhase === 'one-call'
        ? this.site.latency()
        : Math.max(...entries.map(() => this.site.latency()));
    return transactCall(this.site, slowest, async (now) => {
      const items = entries.map(entryItem);
      const keys = items.map((i) => `${String(i.pk)}\u0000${String(i.sk)}`);
      const olds = keys.map((k) => this.table.sizes.get(k));
      // Every item's units first (all on the log's one partition key), so a throttle charges nothing.
      const units = items.reduce((n, item, i) => n + 2 * writeUnits(Math.max(itemSize(item), olds[i] ?? 0)), 0);
      this.charge(String(items[0]!.pk), 'wcu', units, now);
      const free = olds.every((o) => o === undefined);
      if (free) items.forEach((item, i) => this.table.sizes.set(keys[i]!, itemSize(item)));
      const created = await this.inner.putEntriesIfAbsent(entries);
      if (created !== free) throw new Error('scale model out of step with the store in a transaction');
      if (created) for (const e of entries) this.table.durableAt.set(e.projection.requestId, now);
      else this.table.lostSlots += entries.length;
      return created;
    }).then((created) => {
      this.site.onSlotWrite?.(sentAt, this.site.clock.now, created, entries.length);
      return created;
    });
  }

  readClaim(requestId: string): Promise<Claim | null> {
    return dynamoCall(this.site, async (now) => {
      const c = await this.inner.readClaim(requestId);
      this.charge(`req#${requestId}`, 'rcu', readUnits(c === null ? 0 : itemSize(claimItem(c))), now);
      return c;
    });
  }

  putClaimIfAbsent(claim: Claim): Promise<boolean> {
    return dynamoCall(this.site, (now) =>
      this.putIfAbsent(claimItem(claim), now, () => this.inner.putClaimIfAbsent(claim)),
    );
  }

  readPosition(requestId: string): Promise<Position | null> {
    return dynamoCall(this.site, async (now) => {
      const p = await this.inner.readPosition(requestId);
      this.charge(`req#${requestId}`, 'rcu', readUnits(p === null ? 0 : itemSize(positionItem(p))), now);
      return p;
    });
  }

  putPositionIfAbsent(position: Position): Promise<boolean> {
    return dynamoCall(this.site, (now) =>
      this.putIfAbsent(positionItem(position), now, () => this.inner.putPositionIfAbsent(position)),
    );
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
