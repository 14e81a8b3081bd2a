/**
 * LedgerStore over DynamoDB (core/ledger/store/store.ts): conditional single-item PutItem (`attribute_not_exists(pk)`),
 * consistent GetItem, consistent Query and Scan. A log's group commit of slot writes is one conditional PutItem of a
 * bundle item holding the group's contiguous entries, keyed by the first seq (docs/adr/0400-group-commit-as-one-entry-
 * bundle.md; layout in adapters/ledger-entry-item.ts). No UpdateItem, DeleteItem, BatchWriteItem or transaction is
 * ever sent: the ledger table is append-only (ADR 0080).
 *
 * Reads are complete or they throw StoreReadError: every Query/Scan follows LastEvaluatedKey to the end, and any
 * failure (throttling after the SDK's retries, a network error, an item that is not of the family its key says)
 * surfaces as an error — never as a shorter ledger.
 */
import type { AttributeValue, DynamoDBClient, ScanCommandInput } from '@aws-sdk/client-dynamodb';
import { dynamodb } from './aws-sdk.js';
import {
  ENTRY_PREFIX,
  entriesItem,
  entriesOfItem,
  entryItem,
  keyNumber,
  keyString,
  lastEntryOfItem,
  optionalString,
  type Item,
} from './ledger-entry-item.js';
import { MARKER_PREFIX, markerItem, markerOfItem } from './ledger-marker-item.js';
import {
  MAX_GROUP_MEMBERS,
  StoreReadError,
  type BatchMarker,
  type Claim,
  type LedgerStore,
  type Position,
  type StoredCheckpoint,
  type StoredEntry,
} from '../core/ledger/index.js';
import {
  cosignatureSortKey,
  type CheckpointNoteStore,
  type StoredCosignature,
  type StoredNote,
} from '../core/ledger/index.js';

const { ConditionalCheckFailedException, GetItemCommand, PutItemCommand, QueryCommand, ScanCommand } = dynamodb;

export interface DynamoDbLedgerStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
}

const REQUEST_PREFIX = 'req#';
const CHECKPOINT_PREFIX = 'ckpt#';
const NOTE_PREFIX = 'note#';
const COSIGNATURE_PREFIX = 'cosig#';
const CLAIM_SK = 0;
const POSITION_SK = 1;

export class DynamoDbLedgerStore implements LedgerStore, CheckpointNoteStore {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;

  constructor(options: DynamoDbLedgerStoreOptions) {
    this.client = options.client;
    this.tableName = options.tableName;
  }

