/**
 * Shared plumbing of the two content-addressed tables (pack registry, request archive): key layout (pk S / sk S,
 * see infra/names.ts), SHA-256 digests, the exact-bytes attribute, conditional creates and consistent reads. Bytes are stored as a binary attribute so what
 * comes back is exactly what went in; every read re-hashes them, so a tampered or corrupted item is refused, never
 * served (docs/adr/0062-content-addressed-tables.md).
 */
import { createHash } from 'node:crypto';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamodb } from './aws-sdk.js';

const { DeleteItemCommand, GetItemCommand, PutItemCommand, ScanCommand } = dynamodb;

export type Item = Record<string, AttributeValue>;

/** DynamoDB's item size limit is 400 KB including attribute names; keep a margin for the other attributes. */
export const MAX_STORED_BYTES = 400 * 1024 - 1024;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export const DIGEST_PATTERN = /^[0-9a-f]{64}$/;

function bytesOf(item: Item, name: string): Uint8Array | undefined {
  const v = item[name];
  return v && v.B instanceof Uint8Array ? v.B : undefined;
}

export interface ContentTableOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
}

/**
 * One content-addressed table over the wire. A content item of family `f` is pk "f#<digest>", sk "f", bytes (B),
 * size (N); writes are conditional creates and reads are consistent, so what a digest names never changes.
 */
export class ContentTable {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;

  constructor(options: ContentTableOptions) {
    this.client = options.client;
    this.tableName = options.tableName;
  }

  /** The key of item (pk, sk). */
  key(pk: string, sk: string): Item {
    return { pk: { S: pk }, sk: { S: sk } };
  }

  /** Creates the item unless one with its key exists: true when this call created it. */
  async putIfAbsent(item: Item): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': 'pk' },
        }),
      );
      return true;
    } catch (e) {
      // The SDK's ConditionalCheckFailedException, by name (an emulator's error is not the SDK's class).
      if ((e as { name?: string } | null)?.name === 'ConditionalCheckFailedException') return false;
      throw e;
    }
  }

  /** The item at (pk, sk), read consistently, or undefined. */
  async getItem(pk: string, sk: string): Promise<Item | undefined> {
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: this.key(pk, sk), ConsistentRead: true }),
    );
    return out.Item;
  }

  async deleteItem(pk: string, sk: string): Promise<void> {
    await this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: this.key(pk, sk) }));
  }

  /**
   * The digest the alias item of `family` names (pk "<family>#<alias>", digest S), or null when there is none. An
   * alias item without a valid digest is never served: `integrityError` is thrown instead.
   */
  async aliasDigest(family: string, alias: string, integrityError: () => Error): Promise<string | null> {
    const item = await this.getItem(`${family}#${alias}`, family);
    const digest = item?.digest?.S;
    if (item && (typeof digest !== 'string' || !DIGEST_PATTERN.test(digest))) throw integrityError();
    return digest ?? null;
  }

  /**
   * Stores exact bytes as a `family` item under their digest (idempotent: `created` is false when already there).
   * Bytes over MAX_STORED_BYTES could not fit one item: refused here with a RangeError, before any call.
   */
  async putContent(family: string, bytes: Uint8Array, extra: Item = {}): Promise<{ digest: string; created: boolean }> {
    if (bytes.byteLength > MAX_STORED_BYTES)
      throw new RangeError(`${family} of ${bytes.byteLength} bytes exceeds the ${MAX_STORED_BYTES}-byte item limit`);
    const digest = sha256Hex(bytes);
    const created = await this.putIfAbsent({
      ...extra,
      ...this.key(`${family}#${digest}`, family),
      bytes: { B: bytes },
      size: { N: String(bytes.byteLength) },
    });
    return { digest, created };
  }

  /**
   * Every `family` item, page by page (a Scan: its cost grows with the table). Items whose bytes do not hash to their
   * key are yielded with `intact` false, never as content.
   */
  async *scanContent(
    family: string,
  ): AsyncIterable<{ digest: string; bytes: Uint8Array; item: Item; intact: boolean }> {
    let start: Item | undefined;
    do {
      const out = await this.client.send(
        new ScanCommand({
          TableName: this.tableName,
          ConsistentRead: true,
          FilterExpression: 'begins_with(#pk, :family)',
          ExpressionAttributeNames: { '#pk': 'pk' },
          ExpressionAttributeValues: { ':family': { S: `${family}#` } },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of out.Items ?? []) {
        const digest = item.pk?.S?.slice(family.length + 1) ?? '';
        const bytes = bytesOf(item, 'bytes') ?? new Uint8Array();
        yield { digest, bytes, item, intact: DIGEST_PATTERN.test(digest) && sha256Hex(bytes) === digest };
      }
      start = out.LastEvaluatedKey;
    } while (start !== undefined);
  }

  /**
   * The exact bytes of the `family` item for a digest; null when the digest is malformed or nothing is stored under it.
   * Stored bytes that do not hash to the digest are never served: `integrityError` is thrown instead.
   */
  async getContent(family: string, digest: string, integrityError: () => Error): Promise<Uint8Array | null> {
    if (!DIGEST_PATTERN.test(digest)) return null;
    const item = await this.getItem(`${family}#${digest}`, family);
    if (!item) return null;
    const bytes = bytesOf(item, 'bytes');
    if (!bytes || sha256Hex(bytes) !== digest) throw integrityError();
    return bytes;
  }
}
