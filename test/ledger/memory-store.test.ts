import { describe, expect, it } from 'vitest';
import { LedgerGroupOverlapError, MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { MAX_GROUP_MEMBERS } from '../../core/ledger/store/store.js';

const entry = (seq: number, body: string) => ({
  logId: 'l',
  seq,
  body,
  projection: { requestId: `r${seq}`, kind: 'disposition', entryHash: 'h' },
});

describe('the in-memory ledger store', () => {
  it('creates each item once and never overwrites it', async () => {
    const s = new MemoryLedgerStore();
    expect(await s.putEntryIfAbsent(entry(0, 'a'))).toBe(true);
    expect(await s.putEntryIfAbsent(entry(0, 'b'))).toBe(false);
    expect((await s.readHead('l'))?.body).toBe('a');
    expect(await s.putClaimIfAbsent({ requestId: 'r', logId: 'l', requestDigest: 'd', headBefore: -1 })).toBe(true);
    expect(await s.putClaimIfAbsent({ requestId: 'r', logId: 'x', requestDigest: 'e', headBefore: 5 })).toBe(false);
    expect((await s.readClaim('r'))?.logId).toBe('l');
    expect(await s.putPositionIfAbsent({ requestId: 'r', logId: 'l', seq: 0 })).toBe(true);
    expect(await s.putPositionIfAbsent({ requestId: 'r', logId: 'l', seq: 1 })).toBe(false);
    expect((await s.readPosition('r'))?.seq).toBe(0);
    expect(await s.putCheckpointIfAbsent({ logId: 'l', treeSize: 1, body: 'c' })).toBe(true);
    expect(await s.putCheckpointIfAbsent({ logId: 'l', treeSize: 1, body: 'd' })).toBe(false);
  });

  it('reads inclusive ranges in ascending order and lists only logs that hold entries', async () => {
    const s = new MemoryLedgerStore();
    for (const seq of [2, 0, 1, 3]) await s.putEntryIfAbsent(entry(seq, `b${seq}`));
    const seqs: number[] = [];
    for await (const e of s.readEntries('l', 1, 2)) seqs.push(e.seq);
    expect(seqs).toEqual([1, 2]);
    const all: number[] = [];
    for await (const e of s.readEntries('l', 0)) all.push(e.seq);
    expect(all).toEqual([0, 1, 2, 3]);
    await s.putCheckpointIfAbsent({ logId: 'only-checkpoint', treeSize: 0, body: 'c' });
    expect(await s.listLogs()).toEqual(['l']);
    expect(await s.readHead('none')).toBeNull();
  });

  it('hands out frozen items, so a caller cannot edit what is stored', async () => {
    const s = new MemoryLedgerStore();
    await s.putEntryIfAbsent(entry(0, 'a'));
    const head = await s.readHead('l');
    expect(Object.isFrozen(head) && Object.isFrozen(head?.projection)).toBe(true);
  });

  it('creates a group of entries all or nothing: a taken first slot refuses the whole group and writes none of it', async () => {
    const s = new MemoryLedgerStore();
    expect(await s.putEntriesIfAbsent([entry(0, 'a'), entry(1, 'b')])).toBe(true);
    expect(await s.putEntryIfAbsent(entry(2, 'taken'))).toBe(true);
    expect(await s.putEntriesIfAbsent([entry(2, 'c'), entry(3, 'd'), entry(4, 'e')])).toBe(false);
    expect(s.snapshot('l').map((e) => e.body)).toEqual(['a', 'b', 'taken']);
  });

  it(`refuses a malformed group as a range error: empty, two logs, a seq twice, a hole, or over ${MAX_GROUP_MEMBERS} entries`, async () => {
    const s = new MemoryLedgerStore();
    await expect(s.putEntriesIfAbsent([])).rejects.toThrow(RangeError);
    await expect(s.putEntriesIfAbsent([entry(0, 'a'), { ...entry(1, 'b'), logId: 'm' }])).rejects.toThrow(/one log/);
    await expect(s.putEntriesIfAbsent([entry(0, 'a'), entry(0, 'b')])).rejects.toThrow(/contiguous/);
    await expect(s.putEntriesIfAbsent([entry(0, 'a'), entry(2, 'b')])).rejects.toThrow(/contiguous/);
    const many = Array.from({ length: MAX_GROUP_MEMBERS + 1 }, (_, i) => entry(i, `b${i}`));
    await expect(s.putEntriesIfAbsent(many)).rejects.toThrow(RangeError);
    expect(s.snapshot('l')).toEqual([]);
    expect(s.snapshot('m')).toEqual([]);
  });

  it('throws, writing nothing, for a group whose first slot is free but a later one taken: the protocol never offers it', async () => {
    const s = new MemoryLedgerStore();
    expect(await s.putEntryIfAbsent(entry(2, 'x'))).toBe(true);
    await expect(s.putEntriesIfAbsent([entry(0, 'a'), entry(1, 'b'), entry(2, 'c')])).rejects.toThrow(
      LedgerGroupOverlapError,
    );
    expect(s.snapshot('l').map((e) => e.seq)).toEqual([2]);
  });
});
