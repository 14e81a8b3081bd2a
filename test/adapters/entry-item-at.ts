/**
 * For tests that play a keyless table writer: the DynamoDB item that holds a log's entry `seq` — an entry item, or a
 * bundle item holding a run of entries (docs/adr/0400-group-commit-as-one-entry-bundle.md) — found the way the store
 * finds it, so an attack aimed at one entry hits that entry whichever item holds it. A bundle in the compressed layout
 * (docs/adr/0476-bundle-compressed-as-one-stream.md) stores no per-member attributes: its members are handed out, and
 * rewritten, as the listed layout's (ADR 0400), which the store still reads — a keyless writer may plant either.
 */
import { DeleteItemCommand, PutItemCommand, QueryCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BUNDLE_MEMBERS,
  ENTRY_PREFIX,
  entriesOfItem,
  listedEntriesItem,
  type Item,
} from '../../adapters/ledger-entry-item.js';
import { MAX_GROUP_MEMBERS } from '../../core/ledger/index.js';

export interface HeldEntry {
  /** The whole item: as stored, or a compressed bundle as the listed layout holds the same members. */
  readonly item: Item;
  /** The seq the item is keyed by: its first entry. */
  readonly firstSeq: number;
  /** The entry's attributes (bodyz, requestId, kind, entryHash): the item itself, or its bundle member. */
  readonly attributes: Item;
}

export async function entryItemAt(
  client: DynamoDBClient,
  table: string,
  logId: string,
  seq: number,
): Promise<HeldEntry> {
  const page = await client.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :seq',
      ExpressionAttributeValues: {
        ':pk': { S: ENTRY_PREFIX + logId },
        ':lo': { N: String(Math.max(0, seq - (MAX_GROUP_MEMBERS - 1))) },
        ':seq': { N: String(seq) },
      },
      ConsistentRead: true,
    }),
  );
  for (const item of page.Items ?? []) {
    const held = entriesOfItem(item);
    const firstSeq = held[0]!.seq;
    if (seq < firstSeq || seq > held.at(-1)!.seq) continue;
    const listed = held.length > 1 ? asListed(item, held) : item;
    const members = listed[BUNDLE_MEMBERS]?.L;
    return { item: listed, firstSeq, attributes: members === undefined ? item : members[seq - firstSeq]!.M! };
  }
  throw new Error(`no item of log ${logId} holds seq ${seq}`);
}

/** A bundle item in the listed layout: as stored when it is, else its members re-encoded in it. */
function asListed(item: Item, held: Parameters<typeof listedEntriesItem>[0]): Item {
  return item[BUNDLE_MEMBERS] !== undefined ? item : listedEntriesItem(held);
}

/** Rewrites the item holding `seq` with that entry's attributes replaced by `edit`'s (every other entry unchanged). */
export async function rewriteEntryAt(
  client: DynamoDBClient,
  table: string,
  logId: string,
  seq: number,
  edit: (attributes: Item) => Item,
): Promise<void> {
  const { item, firstSeq } = await entryItemAt(client, table, logId, seq);
  const members = item[BUNDLE_MEMBERS]?.L;
  const rewritten =
    members === undefined
      ? { ...edit(item), pk: item.pk!, sk: item.sk! }
      : { ...item, [BUNDLE_MEMBERS]: { L: members.map((m, i) => (i === seq - firstSeq ? { M: edit(m.M!) } : m)) } };
  await client.send(new PutItemCommand({ TableName: table, Item: rewritten }));
}

/** Deletes the item holding `seq` (with a bundle, every entry in it); returns the first seq it held. */
export async function deleteEntryItemAt(
  client: DynamoDBClient,
  table: string,
  logId: string,
  seq: number,
): Promise<number> {
  const { item, firstSeq } = await entryItemAt(client, table, logId, seq);
  await client.send(new DeleteItemCommand({ TableName: table, Key: { pk: item.pk!, sk: item.sk! } }));
  return firstSeq;
}
