/**
 * A ledger entry's DynamoDB item: its one encoder and its one strict reader (docs/adr/0061-ledger-item-layout.md,
 * docs/adr/0355-entry-body-stored-compressed.md). Every module that writes or reads an entry item — the store
 * (adapters/dynamodb-ledger-store.ts, single puts and transactions alike), the AWS scale model that meters items
 * (bench/support/aws-model/), tests that plant hostile items — goes through here, so what is sized is what is stored.
 *
 * Layout: `pk` "log#<logId>", `sk` seq, `bodyz` (Binary: the entry's exact stored bytes, UTF-8, as raw DEFLATE,
 * RFC 1951), and the projection `requestId`, `kind`, `entryHash`. DynamoDB bills an item by its stored size; the
 * compressed body keeps a typical entry under 1 KB (1 WCU, not 2). Items written before ADR 0355 carry the body as
 * the String `body`, and stay readable. The compression is storage only: the entry hash, the signature and every
 * reader above the store see the same bytes as before.
 *
 * Reading is strict and bounded: an item with both forms, a `bodyz` that is not Binary, a stream that does not inflate
 * (truncated, corrupt), inflates past the entry's byte cap (a zip bomb), has bytes after its end, or is not valid
 * UTF-8 is surfaced as the empty body — which no canonical entry is, so `verify` reports that entry `malformed` —
 * never repaired and never a crash of the whole read (the same rule as a missing body, ADR 0061).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DEFAULT_ADMISSION_LIMITS, StoreReadError, type StoredEntry } from '../core/ledger/index.js';

export type Item = Record<string, AttributeValue>;

export const ENTRY_PREFIX = 'log#';
/** The compressed body's attribute (Binary); `body` (String) is the uncompressed form of items written before. */
export const COMPRESSED_BODY = 'bodyz';
export const PLAIN_BODY = 'body';
/**
 * No entry body is longer than a DynamoDB item (409,600 bytes, the admission cap of ADR 0054): inflating stops there,
 * so a small hostile item cannot make a reader allocate more.
 */
export const MAX_BODY_BYTES = DEFAULT_ADMISSION_LIMITS.itemBytes;

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The stored form of an entry body: raw DEFLATE at zlib's default level. Deterministic for a given zlib; a reader never
 * depends on re-compressing, so a later zlib that compresses differently still reads every item. Worst case (an
 * incompressible body) grows by 5 bytes per 64 KB stored block: < 40 bytes at the admission cap, inside the item
 * overhead budget (core/ledger/entries/worst-case-entry.ts).
 */
export function compressBody(body: string): Uint8Array {
  return deflateRawSync(utf8.encode(body));
}

/** The exact body bytes of a compressed form, or null when it is not one (see the header for every case). */
export function inflateBody(stored: Uint8Array): string | null {
  try {
    const { buffer, engine } = inflateRawSync(stored, { maxOutputLength: MAX_BODY_BYTES, info: true }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    // zlib stops at the stream's final block and ignores the rest: bytes after it are not part of any body we wrote.
    if (engine.bytesWritten !== stored.byteLength) return null;
    return strictUtf8.decode(buffer);
  } catch {
    return null;
  }
}

/** The entry's item, in the layout above (the only one written since ADR 0355). */
export function entryItem(entry: StoredEntry): Item {
  return withBody(
    {
      pk: { S: ENTRY_PREFIX + entry.logId },
      sk: { N: String(entry.seq) },
      requestId: { S: entry.projection.requestId },
      kind: { S: entry.projection.kind },
      entryHash: { S: entry.projection.entryHash },
    },
    entry.body,
  );
}

/** `item` with its body (either form) replaced by `body`, compressed: how tests plant a rewritten entry. */
export function withBody(item: Item, body: string): Item {
  const { [PLAIN_BODY]: _plain, [COMPRESSED_BODY]: _compressed, ...rest } = item;
  return { ...rest, [COMPRESSED_BODY]: { B: compressBody(body) } };
}

/** An entry item read back: key attributes strict (StoreReadError), body and projection judged by `verify`. */
export function entryOfItem(item: Item): StoredEntry {
  const pk = keyString(item, 'pk');
  return {
    logId: pk.slice(ENTRY_PREFIX.length),
    seq: keyNumber(item, 'sk'),
    body: bodyOfItem(item),
    projection: {
      requestId: optionalString(item, 'requestId'),
      kind: optionalString(item, 'kind'),
      entryHash: optionalString(item, 'entryHash'),
    },
  };
}

/**
 * The body an entry item carries, in either form; '' when it carries none, both, or one that does not decode (the
 * header). An empty body is never a canonical entry, so verify reports the entry rather than the store hiding it.
 */
export function bodyOfItem(item: Item): string {
  const plain = item[PLAIN_BODY];
  const compressed = item[COMPRESSED_BODY];
  if (plain !== undefined && compressed !== undefined) return '';
  if (compressed !== undefined) return compressed.B instanceof Uint8Array ? (inflateBody(compressed.B) ?? '') : '';
  return plain !== undefined && typeof plain.S === 'string' ? plain.S : '';
}

function optionalString(item: Item, name: string): string {
  const v = item[name];
  return v && typeof v.S === 'string' ? v.S : '';
}

/** Key attributes must be well-typed: anything else means this is not the item we asked for. */
function keyString(item: Item, name: string): string {
  const v = item[name];
  if (!v || typeof v.S !== 'string') throw new StoreReadError(`item attribute ${name} is missing or not a string`);
  return v.S;
}

function keyNumber(item: Item, name: string): number {
  const v = item[name];
  const n = v && typeof v.N === 'string' ? Number(v.N) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new StoreReadError(`item attribute ${name} is missing or not a safe integer`);
  return n;
}
