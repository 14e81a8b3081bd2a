/**
 * LedgerStore over DynamoDB (core/ledger/store/store.ts): conditional single-item PutItem (`attribute_not_exists(pk)`),
 * consistent GetItem, consistent Query and Scan, and TransactWriteItems made only of such conditional Puts — a log's
 * group commit of slot writes, all or nothing (docs/adr/0350-group-commit-of-slot-writes.md; the local emulator
 * implements it, ADR 0351). No UpdateItem, DeleteItem, BatchWriteItem, or transaction action other than a
 * conditional Put is ever sent: the ledger table is append-only (ADR 0080).
 *
 * Reads are complete or they throw StoreReadError: every Query/Scan follows LastEvaluatedKey to the end, and any
 * failure (throttling after the SDK's retries, a network error, an item that is not of the family its key says)
 * surfaces as an error — never as a shorter ledger.
 */
import type { AttributeValue, DynamoDBClient, QueryCommandInput, ScanCommandInput } from '@aws-sdk/client-dynamodb';
import { createHash } from 'node:crypto';
import { dynamodb } from './aws-sdk.js';
import { ENTRY_PREFIX, entryItem, entryOfItem, type Item } from './ledger-entry-item.js';
import {
  StoreReadError,
  checkGroup,
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

const {
  ConditionalCheckFailedException,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  TransactionCanceledException,
} = dynamodb;

/** Tries of a transaction cancelled only by a conflict or a throttle (each member otherwise untouched). */
const TRANSACTION_TRIES = 4;
/** Cancellation codes that say nothing about our items' state: the same transaction may succeed if sent again. */
const TRANSIENT_CANCELLATIONS = new Set([
  'None',
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

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
    const item = page.Items?.[0];
    return item ? entryOfItem(item) : null;
  }

  async *readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry> {
    if (toSeq !== undefined && toSeq < fromSeq) return;
    const values: Record<string, AttributeValue> = {
      ':pk': { S: ENTRY_PREFIX + logId },
      ':from': { N: String(fromSeq) },
    };
    let condition = 'pk = :pk AND sk >= :from';
    if (toSeq !== undefined) {
      condition = 'pk = :pk AND sk BETWEEN :from AND :to';
      values[':to'] = { N: String(toSeq) };
    }
    let expected = fromSeq;
    for await (const item of this.queryAll('readEntries', {
      TableName: this.tableName,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: true,
      ConsistentRead: true,
    })) {
      const entry = entryOfItem(item);
      // Ascending and strictly increasing is DynamoDB's promise; a page that breaks it is not a complete answer.
      if (entry.seq < expected) throw new StoreReadError(`readEntries: out-of-order item seq ${entry.seq} in ${logId}`);
      expected = entry.seq + 1;
      yield entry;
    }
  }

  async putEntryIfAbsent(entry: StoredEntry): Promise<boolean> {
    return this.putIfAbsent(entryItem(entry));
  }

  /**
   * One TransactWriteItems of conditional Puts (ADR 0350), through the SDK's command path (ADR 0285), so its retries,
   * endpoint and middleware apply. The ClientRequestToken is a digest of the entries' hashes: the SDK's retry of a
   * transaction that did land is answered success without a second write, and the same group sent again (a
   * conflict below) is the same request. A cancellation naming ConditionalCheckFailed → false (a slot is taken;
   * nothing was written); one naming only conflicts or throttles → sent again after a jittered wait; anything else
   * is thrown (the record fails and is redelivered).
   */
  async putEntriesIfAbsent(entries: readonly StoredEntry[]): Promise<boolean> {
    checkGroup(entries);
    const token = createHash('sha256')
      .update(entries.map((e) => e.projection.entryHash).join('\n'))
      .digest('hex')
      .slice(0, 36);
    const command = new TransactWriteItemsCommand({
      ClientRequestToken: token,
      TransactItems: entries.map((e) => ({
        Put: { TableName: this.tableName, Item: entryItem(e), ConditionExpression: 'attribute_not_exists(pk)' },
      })),
    });
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(command);
        return true;
      } catch (e) {
        const codes = cancellationCodes(e);
        if (codes === undefined) throw e;
        if (codes.includes('ConditionalCheckFailed')) return false;
        if (attempt >= TRANSACTION_TRIES || !codes.every((c) => TRANSIENT_CANCELLATIONS.has(c))) throw e;
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 25 * 2 ** attempt)));
      }
    }
  }

  async readClaim(requestId: string): Promise<Claim | null> {
    const item = await this.getItem('readClaim', REQUEST_PREFIX + requestId, CLAIM_SK);
    if (!item) return null;
    return {
      requestId,
      logId: str(item, 'logId'),
      requestDigest: str(item, 'requestDigest'),
      headBefore: num(item, 'headBefore'),
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
    return { requestId, logId: str(item, 'logId'), seq: num(item, 'seq') };
  }

  async putPositionIfAbsent(position: Position): Promise<boolean> {
    return this.putIfAbsent({
      pk: { S: REQUEST_PREFIX + position.requestId },
      sk: { N: String(POSITION_SK) },
      logId: { S: position.logId },
      seq: { N: String(position.seq) },
    });
  }

  async putCheckpointIfAbsent(checkpoint: StoredCheckpoint): Promise<boolean> {
    return this.putIfAbsent({
      pk: { S: CHECKPOINT_PREFIX + checkpoint.logId },
      sk: { N: String(checkpoint.treeSize) },
      body: { S: checkpoint.body },
    });
  }

  async *readCheckpoints(logId: string): AsyncIterable<StoredCheckpoint> {
    for await (const item of this.queryAll('readCheckpoints', {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: CHECKPOINT_PREFIX + logId } },
      ScanIndexForward: true,
      ConsistentRead: true,
    })) {
      yield { logId, treeSize: num(item, 'sk'), body: bodyOf(item) };
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
    for await (const item of this.queryAll('readNotes', {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: NOTE_PREFIX + logId } },
      ScanIndexForward: true,
      ConsistentRead: true,
    })) {
      yield { logId, treeSize: num(item, 'sk'), note: bodyOf(item) };
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
    for await (const item of this.queryAll('readCosignatures', {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: `${COSIGNATURE_PREFIX}${logId}#${treeSize}` } },
      ScanIndexForward: true,
      ConsistentRead: true,
    })) {
      yield { logId, treeSize, time: num(item, 'time'), keyId: optStr(item, 'keyId'), line: bodyOf(item) };
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
      logs.add(str(item, 'pk').slice(ENTRY_PREFIX.length));
    }
    return [...logs].sort();
  }

  /** Every position marker: a complete, consistent Scan of the table (the same cost as listLogs, ADR 0061). */
  async *listPositions(): AsyncIterable<Position> {
    for await (const item of this.scanAll('listPositions', {
      ProjectionExpression: 'pk, sk, logId, seq',
      FilterExpression: 'begins_with(pk, :p) AND sk = :position',
      ExpressionAttributeValues: { ':p': { S: REQUEST_PREFIX }, ':position': { N: String(POSITION_SK) } },
    })) {
      yield {
        requestId: str(item, 'pk').slice(REQUEST_PREFIX.length),
        logId: str(item, 'logId'),
        seq: num(item, 'seq'),
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

  private queryAll(op: string, input: QueryCommandInput): AsyncIterable<Item> {
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

/** The CancellationReasons codes of a TransactionCanceledException, in action order; undefined for any other error. */
function cancellationCodes(e: unknown): string[] | undefined {
  const named = (e as { name?: string }).name === 'TransactionCanceledException';
  if (!(e instanceof TransactionCanceledException) && !named) return undefined;
  const reasons = (e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((r) => r.Code ?? 'None');
}

/**
 * A checkpoint's, note's or cosignature's body is data to be judged by its verifier, not by the store: a missing or
 * non-string attribute is surfaced as an empty string rather than hidden by a read error (ADR 0061). Entry items have
 * their own reader (adapters/ledger-entry-item.ts).
 */
function bodyOf(item: Item): string {
  return optStr(item, 'body');
}

function optStr(item: Item, name: string): string {
  const v = item[name];
  return v && typeof v.S === 'string' ? v.S : '';
}

/** Key and bookkeeping attributes must be well-typed: anything else means this is not the item we asked for. */
function str(item: Item, name: string): string {
  const v = item[name];
  if (!v || typeof v.S !== 'string') throw new StoreReadError(`item attribute ${name} is missing or not a string`);
  return v.S;
}

function num(item: Item, name: string): number {
  const v = item[name];
  const n = v && typeof v.N === 'string' ? Number(v.N) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new StoreReadError(`item attribute ${name} is missing or not a safe integer`);
  return n;
}
