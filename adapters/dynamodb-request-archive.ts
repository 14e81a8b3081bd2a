/**
 * The request archive: exact request bytes, content-addressed by SHA-256 so `docket replay` can fetch what an entry's
 * request digest names (docs/replay.md). Items: pk "request#<digest>", sk "request", bytes (B), size (N), and
 * retainedAt (N, epoch seconds of the first put) — when the pipeline first held the request, which `docket verify`
 * compares with the redelivery window before it calls an archived request without an entry an omission
 * (docs/verify.md "Requests without an entry", ADR 0292).
 * Unlike the ledger this table may be purged (DeleteItem): the ledger binds only the digest, so purging retained
 * facts makes an entry `not-replayable` but never breaks verification of the chain.
 */
import { ContentTable, DIGEST_PATTERN, type ContentTableOptions } from './content-table.js';

export interface RequestArchiveOptions extends ContentTableOptions {
  /** Epoch milliseconds (default Date.now): stamps retainedAt. */
  readonly now?: () => number;
}

/** One archived request as scanned: its digest, exact bytes, and first-retained time (null on an older item). */
export interface ArchivedBytes {
  readonly digest: string;
  readonly bytes: Uint8Array;
  /** Epoch seconds; null for an item written before retainedAt was recorded. */
  readonly retainedAt: number | null;
}

export class ArchiveIntegrityError extends Error {
  readonly code = 'archive-integrity';
}

export class DynamoDbRequestArchive {
  private readonly table: ContentTable;
  private readonly now: () => number;

  constructor(options: RequestArchiveOptions) {
    this.table = new ContentTable(options);
    this.now = options.now ?? Date.now;
  }

  /** Retains the bytes (idempotent: a second put of the same bytes is a no-op). Returns their digest. */
  async put(bytes: Uint8Array): Promise<{ digest: string; created: boolean }> {
    return this.table.putContent('request', bytes, { retainedAt: { N: String(Math.floor(this.now() / 1000)) } });
  }

  /** Every retained request (a Scan). Bytes that do not hash to their digest throw, as get does. */
  async *list(): AsyncIterable<ArchivedBytes> {
    for await (const c of this.table.scanContent('request')) {
      if (!c.intact) throw new ArchiveIntegrityError(`retained request ${c.digest} does not hash to its digest`);
      const at = Number(c.item.retainedAt?.N);
      yield { digest: c.digest, bytes: c.bytes, retainedAt: Number.isSafeInteger(at) ? at : null };
    }
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
