/**
 * The batch marker item (docs/adr/0498-batch-markers-replace-positions.md): the one encoder and the strict reader.
 *
 *   pk "mark#<logId>", sk the marker's last seq (N), `seqs` (L of N, ascending, the last equal to sk) and
 *   `requestIds` (L of S, distinct, one per seq), with nothing else.
 *
 * Two parallel lists rather than a list of maps: DynamoDB meters attribute names inside a map, and a marker is meant to
 * stay under one write unit for a full delivery job. A marker is untrusted like every item: a shape other than this
 * one is a StoreReadError (verify: no verdict), never a shorter listing.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkMarker, StoreReadError, MAX_MARKER_MEMBERS, type BatchMarker } from '../core/ledger/index.js';
import { keyNumber, keyString, type Item } from './ledger-entry-item.js';

export const MARKER_PREFIX = 'mark#';
const ATTRIBUTES = new Set(['pk', 'sk', 'seqs', 'requestIds']);

/** The item of a marker; a marker that is not one (checkMarker) is a caller's bug (RangeError), nothing is encoded. */
export function markerItem(marker: BatchMarker): Item {
  checkMarker(marker);
  return {
    pk: { S: MARKER_PREFIX + marker.logId },
    sk: { N: String(marker.positions[marker.positions.length - 1]!.seq) },
    seqs: { L: marker.positions.map((p) => ({ N: String(p.seq) })) },
    requestIds: { L: marker.positions.map((p) => ({ S: p.requestId })) },
  };
}

/** The marker an item holds; StoreReadError for any other shape. */
export function markerOfItem(item: Item): BatchMarker {
  const pk = keyString(item, 'pk');
  const where = `marker ${pk}`;
  if (!pk.startsWith(MARKER_PREFIX)) throw new StoreReadError(`${where} is not a marker's key`);
  const extra = Object.keys(item).find((name) => !ATTRIBUTES.has(name));
  if (extra !== undefined) throw new StoreReadError(`${where} carries ${extra}`);
  const sk = keyNumber(item, 'sk');
  const seqs = listOf(item.seqs, where, 'seqs').map((v) => Number(v.N ?? Number.NaN));
  const ids = listOf(item.requestIds, where, 'requestIds').map((v) => v.S);
  if (seqs.length !== ids.length) throw new StoreReadError(`${where} names ${seqs.length} seqs for ${ids.length} ids`);
  const positions = seqs.map((seq, i) => ({ seq, requestId: ids[i]! }));
  if (ids.some((id) => typeof id !== 'string')) throw new StoreReadError(`${where} holds a request id that is not S`);
  const marker = { logId: pk.slice(MARKER_PREFIX.length), positions };
  try {
    checkMarker(marker);
  } catch (e) {
    throw new StoreReadError(`${where}: ${(e as Error).message}`);
  }
  if (seqs.at(-1) !== sk) throw new StoreReadError(`${where} is keyed ${sk}, not by its last seq ${seqs.at(-1)}`);
  return marker;
}

function listOf(v: AttributeValue | undefined, where: string, name: string): AttributeValue[] {
  if (v === undefined || !Array.isArray(v.L)) throw new StoreReadError(`${where}: ${name} is not a list`);
  if (v.L.length < 1 || v.L.length > MAX_MARKER_MEMBERS)
    throw new StoreReadError(`${where}: ${name} holds ${v.L.length} members, not 1..${MAX_MARKER_MEMBERS}`);
  return v.L;
}
