/**
 * A ledger entry's DynamoDB item and a group's bundle item: their one encoder and their one strict reader, so what the
 * store (adapters/dynamodb-ledger-store.ts), the AWS scale model (bench/support/aws-model/) and tests that plant
 * hostile items size is what is stored. The layouts are docs/ledger-write-path.md "Storage": an entry's body
 * raw-DEFLATEd in `bodyz` (docs/adr/0355-entry-body-stored-compressed.md; the String `body` of items written before
 * stays readable), a bundle's members in one newline-ended stream `entriesz` with the projection derived from each
 * body (docs/adr/0476-bundle-compressed-as-one-stream.md; layout 1's `entries` list, ADR 0400, stays readable).
 * Compression is storage only: the entry hash, the signature and every reader above the store see the same bytes.
 *
 * Reading is strict and bounded (docs/verify.md): a body in both forms, not Binary, not inflating within the entry's
 * byte cap (a zip bomb), with bytes after its stream's end or not valid UTF-8 reads as the empty body, which verify
 * reports `malformed` — never repaired, never a crash of the whole read (ADR 0061); a bundle that is not one the store
 * writes is a StoreReadError, never a shorter log.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  DEFAULT_ADMISSION_LIMITS,
  MAX_GROUP_MEMBERS,
  StoreReadError,
  checkGroup,
  entryHashOf,
  type StoredEntry,
} from '../core/ledger/index.js';

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
export function inflateBody(stored: Uint8Array, maxBytes = MAX_BODY_BYTES): string | null {
  try {
    const { buffer, engine } = inflateRawSync(stored, { maxOutputLength: maxBytes, info: true }) as unknown as {
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

/** A layout 1 bundle item's list of members (ADR 0400): still read, no longer written. */
export const BUNDLE_MEMBERS = 'entries';
/** A layout 2 bundle item's one compressed stream of its members' bodies (ADR 0476): the only layout written. */
export const PACKED_MEMBERS = 'entriesz';
/** Ends each member's body in a layout 2 stream; RFC 8785 text escapes every control character, so none holds one. */
const MEMBER_END = '\n';
/**
 * A layout 2 stream inflates to at most this: a group's uncompressed bodies stay under one item (GROUP_MAX_BYTES,
 * core/ledger/write/append.ts), plus one newline per member. Past it, the read stops (a zip bomb).
 */
const MAX_PACKED_BYTES = MAX_BODY_BYTES + MAX_GROUP_MEMBERS;

/**
 * The one item of a group: an entry item for one entry, a layout 2 bundle item for 2..MAX_GROUP_MEMBERS ones. Layout 2
 * stores no projection, so it refuses (TypeError, a caller's bug) a member whose projection is not the one its body
 * states: what is written reads back exactly.
 */
export function entriesItem(entries: readonly StoredEntry[]): Item {
  checkGroup(entries);
  if (entries.length === 1) return entryItem(entries[0]!);
  for (const e of entries) {
    const stated = statedProjection(e.body);
    const p = e.projection;
    if (p.requestId !== stated.requestId || p.kind !== stated.kind || p.entryHash !== stated.entryHash)
      throw new TypeError(`entry ${e.logId}/${e.seq}: its projection is not the one its body states`);
  }
  const first = entries[0]!;
  return {
    pk: { S: ENTRY_PREFIX + first.logId },
    sk: { N: String(first.seq) },
    [PACKED_MEMBERS]: { B: compressBody(entries.map((e) => e.body + MEMBER_END).join('')) },
  };
}

/**
 * Layout 1 bundles were written only while a group held at most 16 entries (ADR 0400); one that holds more was never
 * written by the store (docs/adr/0506-a-batch-is-one-bundle.md).
 */
const LISTED_MAX_MEMBERS = 16;

/** A layout 1 bundle item of `entries` (ADR 0400): how tests plant the layout written before ADR 0476. */
export function listedEntriesItem(entries: readonly StoredEntry[]): Item {
  checkGroup(entries);
  const first = entries[0]!;
  return {
    pk: { S: ENTRY_PREFIX + first.logId },
    sk: { N: String(first.seq) },
    [BUNDLE_MEMBERS]: { L: entries.map((e) => ({ M: memberOf(entryItem(e)) })) },
  };
}

function memberOf(item: Item): Item {
  const { pk: _pk, sk: _sk, ...member } = item;
  return member;
}

/** Attributes of an entry item a bundle item never carries beside its members. */
const ENTRY_ATTRIBUTES = [PLAIN_BODY, COMPRESSED_BODY, 'requestId', 'kind', 'entryHash'];

