/**
 * docket.ledger-markers/1: the request position markers of a ledger ({requestId, logId, seq} per request), which an
 * export does not carry. With them, verify notices an entry deleted from an unanchored tail while its request's
 * position marker remains (ADR 0164). Read strictly; never throws for bad input.
 *   {"format":"docket.ledger-markers/1","positions":[{"logId":…,"requestId":…,"seq":…},…]}
 */
import { ok, type Result } from '../../result.js';
import { readLedgerJson, withoutFinalNewline } from '../primitives/canonical.js';
import { isRec } from '../primitives/shape.js';
import type { Position } from '../store/store.js';

export const MARKERS_FORMAT = 'docket.ledger-markers/1';

function markersViolation(o: unknown): string | null {
  if (!isRec(o) || o.format !== MARKERS_FORMAT || !Array.isArray(o.positions) || Object.keys(o).length !== 2)
    return `a markers file is {"format":"${MARKERS_FORMAT}","positions":[…]}`;
  for (const q of o.positions as unknown[]) {
    if (
      !isRec(q) ||
      Object.keys(q).length !== 3 ||
      typeof q.requestId !== 'string' ||
      typeof q.logId !== 'string' ||
      typeof q.seq !== 'number' ||
      q.seq < 0
    )
      return 'a position is {logId, requestId, seq}';
  }
  return null;
}

export function readMarkers(bytes: Uint8Array): Result<Position[], string> {
  const r = readLedgerJson<{ positions: Position[] }>(withoutFinalNewline(bytes), markersViolation);
  return r.ok ? ok(r.value.positions.map((q) => ({ requestId: q.requestId, logId: q.logId, seq: q.seq }))) : r;
}
