/**
 * The ledger store interface. Core defines it; adapters implement it (adapters/dynamodb-ledger-store.ts over
 * @aws-sdk/client-dynamodb, and an in-memory store for unit tests). Every operation is a conditional create or a
 * consistent read: conditional single-item PutItem and consistent GetItem and Query. A log's group commit
 * (docs/adr/0350-group-commit-of-slot-writes.md) is one conditional PutItem of an entry bundle: one item holding a
 * run of contiguous entries, keyed by its first seq (docs/adr/0400-group-commit-as-one-entry-bundle.md). No streams, no UpdateItem, no DeleteItem (the ledger table is append-only;
 * see ADR 0160).
 *
 * Item families (one table):
 *   entry       pk "log#<logId>"      sk = seq (0, 1, 2, …)  the signed entry's canonical bytes + unsigned projection;
 *                                                             or a bundle of entries sk..sk+k-1 (ADR 0400)
 *   claim       pk "req#<requestId>"  sk = 0                  first sight of a request: its log and the head seen before
 *   position    pk "req#<requestId>"  sk = 1                  where one request's entry landed (an index, written after;
 *                                                             since ADR 0498 only on a rare path, see find-position.ts)
 *   marker      pk "mark#<logId>"     sk = last seq named     where a delivery job's entries landed (ADR 0498)
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

/**
 * Where the entries of one delivery job landed (docs/adr/0498-batch-markers-replace-positions.md): one item per job,
 * written by the delivery stage after it has read every named entry back. Keyed by its last seq: every entry it names
 * sits at or below it, so the marker naming a request's entry is keyed above the request's claim's headBefore.
 */
export interface BatchMarker {
  readonly logId: string;
  /** 1..MAX_MARKER_MEMBERS positions of this log, ascending seqs, distinct request ids (a delivery job's). */
  readonly positions: readonly { readonly seq: number; readonly requestId: string }[];
}

/**
 * The largest group, and so the most entries one bundle item holds (ADR 0400): a reader looking for seq s reads the
 * items keyed s-63..s, since one of them is the item that holds it. 64 is what the evaluate function processes of a
 * batch at once, so the requests of a batch go in one bundle (docs/adr/0506-a-batch-is-one-bundle.md).
 */
export const MAX_GROUP_MEMBERS = 64;

/** The most positions one marker names: a delivery job's, at most one bundle's entries (core/pipeline/delivery-job.ts). */
export const MAX_MARKER_MEMBERS = MAX_GROUP_MEMBERS;

/** The seq a marker is keyed by: its last (highest) position's. */
export const markerKey = (m: BatchMarker): number => m.positions[m.positions.length - 1]!.seq;

/** A marker is 1..MAX_MARKER_MEMBERS positions with ascending seqs and distinct request ids; else a caller's bug. */
export function checkMarker(m: BatchMarker): void {
  if (m.positions.length < 1 || m.positions.length > MAX_MARKER_MEMBERS)
    throw new RangeError(`a marker names 1..${MAX_MARKER_MEMBERS} positions, not ${m.positions.length}`);
  const ids = new Set<string>();
  for (const [i, p] of m.positions.entries()) {
    if (!Number.isSafeInteger(p.seq) || p.seq < 0) throw new RangeError(`a marker's seq is a natural number: ${p.seq}`);
    if (i > 0 && p.seq <= m.positions[i - 1]!.seq) throw new RangeError("a marker's seqs ascend");
    if (ids.has(p.requestId)) throw new RangeError(`a marker names request ${p.requestId} once`);
    ids.add(p.requestId);
  }
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
   * All or nothing: creates the slots of `entries` (1..MAX_GROUP_MEMBERS of them, one log, contiguous ascending seqs)
   * when the first is free, and returns true; returns false, having written nothing, when it is taken. Never a partial
   * write (ADR 0350). The DynamoDB adapter writes them as one bundle item keyed by the first seq (ADR 0400), so only
   * the first slot is checked: under the append protocol the next item of a log, if any, starts exactly at the seq
   * after the head the writer read, so a taken first slot is the only way any of the slots can be taken.
   */
  putEntriesIfAbsent(entries: readonly StoredEntry[]): Promise<boolean>;
  readClaim(requestId: string): Promise<Claim | null>;
  /** Conditional create; false when a claim for this request id already exists. */
  putClaimIfAbsent(claim: Claim): Promise<boolean>;
  /** The request's own position item, if one was written. Where its entry landed is `findPosition` (ADR 0498). */
  readPosition(requestId: string): Promise<Position | null>;
  /** Conditional create; a second identical write is a no-op (returns false), never an overwrite. */
  putPositionIfAbsent(position: Position): Promise<boolean>;
  /** Conditional create of a batch marker keyed (logId, its last seq); false when that key is taken. */
  putMarkerIfAbsent(marker: BatchMarker): Promise<boolean>;
  /** The markers of a log keyed fromSeq <= key <= toSeq (undefined = to the end), ascending, consistent, complete. */
  readMarkers(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<BatchMarker>;
  /** Conditional create of a checkpoint (logId, treeSize). */
  putCheckpointIfAbsent(checkpoint: StoredCheckpoint): Promise<boolean>;
  readCheckpoints(logId: string): AsyncIterable<StoredCheckpoint>;
  /** The log ids that hold at least one entry (a full, complete listing). */
  listLogs(): Promise<string[]>;
  /**
   * Every position the store records (a full, complete listing, in no particular order): each position item and each
   * position a batch marker names (ADR 0498), for stores that can list them. `verify` checks each names a stored entry
   * of its request: the only trace of an entry deleted from an unanchored tail (ADR 0164).
   */
  listPositions?(): AsyncIterable<Position>;
}

/** A read that could not be completed. `verify` turns it into "no verdict" (exit 2), never a shorter ok. */
export class StoreReadError extends Error {
  readonly code = 'store-read-incomplete';
}

/** A group is 1..MAX_GROUP_MEMBERS entries of one log with contiguous ascending seqs (one bundle, ADR 0400). */
export function checkGroup(entries: readonly StoredEntry[]): void {
  if (entries.length < 1 || entries.length > MAX_GROUP_MEMBERS)
    throw new RangeError(`a group holds 1..${MAX_GROUP_MEMBERS} entries, not ${entries.length}`);
  const { logId, seq } = entries[0]!;
  for (const [i, e] of entries.entries()) {
    if (e.logId !== logId) throw new RangeError('a group writes one log');
    if (e.seq !== seq + i) throw new RangeError(`a group's seqs are contiguous: seq ${e.seq} at member ${i}`);
  }
}
