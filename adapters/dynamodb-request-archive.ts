/**
 * The request archive: exact request bytes, content-addressed by SHA-256 so `docket replay` can fetch what an entry's
 * request digest names (docs/replay.md). Items: pk "request#<digest>", sk "request", bytes (B), size (N).
 * Unlike the ledger this table may be purged (DeleteItem): the ledger binds only the digest, so purging retained
 * facts makes an entry `not-replayable` but never breaks verification of the chain.
 */
import { ContentTable, DIGEST_PATTERN, type ContentTableOptions } from './content-table.js';

export type RequestArchiveOptions = ContentTableOptions;

export class ArchiveIntegrityError extends Error {
  readonly code = 'archive-integrity';
}

export class DynamoDbRequestArchive {
  private readonly table: ContentTable;

  constructor(options: RequestArchiveOptions) {
    this.table = new ContentTable(options);
  }

  /** Retains the bytes (idempotent: a second put of the same bytes is a no-op). Returns their digest. */
  async put(bytes: Uint8Array): Promise<{ digest: string; created: boolean }> {
    return this.table.putContent('request', bytes);
  }

  /** The exact bytes for a digest; null when never retained or purged. Bytes that do not hash to the digest throw. */
  async get(digest: string): Promise<Uint8Array | null> {
    return this.table.getContent(
      'request',
      digest,
      () => new ArchiveIntegrityError(`retained request ${digest} does not hash to its digest`),
    );
  }

  /** Forgets the bytes of one request (e.g. a data-subject request); the ledger entry keeps verifying. */
  async purge(digest: string): Promise<void> {
    if (!DIGEST_PATTERN.test(digest)) return;
    await this.table.deleteItem(`request#${digest}`, 'request');
  }
}
