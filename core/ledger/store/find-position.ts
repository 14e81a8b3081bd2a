/**
 * Where a request's entry landed, from the store's indexes (docs/adr/0498-batch-markers-replace-positions.md): the
 * request's own position item when one was written, else the batch marker that names it. The claim bounds the search:
 * it fixes the request's log, and every entry of the request sits above the claim's headBefore (ADR 0160), so the
 * marker naming it (keyed by its last seq) is keyed above it too. An index, not the truth: a caller reads the entry it
 * names and checks it is the request's; an entry recorded but not yet delivered has no index yet (null).
 */
import type { Claim, LedgerStore, Position } from './store.js';

export type PositionIndex = Pick<LedgerStore, 'readPosition' | 'readClaim' | 'readMarkers'>;

/** The indexed position of a request's entry, or null (no claim, or not delivered yet). */
export async function findPosition(store: PositionIndex, requestId: string): Promise<Position | null> {
  const own = await store.readPosition(requestId);
  if (own !== null) return own;
  const claim = await store.readClaim(requestId);
  return claim === null ? null : markedPosition(store, claim);
}

/** The position a batch marker keyed above `claim.headBefore` names for the claim's request, or null. */
export async function markedPosition(store: Pick<LedgerStore, 'readMarkers'>, claim: Claim): Promise<Position | null> {
  for await (const m of store.readMarkers(claim.logId, claim.headBefore + 1))
    for (const p of m.positions)
      // Below headBefore no entry of the request can sit (ADR 0160): such a position is a lie verify reports.
      if (p.requestId === claim.requestId && p.seq > claim.headBefore)
        return { requestId: claim.requestId, logId: m.logId, seq: p.seq };
  return null;
}
