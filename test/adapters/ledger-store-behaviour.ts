/**
 * The behaviour every LedgerStore must show (core/ledger/store/store.ts), as one suite run against each implementation:
 * the in-memory store and the DynamoDB adapter over the wire. Same tests, same expectations.
 */
import { describe, expect, it } from 'vitest';
import type { LedgerStore, StoredEntry } from '../../core/ledger/store/store.js';
import { rawEntry } from './entry-fixture.js';
import { GROUP_MAX_BYTES } from '../../core/ledger/write/append.js';
import { findPosition, MAX_GROUP_MEMBERS, MAX_MARKER_MEMBERS } from '../../core/ledger/index.js';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** `makeStore` returns a store over an empty ledger; `unique` prefixes ids so suites may share one table. */
export function ledgerStoreBehaviour(name: string, makeStore: () => LedgerStore): void {
  describe(`${name}: LedgerStore behaviour`, () => {
    let counter = 0;
    const fresh = (label: string): string => `${label}-${Date.now().toString(36)}-${counter++}`;

    it('reports an empty log as no head and no entries', async () => {
      const store = makeStore();
      const log = fresh('empty');
      expect(await store.readHead(log)).toBeNull();
      expect(await collect(store.readEntries(log, 0))).toEqual([]);
    });

    it('creates an entry slot once and never overwrites it', async () => {
      const store = makeStore();
      const log = fresh('once');
      const first = rawEntry(log, 0);
      const rival: StoredEntry = {
        ...rawEntry(log, 0, 5),
        projection: { requestId: 'rival', kind: 'disposition', entryHash: 'ff' },
      };
      expect(await store.putEntryIfAbsent(first)).toBe(true);
      expect(await store.putEntryIfAbsent(rival)).toBe(false);
      expect(await store.putEntryIfAbsent(first)).toBe(false);
      expect(await collect(store.readEntries(log, 0))).toEqual([first]);
      expect(await store.readHead(log)).toEqual(first);
    });

    it('keeps the exact body bytes, including non-ASCII text and escapes', async () => {
      const store = makeStore();
      const log = fresh('bytes');
      const body = '{"a":"\\u0000é😀\\"","b":[1,2.50,1e400]}';
      const e: StoredEntry = {
        logId: log,
        seq: 0,
        body,
        projection: { requestId: 'ü', kind: 'disposition', entryHash: 'ab' },
      };
      await store.putEntryIfAbsent(e);
      expect((await store.readHead(log))?.body).toBe(body);
      expect((await store.readHead(log))?.projection).toEqual(e.projection);
    });

    it('reads entries in ascending order with inclusive bounds, to the end when no upper bound is given', async () => {
      const store = makeStore();
      const log = fresh('order');
      // Written out of order on purpose: order comes from the sequence numbers, not from arrival.
      for (const seq of [3, 0, 4, 1, 2, 10]) await store.putEntryIfAbsent(rawEntry(log, seq));
      expect((await collect(store.readEntries(log, 0))).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 10]);
      expect((await collect(store.readEntries(log, 1, 3))).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect((await collect(store.readEntries(log, 4, 4))).map((e) => e.seq)).toEqual([4]);
      expect((await collect(store.readEntries(log, 5, 9))).map((e) => e.seq)).toEqual([]);
      expect((await store.readHead(log))?.seq).toBe(10);
    });

    it('reads a log larger than one DynamoDB result page completely', async () => {
      const store = makeStore();
      const log = fresh('pages');
      const count = 120;
      // 120 × ~20 KB ≈ 2.4 MB: at least three 1 MB Query pages.
      await Promise.all(Array.from({ length: count }, (_, seq) => store.putEntryIfAbsent(rawEntry(log, seq, 20_000))));
      const all = await collect(store.readEntries(log, 0));
      expect(all.map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(all.every((e) => e.body.length > 20_000)).toBe(true);
      expect((await collect(store.readEntries(log, 57))).length).toBe(count - 57);
    });

    it('creates a claim once and keeps the first one', async () => {
      const store = makeStore();
      const requestId = fresh('claim');
      const claim = { requestId, logId: 'l1', requestDigest: 'a'.repeat(64), headBefore: -1 };
      expect(await store.readClaim(requestId)).toBeNull();
      expect(await store.putClaimIfAbsent(claim)).toBe(true);
      expect(
        await store.putClaimIfAbsent({ ...claim, logId: 'l2', requestDigest: 'b'.repeat(64), headBefore: 7 }),
      ).toBe(false);
      expect(await store.readClaim(requestId)).toEqual(claim);
    });

    it('creates a position once, a second write being a no-op', async () => {
      const store = makeStore();
      const requestId = fresh('pos');
      expect(await store.readPosition(requestId)).toBeNull();
      expect(await store.putPositionIfAbsent({ requestId, logId: 'l1', seq: 4 })).toBe(true);
      expect(await store.putPositionIfAbsent({ requestId, logId: 'l1', seq: 4 })).toBe(false);
      expect(await store.putPositionIfAbsent({ requestId, logId: 'l9', seq: 9 })).toBe(false);
      expect(await store.readPosition(requestId)).toEqual({ requestId, logId: 'l1', seq: 4 });
      // A claim and a position of one request live side by side.
      await store.putClaimIfAbsent({ requestId, logId: 'l1', requestDigest: 'c'.repeat(64), headBefore: 3 });
      expect(await store.readPosition(requestId)).toEqual({ requestId, logId: 'l1', seq: 4 });
    });

    it('lists every position marker, and no claim, entry or checkpoint as one', async () => {
      const store = makeStore();
      const log = fresh('positions');
      const mine = [0, 1, 2].map((seq) => ({ requestId: `${log}-r${seq}`, logId: log, seq }));
      for (const p of mine) expect(await store.putPositionIfAbsent(p)).toBe(true);
      expect(
        await store.putClaimIfAbsent({ requestId: `${log}-claimed`, logId: log, requestDigest: 'aa', headBefore: -1 }),
      ).toBe(true);
      expect(await store.putEntryIfAbsent(rawEntry(log, 0))).toBe(true);
      await store.putCheckpointIfAbsent({ logId: log, treeSize: 1, body: '{}' });
      expect(store.listPositions).toBeTypeOf('function');
      // The table may be shared with other suites: judge only this test's log.
      const listed = (await collect(store.listPositions!())).filter((p) => p.logId === log);
      expect(listed.sort((a, b) => a.seq - b.seq)).toEqual(mine);
    });

    it('creates a batch marker once under its last seq, and reads markers by key range in ascending order', async () => {
      const store = makeStore();
      const log = fresh('marks');
      const first = { logId: log, positions: [0, 1, 2].map((seq) => ({ seq, requestId: `${log}-r${seq}` })) };
      const second = {
        logId: log,
        positions: [
          { seq: 3, requestId: `${log}-r3` },
          { seq: 7, requestId: `${log}-r7` },
        ],
      };
      expect(await store.putMarkerIfAbsent(second)).toBe(true);
      expect(await store.putMarkerIfAbsent(first)).toBe(true);
      // Another job ending at seq 2 (a redelivered one, or one naming only duplicates) finds the key taken.
      expect(await store.putMarkerIfAbsent({ logId: log, positions: [{ seq: 2, requestId: 'other' }] })).toBe(false);
      expect(await collect(store.readMarkers(log, 0))).toEqual([first, second]);
      expect(await collect(store.readMarkers(log, 3))).toEqual([second]);
      expect(await collect(store.readMarkers(log, 2, 2))).toEqual([first]);
      expect(await collect(store.readMarkers(log, 8))).toEqual([]);
      expect(await collect(store.readMarkers(`${log}0`, 0))).toEqual([]);
    });

    it('refuses to write a marker that is not one: no positions, more than one bundle holds, seqs out of order, an id twice', async () => {
      const store = makeStore();
      const log = fresh('bad-marks');
      const at = (seq: number, requestId = `r${seq}`) => ({ seq, requestId });
      for (const positions of [
        [],
        Array.from({ length: MAX_MARKER_MEMBERS + 1 }, (_, i) => at(i)),
        [at(2), at(1)],
        [at(1), at(2, 'r1')],
      ])
        await expect(store.putMarkerIfAbsent({ logId: log, positions })).rejects.toBeInstanceOf(RangeError);
      expect(await collect(store.readMarkers(log, 0))).toEqual([]);
    });

    it('finds a delivered entry from its claim and its batch marker, and a position item before any marker', async () => {
      const store = makeStore();
      const log = fresh('find');
      const id = (n: number) => `${log}-q${n}`;
      for (const [n, headBefore] of [
        [0, -1],
        [1, -1],
        [2, 1],
      ] as const)
        await store.putClaimIfAbsent({ requestId: id(n), logId: log, requestDigest: 'e'.repeat(64), headBefore });
      expect(await findPosition(store, id(0))).toBeNull();
      await store.putMarkerIfAbsent({ logId: log, positions: [0, 1].map((seq) => ({ seq, requestId: id(seq) })) });
      await store.putMarkerIfAbsent({ logId: log, positions: [{ seq: 2, requestId: id(2) }] });
      expect(await findPosition(store, id(1))).toEqual({ requestId: id(1), logId: log, seq: 1 });
      expect(await findPosition(store, id(2))).toEqual({ requestId: id(2), logId: log, seq: 2 });
      // A marker naming a request at or below its claim's headBefore is not where its entry can be (ADR 0160).
      await store.putClaimIfAbsent({ requestId: id(9), logId: log, requestDigest: 'e'.repeat(64), headBefore: 4 });
      // Keyed above it (seq 6), so it is read, but the position it names for the request is at headBefore.
      await store.putMarkerIfAbsent({
        logId: log,
        positions: [
          { seq: 4, requestId: id(9) },
          { seq: 6, requestId: `${log}-other` },
        ],
      });
      expect(await findPosition(store, id(9))).toBeNull();
      // No claim, no search: an unknown request id.
      expect(await findPosition(store, fresh('unknown'))).toBeNull();
      // The request's own position item (written before ADR 0498, or on the rare path) is read first.
      await store.putPositionIfAbsent({ requestId: id(9), logId: log, seq: 5 });
      expect(await findPosition(store, id(9))).toEqual({ requestId: id(9), logId: log, seq: 5 });
    });

    it('lists every position a batch marker names beside the position items', async () => {
      const store = makeStore();
      const log = fresh('listed-marks');
      const item = { requestId: `${log}-item`, logId: log, seq: 0 };
      await store.putPositionIfAbsent(item);
      await store.putMarkerIfAbsent({
        logId: log,
        positions: [1, 2].map((seq) => ({ seq, requestId: `${log}-m${seq}` })),
      });
      const listed = (await collect(store.listPositions!())).filter((p) => p.logId === log);
      expect(listed.sort((a, b) => a.seq - b.seq)).toEqual([
        item,
        { requestId: `${log}-m1`, logId: log, seq: 1 },
        { requestId: `${log}-m2`, logId: log, seq: 2 },
      ]);
    });

    it('keeps checkpoints per log in tree-size order and never overwrites one', async () => {
      const store = makeStore();
      const log = fresh('ckpt');
      for (const treeSize of [5, 1, 3])
        expect(await store.putCheckpointIfAbsent({ logId: log, treeSize, body: `cp${treeSize}` })).toBe(true);
      expect(await store.putCheckpointIfAbsent({ logId: log, treeSize: 3, body: 'forged' })).toBe(false);
      expect(await collect(store.readCheckpoints(log))).toEqual([
        { logId: log, treeSize: 1, body: 'cp1' },
        { logId: log, treeSize: 3, body: 'cp3' },
        { logId: log, treeSize: 5, body: 'cp5' },
      ]);
      // Checkpoints are not entries: the log itself is still empty.
      expect(await store.readHead(log)).toBeNull();
    });

    it('lists exactly the logs that hold entries, not those with only claims or checkpoints', async () => {
      const store = makeStore();
      const a = fresh('list-a');
      const b = fresh('list-b');
      const onlyCheckpoint = fresh('list-c');
      await store.putEntryIfAbsent(rawEntry(a, 0));
      await store.putEntryIfAbsent(rawEntry(b, 0));
      await store.putEntryIfAbsent(rawEntry(b, 1));
      await store.putCheckpointIfAbsent({ logId: onlyCheckpoint, treeSize: 1, body: 'x' });
      await store.putClaimIfAbsent({
        requestId: fresh('list-req'),
        logId: onlyCheckpoint,
        requestDigest: 'd'.repeat(64),
        headBefore: -1,
      });
      const logs = await store.listLogs();
      expect(logs).toContain(a);
      expect(logs).toContain(b);
      expect(logs).not.toContain(onlyCheckpoint);
      expect(new Set(logs).size).toBe(logs.length);
    });

    it('keeps logs whose ids share a prefix apart', async () => {
      const store = makeStore();
      const log = fresh('prefix');
      await store.putEntryIfAbsent(rawEntry(log, 0));
      await store.putEntryIfAbsent(rawEntry(`${log}0`, 0));
      await store.putEntryIfAbsent(rawEntry(`${log}0`, 1));
      expect((await collect(store.readEntries(log, 0))).map((e) => e.logId)).toEqual([log]);
      expect((await store.readHead(log))?.seq).toBe(0);
    });

    it('creates a group of slots all or nothing: a taken first slot refuses the group and writes none of it', async () => {
      const store = makeStore();
      const log = fresh('group');
      const group = [0, 1, 2].map((seq) => rawEntry(log, seq));
      expect(await store.putEntriesIfAbsent(group)).toBe(true);
      expect(await collect(store.readEntries(log, 0))).toEqual(group);
      // A writer that read the log empty offers slots 0.. again: the group's first slot is taken.
      const stale = [0, 1].map((seq) => rawEntry(log, seq, 7));
      expect(await store.putEntriesIfAbsent(stale)).toBe(false);
      expect(await collect(store.readEntries(log, 0))).toEqual(group);
      // One that read the head (seq 2) offers the slots after it.
      const next = [3, 4].map((seq) => rawEntry(log, seq, 7));
      expect(await store.putEntriesIfAbsent(next)).toBe(true);
      expect(await collect(store.readEntries(log, 0))).toEqual([...group, ...next]);
    });

    it('reads a group back whole, from inside it and across the items around it', async () => {
      const store = makeStore();
      const log = fresh('runs');
      const all = Array.from({ length: 12 }, (_, seq) => rawEntry(log, seq, 40));
      expect(await store.putEntryIfAbsent(all[0]!)).toBe(true);
      expect(await store.putEntriesIfAbsent(all.slice(1, 5))).toBe(true);
      expect(await store.putEntryIfAbsent(all[5]!)).toBe(true);
      expect(await store.putEntriesIfAbsent(all.slice(6, 12))).toBe(true);
      expect(await collect(store.readEntries(log, 0))).toEqual(all);
      expect(await collect(store.readEntries(log, 3, 3))).toEqual([all[3]]);
      expect(await collect(store.readEntries(log, 2, 7))).toEqual(all.slice(2, 8));
      expect(await collect(store.readEntries(log, 9))).toEqual(all.slice(9));
      expect(await collect(store.readEntries(log, 12))).toEqual([]);
      expect(await store.readHead(log)).toEqual(all[11]);
    });

    it(`writes a group of ${MAX_GROUP_MEMBERS} incompressible slots as large as the append offers in one call and refuses one more`, async () => {
      const store = makeStore();
      const log = fresh('largest');
      // The append offers at most GROUP_MAX_BYTES of bodies in one group: here the largest such group of the most slots.
      const pad = Math.floor(GROUP_MAX_BYTES / MAX_GROUP_MEMBERS) - 200;
      const group = Array.from({ length: MAX_GROUP_MEMBERS }, (_, seq) => rawEntry(log, seq, pad));
      expect(group.reduce((n, e) => n + Buffer.byteLength(e.body), 0)).toBeLessThanOrEqual(GROUP_MAX_BYTES);
      expect(await store.putEntriesIfAbsent(group)).toBe(true);
      expect((await store.readHead(log))?.seq).toBe(MAX_GROUP_MEMBERS - 1);
      expect(await collect(store.readEntries(log, MAX_GROUP_MEMBERS - 1))).toEqual([group.at(-1)]);
      const more = [...group.slice(1), rawEntry(log, MAX_GROUP_MEMBERS), rawEntry(log, MAX_GROUP_MEMBERS + 1)];
      await expect(store.putEntriesIfAbsent(more)).rejects.toThrow(RangeError);
    });

    it('refuses a group whose seqs are not contiguous as a range error, writing nothing', async () => {
      const store = makeStore();
      const log = fresh('holes');
      await expect(store.putEntriesIfAbsent([rawEntry(log, 0), rawEntry(log, 2)])).rejects.toThrow(RangeError);
      await expect(store.putEntriesIfAbsent([rawEntry(log, 1), rawEntry(log, 0)])).rejects.toThrow(RangeError);
      expect(await store.readHead(log)).toBeNull();
    });
  });
}