  async readHead(logId: string): Promise<StoredEntry | null> {
    const page = await this.read('readHead', () =>
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: ENTRY_PREFIX + logId } },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      ),
    );
    // The log's last item, entry or bundle: its last entry is the head (ADR 0400).
    const item = page.Items?.[0];
    return item ? lastEntryOfItem(item) : null;
  }

  /**
   * One Query from MAX_GROUP_MEMBERS - 1 keys below `fromSeq`: the item holding fromSeq is keyed at most that far
   * below it (ADR 0400). Entries come out ascending; items that overlap (two holding one seq: never written by the
   * protocol, so planted) end the read with StoreReadError rather than a chosen winner.
   */
  async *readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry> {
    if (toSeq !== undefined && toSeq < fromSeq) return;
    const values: Record<string, AttributeValue> = {
      ':pk': { S: ENTRY_PREFIX + logId },
      ':from': { N: String(Math.max(0, fromSeq - (MAX_GROUP_MEMBERS - 1))) },
    };
    let condition = 'pk = :pk AND sk >= :from';
    if (toSeq !== undefined) {
      condition = 'pk = :pk AND sk BETWEEN :from AND :to';
      values[':to'] = { N: String(toSeq) };
    }
    let next = -Infinity;
    for await (const item of this.queryAll('readEntries', condition, values)) {
      const entries = entriesOfItem(item);
      // Ascending and strictly increasing is DynamoDB's promise; an item starting inside the one before is planted.
      if (entries[0]!.seq < next)
        throw new StoreReadError(`readEntries: item at seq ${entries[0]!.seq} of ${logId} overlaps the one before`);
      next = entries.at(-1)!.seq + 1;
      for (const entry of entries) if (entry.seq >= fromSeq && (toSeq === undefined || entry.seq <= toSeq)) yield entry;
    }
  }

  async putEntryIfAbsent(entry: StoredEntry): Promise<boolean> {
    return this.putIfAbsent(entryItem(entry));
  }

  /**
   * One conditional PutItem of the group's bundle item (ADR 0400) through the SDK's command path (ADR 0285): created
   * when its first slot is free, else false and nothing written. An SDK retry of a put that did land answers false;
   * the members then take the lost-slot path, whose scan finds them in the log (duplicates, never second entries).
   */
  async putEntriesIfAbsent(entries: readonly StoredEntry[]): Promise<boolean> {
    return this.putIfAbsent(entriesItem(entries));
  }

  async readClaim(requestId: string): Promise<Claim | null> {
    const item = await this.getItem('readClaim', REQUEST_PREFIX + requestId, CLAIM_SK);
    if (!item) return null;
    return {
      requestId,
      logId: keyString(item, 'logId'),
      requestDigest: keyString(item, 'requestDigest'),
      headBefore: keyNumber(item, 'headBefore'),
    };
  }

  async putClaimIfAbsent(claim: Claim): Promise<boolean> {
    return this.putIfAbsent({
      pk: { S: REQUEST_PREFIX + claim.requestId },
      sk: { N: String(CLAIM_SK) },
      logId: { S: claim.logId },
      requestDigest: { S: claim.requestDigest },
      headBefore: { N: String(claim.headBefore) },
    });
  }

  async readPosition(requestId: string): Promise<Position | null> {
    const item = await this.getItem('readPosition', REQUEST_PREFIX + requestId, POSITION_SK);
    if (!item) return null;
    return { requestId, logId: keyString(item, 'logId'), seq: keyNumber(item, 'seq') };
  }

  async putPositionIfAbsent(position: Position): Promise<boolean> {
    return this.putIfAbsent({
      pk: { S: REQUEST_PREFIX + position.requestId },
      sk: { N: String(POSITION_SK) },
      logId: { S: position.logId },
      seq: { N: String(position.seq) },
    });
  }

  /** One item per delivery job (adapters/ledger-marker-item.ts; ADR 0498). */
  async putMarkerIfAbsent(marker: BatchMarker): Promise<boolean> {
    return this.putIfAbsent(markerItem(marker));
  }

  async *readMarkers(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<BatchMarker> {
    const pk = { ':pk': { S: MARKER_PREFIX + logId }, ':from': { N: String(fromSeq) } };
    const items =
      toSeq === undefined
        ? this.queryAll('readMarkers', 'pk = :pk AND sk >= :from', pk)
        : this.queryAll('readMarkers', 'pk = :pk AND sk BETWEEN :from AND :to', { ...pk, ':to': { N: String(toSeq) } });
    for await (const item of items) yield markerOfItem(item);
  }

  async putCheckpointIfAbsent(checkpoint: StoredCheckpoint): Promise<boolean> {
    return this.putIfAbsent({
      pk: { S: CHECKPOINT_PREFIX + checkpoint.logId },
      sk: { N: String(checkpoint.treeSize) },
      body: { S: checkpoint.body },
    });
  }

  async *readCheckpoints(logId: string): AsyncIterable<StoredCheckpoint> {
    for await (const item of this.partition('readCheckpoints', CHECKPOINT_PREFIX + logId)) {
      yield { logId, treeSize: keyNumber(item, 'sk'), body: bodyOf(item) };
    }
  }

  /** Checkpoint notes and cosignatures (core/ledger/store/note-store.ts; docs/adr/0131-witness-items.md). */
  async putNoteIfAbsent(note: StoredNote): Promise<boolean> {
    return this.putIfAbsent({
      pk: { S: NOTE_PREFIX + note.logId },
      sk: { N: String(note.treeSize) },
      body: { S: note.note },
    });
  }

  async *readNotes(logId: string): AsyncIterable<StoredNote> {
    for await (const item of this.partition('readNotes', NOTE_PREFIX + logId)) {
      yield { logId, treeSize: keyNumber(item, 'sk'), note: bodyOf(item) };
    }
  }

  async putCosignatureIfAbsent(c: StoredCosignature): Promise<boolean> {
    return this.putIfAbsent({
      pk: { S: `${COSIGNATURE_PREFIX}${c.logId}#${c.treeSize}` },
      sk: { N: String(cosignatureSortKey(c)) },
      body: { S: c.line },
      time: { N: String(c.time) },
      keyId: { S: c.keyId },
    });
  }

  async *readCosignatures(logId: string, treeSize: number): AsyncIterable<StoredCosignature> {
    for await (const item of this.partition('readCosignatures', `${COSIGNATURE_PREFIX}${logId}#${treeSize}`)) {
      yield {
        logId,
        treeSize,
        time: keyNumber(item, 'time'),
        keyId: optionalString(item, 'keyId'),
        line: bodyOf(item),
      };
    }
  }

  /** A complete, consistent Scan of the partition keys (see docs/adr/0061-ledger-item-layout.md for its cost). */
  async listLogs(): Promise<string[]> {
    const logs = new Set<string>();
    for await (const item of this.scanAll('listLogs', {
      ProjectionExpression: 'pk',
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': { S: ENTRY_PREFIX } },
    })) {
      logs.add(keyString(item, 'pk').slice(ENTRY_PREFIX.length));
    }
    return [...logs].sort();
  }

  /**
   * Every position: each position item and each position a batch marker names (ADR 0498), from one complete,
   * consistent Scan of the table (the same cost as listLogs, ADR 0061).
   */
  async *listPositions(): AsyncIterable<Position> {
    for await (const item of this.scanAll('listPositions', {
      FilterExpression: '(begins_with(pk, :p) AND sk = :position) OR begins_with(pk, :m)',
      ExpressionAttributeValues: {
        ':p': { S: REQUEST_PREFIX },
        ':position': { N: String(POSITION_SK) },
        ':m': { S: MARKER_PREFIX },
      },
    })) {
      const pk = keyString(item, 'pk');
      if (pk.startsWith(MARKER_PREFIX)) {
        const m = markerOfItem(item);
        for (const p of m.positions) yield { requestId: p.requestId, logId: m.logId, seq: p.seq };
      } else
        yield {
          requestId: pk.slice(REQUEST_PREFIX.length),
          logId: keyString(item, 'logId'),
          seq: keyNumber(item, 'seq'),
        };
    }
  }

  private async putIfAbsent(item: Item): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
      return true;
    } catch (e) {
      if (
        e instanceof ConditionalCheckFailedException ||
        (e as { name?: string }).name === 'ConditionalCheckFailedException'
      ) {
        return false;
      }
      throw e;
    }
  }

  private async getItem(op: string, pk: string, sk: number): Promise<Item | undefined> {
    const out = await this.read(op, () =>
      this.client.send(
        new GetItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: pk }, sk: { N: String(sk) } },
          ConsistentRead: true,
        }),
      ),
    );
    return out.Item;
  }

  /** Every item of one partition, in ascending sort-key order. */
  private partition(op: string, pk: string): AsyncIterable<Item> {
    return this.queryAll(op, 'pk = :pk', { ':pk': { S: pk } });
  }

  /** A consistent Query of this table in ascending sort-key order, every page. */
  private queryAll(op: string, condition: string, values: Record<string, AttributeValue>): AsyncIterable<Item> {
    const input = {
      TableName: this.tableName,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: true,
      ConsistentRead: true,
    };
    return this.pages(op, (startKey) => this.client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey })));
  }

  /** A consistent Scan of this table, every page. */
  private scanAll(
    op: string,
    input: Omit<ScanCommandInput, 'TableName' | 'ConsistentRead' | 'ExclusiveStartKey'>,
  ): AsyncIterable<Item> {
    return this.pages(op, (startKey) =>
      this.client.send(
        new ScanCommand({ ...input, TableName: this.tableName, ConsistentRead: true, ExclusiveStartKey: startKey }),
      ),
    );
  }

  /** Follows LastEvaluatedKey to the end; a page that cannot be read ends the listing with StoreReadError. */
  private async *pages(
    op: string,
    page: (startKey: Item | undefined) => Promise<{ Items?: Item[]; LastEvaluatedKey?: Item }>,
  ): AsyncIterable<Item> {
    let startKey: Item | undefined;
    do {
      const out = await this.read(op, () => page(startKey));
      for (const item of out.Items ?? []) yield item;
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  }

  private async read<T>(op: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      if (e instanceof StoreReadError) throw e;
      const error = new StoreReadError(`${op} on ${this.tableName} could not complete: ${(e as Error).message}`);
      (error as { cause?: unknown }).cause = e;
      throw error;
    }
  }
}

/**
 * A checkpoint's, note's or cosignature's body is data to be judged by its verifier, not by the store: a missing or
 * non-string attribute is surfaced as an empty string rather than hidden by a read error (ADR 0061). Entry items have
 * their own reader (adapters/ledger-entry-item.ts).
 */
const bodyOf = (item: Item): string => optionalString(item, 'body');
