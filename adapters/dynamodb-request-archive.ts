/**
 * The request archive: exact request bytes, content-addressed by SHA-256 so `docket replay` can fetch what an entry's
 * request digest names (issue 3 item 6). Items: pk "request#<digest>", sk "request", bytes (B), size (N).
 * Unlike the ledger this table may be purged (DeleteItem): the ledger binds only the digest, so purging retained
 * facts makes an entry `not-replayable` but never breaks verification of the chain.
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DEFAULT_KEY_LAYOUT,
  DIGEST_PATTERN,
  MAX_STORED_BYTES,
  bytesOf,
  isConditionalFailure,
  key,
  notExistsCondition,
  sha256Hex,
  type KeyLayout,
} from './content-table.js';

export interface RequestArchiveOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly keyLayout?: KeyLayout;
}

export class ArchiveIntegrityError extends Error {
  readonly code = 'archive-integrity';
}

export class DynamoDbRequestArchive {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;
  private readonly layout: KeyLayout;

  constructor(options: RequestArchiveOptions) {
    this.client = options.client;
    this.tableName = options.tableName;
    this.layout = options.keyLayout ?? DEFAULT_KEY_LAYOUT;
  }

  /** Retains the bytes (idempotent: a second put of the same bytes is a no-op). Returns their digest. */
  async put(bytes: Uint8Array): Promise<{ digest: string; created: boolean }> {
    if (bytes.byteLength > MAX_STORED_BYTES) throw new RangeError(`request of ${bytes.byteLength} bytes exceeds the archive limit ${MAX_STORED_BYTES}`);
    const digest = sha256Hex(bytes);
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { ...key(this.layout, `request#${digest}`, 'request'), bytes: { B: bytes }, size: { N: String(bytes.byteLength) } },
          ...notExistsCondition(this.layout),
        }),
      );
      return { digest, created: true };
    } catch (e) {
      if (isConditionalFailure(e)) return { digest, created: false };
      throw e;
    }
  }

  /** The exact bytes for a digest; null when never retained or purged. Bytes that do not hash to the digest throw. */
  async get(digest: string): Promise<Uint8Array | null> {
    if (!DIGEST_PATTERN.test(digest)) return null;
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: key(this.layout, `request#${digest}`, 'request'), ConsistentRead: true }),
    );
    if (!out.Item) return null;
    const bytes = bytesOf(out.Item, 'bytes');
    if (!bytes || sha256Hex(bytes) !== digest) throw new ArchiveIntegrityError(`retained request ${digest} does not hash to its digest`);
    return bytes;
  }

  /** Forgets the bytes of one request (e.g. a data-subject request); the ledger entry keeps verifying. */
  async purge(digest: string): Promise<void> {
    if (!DIGEST_PATTERN.test(digest)) return;
    await this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: key(this.layout, `request#${digest}`, 'request') }));
  }
}
