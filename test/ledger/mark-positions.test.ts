/**
 * The delivery stage's index write (core/ledger/write/mark-positions.ts; docs/adr/0498-batch-markers-replace-positions.md):
 * one batch marker per job, and a position item for each member a taken marker key does not name.
 */
import { describe, expect, it } from 'vitest';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { findPosition } from '../../core/ledger/store/find-position.js';
import { markPositions } from '../../core/ledger/write/mark-positions.js';
import type { BatchMarker } from '../../core/ledger/store/store.js';

const marker = (logId: string, ...named: [number, string][]): BatchMarker => ({
  logId,
  positions: named.map(([seq, requestId]) => ({ seq, requestId })),
});

async function claimed(store: MemoryLedgerStore, requestId: string, headBefore: number): Promise<void> {
  await store.putClaimIfAbsent({ requestId, logId: 'm-0', requestDigest: 'f'.repeat(64), headBefore });
}

describe('marking a delivery job’s positions', () => {
  it('writes one marker for the whole job and no position item', async () => {
    const store = new MemoryLedgerStore();
    await markPositions(store, marker('m-0', [0, 'a'], [1, 'b'], [2, 'c']));
    expect(store.markers().positions).toEqual([
      { requestId: 'a', logId: 'm-0', seq: 0 },
      { requestId: 'b', logId: 'm-0', seq: 1 },
      { requestId: 'c', logId: 'm-0', seq: 2 },
    ]);
    for (const id of ['a', 'b', 'c']) expect(await store.readPosition(id)).toBeNull();
  });

  it('writes nothing more when the same job is delivered again', async () => {
    const store = new MemoryLedgerStore();
    await markPositions(store, marker('m-0', [0, 'a'], [1, 'b']));
    await markPositions(store, marker('m-0', [0, 'a'], [1, 'b']));
    expect(store.markers().positions).toHaveLength(2);
    expect(await store.readPosition('a')).toBeNull();
  });

  it('gives each member a taken key leaves unnamed its own position item, so every delivered entry is still found', async () => {
    const store = new MemoryLedgerStore();
    for (const [id, head] of [
      ['a', -1],
      ['b', -1],
      ['c', 1],
      ['d', 2],
    ] as const)
      await claimed(store, id, head);
    // The first job's marker is keyed 2 (a, b, c).
    await markPositions(store, marker('m-0', [0, 'a'], [1, 'b'], [2, 'c']));
    // A job naming only duplicates that ends at the same seq, with a member the held marker does not name.
    await markPositions(store, marker('m-0', [1, 'x'], [2, 'c']));
    expect(await store.readPosition('x')).toEqual({ requestId: 'x', logId: 'm-0', seq: 1 });
    expect(await store.readPosition('c')).toBeNull();
    // A planted marker at a key the stage then needs: the stage's positions still land, as items.
    await store.putMarkerIfAbsent(marker('m-0', [3, 'planted']));
    await markPositions(store, marker('m-0', [3, 'd']));
    expect(await findPosition(store, 'd')).toEqual({ requestId: 'd', logId: 'm-0', seq: 3 });
  });
});
