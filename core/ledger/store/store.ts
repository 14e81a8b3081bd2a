/**
 * The ledger store interface. Core defines it; adapters implement it (adapters/dynamodb-ledger-store.ts over
 * @aws-sdk/client-dynamodb, and an in-memory store for unit tests). Every operation is a conditional create or a
 * consistent read: conditional single-item PutItem, consistent GetItem and Query, and one all-or-nothing group of
 * conditional creates (TransactWriteItems: a log's group commit, docs/adr/0350-group-commit-of-slot-writes.md; the
 * local emulator implements it, ADR 0351). No streams, no UpdateItem, no DeleteItem (the ledger table is append-only;
 * see ADR 0160).
 *
 * Item families (one table):
 *   entry       pk "log#<logId>"      sk = seq (0, 1, 2, …)  the signed entry's canonical bytes + unsigned projection
 *   claim       pk "req#<requestId>"  sk = 0                  first sight of a request: its log and the head seen before
 *   position    pk "req#<requestId>"  sk = 1                  where the request's entry landed (an index, written after)
 *   checkpoint  pk "ckpt#<logId>"     sk = treeSize           signed checkpoint bytes
 *
 * Every read method either returns the complete answer or throws (StoreReadError); a read cut short (throttled,
 * paginated away) must never look like a shorter ledger.
 */

/** What is stored for one entry: the exact canonical bytes (UTF-8 JSON text) plus an unsigned query projection. */
export interface StoredEntry {
  readonly logId: string;
  readonly seq: number;
  /** The entry's exact stored bytes: RFC 8785 canonical JSON of the signed entry (signature included). */
  readonly body: string;
  /** Unsigned projection kept beside the body for queries; `verify` checks it equals the body (projection-mismatch). */
  readonly projection: { readonly requestId: string; readonly kind: string; readonly entryHash: string };
}

export interface Claim {
  readonly requestId: string;
  readonly logId: string;
  /** SHA-256 (hex) of the exact request bytes; a second request reusing the id with other bytes is refused. */
  readonly requestDigest: string;
  /** Head sequence number observed *before* the claim was written (-1 for an empty log). Any entry for this request
   *  can only sit at a seq greater than this, which bounds the duplicate scan of the append protocol. */
  readonly headBefore: number;
}

export interface Position {
  readonly requestId: string;
  readonly logId: string;
  readonly seq: number;
}

export interface StoredCheckpoint {
  readonly logId: string;
  readonly treeSize: number;
  readonly body: string;
}

export interface LedgerStore {
  /** Highest entry of the log (consistent read), or null when the log is empty. */
  readHead(logId: string): Promise<StoredEntry | null>;
  /** Entries with fromSeq <= seq <= toSeq (inclusive; toSeq undefined = to the end), ascending, consistent, complete. */
  readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry>;
  /** Conditional create of slot (logId, seq). Returns false when the slot is already taken (never overwrites). */
  putEntryIfAbsent(entry: StoredEntry): Promise<boolean>;
  /**
   * All or nothing: creates every slot of `entries` (2..MAX_GROUP_MEMBERS of them, one log, distinct seqs) when all
   * are absent, and returns true; returns false, having written nothing, when any is already taken. Never a partial
   * write (ADR 0350). The DynamoDB adapter may also answer true for a group identical, byte for byte, to one that
   * landed in the last 10 minutes (TransactWriteItems' idempotency token: the SDK's retry of a landed transaction):
   * those exact entries are then in place. Stores without it get the one-slot-at-a-time protocol.
   */
  putEntriesIfAbsent?(entries: readonly StoredEntry[]): Promise<boolean>;
  readClaim(requestId: string): Promise<Claim | null>;
  /** Conditional create; false when a claim for this request id already exists. */
  putClaimIfAbsent(claim: Claim): Promise<boolean>;
  readPosition(requestId: string): Promise<Position | null>;
  /** Conditional create; a second identical write is a no-op (returns false), never an overwrite. */
  putPositionIfAbsent(position: Position): Promise<boolean>;
  /** Conditional create of a checkpoint (logId, treeSize). */
  putCheckpointIfAbsent(checkpoint: StoredCheckpoint): Promise<boolean>;
  readCheckpoints(logId: string): AsyncIterable<StoredCheckpoint>;
  /** The log ids that hold at least one entry (a full, complete listing). */
  listLogs(): Promise<string[]>;
  /**
   * Every request position marker (a full, complete listing, in no particular order), for stores that can list
   * them. `verify` checks each names a stored entry of its request: the only trace of an entry deleted from an
   * unanchored tail (ADR 0164).
   */
  listPositions?(): AsyncIterable<Position>;
}

/** A read that could not be completed. `verify` turns it into "no verdict" (exit 2), never a shorter ok. */
export class StoreReadError extends Error {
  readonly code = 'store-read-incomplete';
}

/** A group is 1..100 entries of one log with distinct seqs (DynamoDB refuses two actions on one item). */
/** DynamoDB's TransactWriteItems limit on actions (ecosystem facts: ≤ 100 actions, ≤ 4 MB): the largest group. */
export const MAX_GROUP_MEMBERS = 100;

export function checkGroup(entries: readonly StoredEntry[]): void {
  if (entries.length < 1 || entries.length > MAX_GROUP_MEMBERS)
    throw new RangeError(`a group holds 1..${MAX_GROUP_MEMBERS} entries, not ${entries.length}`);
  const logId = entries[0]!.logId;
  const seqs = new Set<number>();
  for (const e of entries) {
    if (e.logId !== logId) throw new RangeError('a group writes one log');
    if (seqs.has(e.seq)) throw new RangeError(`seq ${e.seq} twice in one group`);
    seqs.add(e.seq);
  }
}
