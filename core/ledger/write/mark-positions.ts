/**
 * The delivery stage's index write (docs/adr/0498-batch-markers-replace-positions.md): one batch marker per delivery
 * job, naming where each of its entries landed, in place of one position item per entry. A marker is keyed by its last
 * seq; when that key is already taken (a redelivered job wrote the same marker, or another job ending at the same seq —
 * a job that names only duplicates), every position the marker held there does not name gets its own position item,
 * so no delivered entry is left without an index (core/ledger/store/find-position.ts) or without verify's trace of it
 * (ADR 0164).
 */
import { markerKey, type BatchMarker, type LedgerStore } from '../store/store.js';

export type MarkerWriter = Pick<LedgerStore, 'putMarkerIfAbsent' | 'readMarkers' | 'putPositionIfAbsent'>;

/** Writes `marker`, or the position items of those of its positions the marker already keyed there does not name. */
export async function markPositions(store: MarkerWriter, marker: BatchMarker): Promise<void> {
  if (await store.putMarkerIfAbsent(marker)) return;
  const key = markerKey(marker);
  const held = new Set<string>();
  for await (const m of store.readMarkers(marker.logId, key, key))
    for (const p of m.positions) held.add(`${p.seq}\u0000${p.requestId}`);
  await Promise.all(
    marker.positions
      .filter((p) => !held.has(`${p.seq}\u0000${p.requestId}`))
      .map((p) => store.putPositionIfAbsent({ requestId: p.requestId, logId: marker.logId, seq: p.seq })),
  );
}