/**
 * Every entry an entry or bundle item holds, ascending. The key and the bundle's shape are strict (StoreReadError: a
 * list that is not 2..16 Maps, a stream of other than 2..MAX_GROUP_MEMBERS members or that is not one the store writes, a bundle in both layouts or
 * that also carries an entry's attributes, is not an item the store writes); each member's body and projection are
 * judged by `verify`, as an entry item's are.
 */
export function entriesOfItem(item: Item): StoredEntry[] {
  const listed = item[BUNDLE_MEMBERS];
  const packed = item[PACKED_MEMBERS];
  if (listed === undefined && packed === undefined) return [entryOfItem(item)];
  const logId = keyString(item, 'pk').slice(ENTRY_PREFIX.length);
  const first = keyNumber(item, 'sk');
  const where = `bundle ${logId}/${first}`;
  if (listed !== undefined && packed !== undefined) throw new StoreReadError(`${where} is in both layouts`);
  for (const name of ENTRY_ATTRIBUTES)
    if (item[name] !== undefined) throw new StoreReadError(`${where} also carries ${name}`);
  if (packed !== undefined) return packedMembers(where, logId, first, packed);
  const members = listed!.L;
  if (!Array.isArray(members) || members.length < 2 || members.length > LISTED_MAX_MEMBERS)
    throw new StoreReadError(`${where} is not a list of 2..${LISTED_MAX_MEMBERS} members`);
  return members.map((m, i) => {
    if (m.M === undefined || m.M === null || typeof m.M !== 'object')
      throw new StoreReadError(`${where} member ${i} is not a map`);
    return entryOfMember(logId, first + i, m.M);
  });
}

/** A layout 2 bundle's members (ADR 0476), each with the projection its body states. */
function packedMembers(where: string, logId: string, first: number, packed: AttributeValue): StoredEntry[] {
  const text = packed.B instanceof Uint8Array ? inflateBody(packed.B, MAX_PACKED_BYTES) : null;
  if (text === null) throw new StoreReadError(`${where}: ${PACKED_MEMBERS} is not a stream the store writes`);
  const bodies = text.split(MEMBER_END);
  // A stream ending in a newline splits into its members and one empty string after the last.
  if (bodies.pop() !== '' || bodies.length < 2 || bodies.length > MAX_GROUP_MEMBERS)
    throw new StoreReadError(`${where}: ${PACKED_MEMBERS} does not hold 2..${MAX_GROUP_MEMBERS} newline-ended members`);
  return bodies.map((body, i) => ({ logId, seq: first + i, body, projection: statedProjection(body) }));
}

/**
 * What a body says of itself: its request id and kind (read leniently — '' when it does not say; the strict read is
 * verify's, which then reports the body) and its entry hash. Derived, so it always agrees with the body.
 */
function statedProjection(body: string): StoredEntry['projection'] {
  let stated: { requestId?: unknown; kind?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) stated = parsed;
  } catch {
    // Not JSON: the projection says nothing, and verify reports the body malformed.
  }
  return {
    requestId: typeof stated.requestId === 'string' ? stated.requestId : '',
    kind: typeof stated.kind === 'string' ? stated.kind : '',
    entryHash: entryHashOf(body),
  };
}

/** The highest entry an entry or bundle item holds. */
export function lastEntryOfItem(item: Item): StoredEntry {
  return entriesOfItem(item).at(-1)!;
}

/** `item` with its body (either form) replaced by `body`, compressed: how tests plant a rewritten entry. */
export function withBody(item: Item, body: string): Item {
  const { [PLAIN_BODY]: _plain, [COMPRESSED_BODY]: _compressed, ...rest } = item;
  return { ...rest, [COMPRESSED_BODY]: { B: compressBody(body) } };
}

/** An entry item read back: key attributes strict (StoreReadError), body and projection judged by `verify`. */
export function entryOfItem(item: Item): StoredEntry {
  const pk = keyString(item, 'pk');
  return entryOfMember(pk.slice(ENTRY_PREFIX.length), keyNumber(item, 'sk'), item);
}

function entryOfMember(logId: string, seq: number, item: Item): StoredEntry {
  return {
    logId,
    seq,
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

/** A bookkeeping string attribute: a missing or non-string one reads as ''. */
export function optionalString(item: Item, name: string): string {
  const v = item[name];
  return v && typeof v.S === 'string' ? v.S : '';
}

/** Key and bookkeeping attributes must be well-typed: anything else means this is not the item we asked for. */
export function keyString(item: Item, name: string): string {
  const v = item[name];
  if (!v || typeof v.S !== 'string') throw new StoreReadError(`item attribute ${name} is missing or not a string`);
  return v.S;
}

export function keyNumber(item: Item, name: string): number {
  const v = item[name];
  const n = v && typeof v.N === 'string' ? Number(v.N) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new StoreReadError(`item attribute ${name} is missing or not a safe integer`);
  return n;
}
