/**
 * docket.ledger-markers/1: the request position markers of a ledger ({requestId, logId, seq} per request), which an
 * export does not carry. With them, verify notices an entry deleted from an unanchored tail while its request's
 * position marker remains (ADR 0164). Read strictly; never throws for bad input.
 *   {"format":"docket.ledger-markers/1","positions":[{"logId":…,"requestId":…,"seq":…},…]}
 */
import { readJson } from '../../carrier/index.js';
import { err, ok, type Result } from '../../result.js';
import { toLedgerPlain } from '../primitives/canonical.js';
import type { Position } from '../store/store.js';

export const MARKERS_FORMAT = 'docket.ledger-markers/1';

export function readMarkers(bytes: Uint8Array): Result<Position[], string> {
  const r = readJson(bytes[bytes.length - 1] === 0x0a ? bytes.subarray(0, bytes.length - 1) : bytes);
  if (!r.ok) return err(`carrier: ${r.error.code}`);
  let plain: unknown;
  try {
    plain = toLedgerPlain(r.value);
  } catch (e) {
    return err((e as Error).message);
  }
  const o = plain as Record<string, unknown>;
  if (
    typeof o !== 'object' ||
    o === null ||
    Array.isArray(o) ||
    o.format !== MARKERS_FORMAT ||
    !Array.isArray(o.positions) ||
    Object.keys(o).length !== 2
  ) {
    return err(`a markers file is {"format":"${MARKERS_FORMAT}","positions":[…]}`);
  }
  const out: Position[] = [];
  for (const p of o.positions as unknown[]) {
    const q = p as Record<string, unknown>;
    if (
      typeof q !== 'object' ||
      q === null ||
      Object.keys(q).length !== 3 ||
      typeof q.requestId !== 'string' ||
      typeof q.logId !== 'string' ||
      typeof q.seq !== 'number' ||
      q.seq < 0
    ) {
      return err('a position is {logId, requestId, seq}');
    }
    out.push({ requestId: q.requestId, logId: q.logId, seq: q.seq });
  }
  return ok(out);
}
