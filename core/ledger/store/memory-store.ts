/**
 * An in-memory LedgerStore for unit tests and offline tools. Same conditional-create semantics as the DynamoDB
 * adapter: nothing is ever overwritten, updated or deleted. Every method is async and yields to the event loop
 * (optionally through `interleave`) so concurrent appenders really interleave in tests.
 */
import {
  checkGroup,
  checkMarker,
  markerKey,
  type BatchMarker,
  type Claim,
  type LedgerStore,
  type Position,
  type StoredCheckpoint,
  type StoredEntry,
} from './store.js';
import { cosignatureSortKey, type CheckpointNoteStore, type StoredCosignature, type StoredNote } from './note-store.js';

export interface MemoryStoreOptions {
  /** Awaited before every operation; tests pass a seeded random delay to shuffle interleavings. */
  readonly interleave?: (operation: string) => Promise<void>;
}

export class MemoryLedgerStore implements LedgerStore, CheckpointNoteStore {
  private readonly logs = new Map<string, StoredEntry[]>();
  private readonly claims = new Map<string, Claim>();
  private readonly positions = new Map<string, Position>();
  /** `${logId}\u0000${last seq}` → the batch marker keyed there (ADR 0498). */
  private readonly batchMarkers = new Map<string, BatchMarker>();
  private readonly checkpoints = new Map<string, StoredCheckpoint[]>();
  private readonly notes = new Map<string, StoredNote>();
  private readonly cosignatures = new Map<string, StoredCosignature>();

  constructor(private readonly options: MemoryStoreOptions = {}) {}

  private async step(op: string): Promise<void> {
    if (this.options.interleave !== undefined) await this.options.interleave(op);
    else await Promise.resolve();
  }

  async readHead(logId: string): Promise<StoredEntry | null> {
    await this.step('readHead');
    const log = this.logs.get(logId);
    return log === undefined || log.length === 0 ? null : (log[log.length - 1] as StoredEntry);
  }

  async *readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry> {
    await this.step('readEntries');
    const log = [...(this.logs.get(logId) ?? [])];
    for (const e of log) if (e.seq >= fromSeq && (toSeq === undefined || e.seq <= toSeq)) yield e;
  }

  async putEntryIfAbsent(entry: StoredEntry): Promise<boolean> {
    await this.step('putEntryIfAbsent');
    let log = this.logs.get(entry.logId);
    if (log === undefined) this.logs.set(entry.logId, (log = []));
    if (log.some((e) => e.seq === entry.seq)) return false;
    log.push(freeze(entry));
    log.sort((a, b) => a.seq - b.seq);
    return true;
  }

  /**
   * All or nothing (ADR 0350): checked and applied with no await between, so no other call interleaves. Refused when
   * the first slot is taken, as the DynamoDB bundle item is (ADR 0400). A group whose first slot is free but a later
   * one taken is what the append protocol never offers — in DynamoDB it would overlap an item — so it is thrown here,
   * loudly, for the protocol's tests to catch.
   */
  async putEntriesIfAbsent(entries: readonly StoredEntry[]): Promise<boolean> {
    await this.step('putEntriesIfAbsent');
    checkGroup(entries);
    const logId = entries[0]!.logId;
    const log = this.logs.get(logId) ?? [];
    const taken = new Set(log.map((e) => e.seq));
    if (taken.has(entries[0]!.seq)) return false;
    const overlapped = entries.find((e) => taken.has(e.seq));
    if (overlapped !== undefined)
      throw new LedgerGroupOverlapError(`group ${logId}/${entries[0]!.seq} overlaps slot ${overlapped.seq}`);
    log.push(...entries.map(freeze));
    log.sort((a, b) => a.seq - b.seq);
    this.logs.set(logId, log);
    return true;
  }

  async readClaim(requestId: string): Promise<Claim | null> {
    await this.step('readClaim');
    return this.claims.get(requestId) ?? null;
  }

  async putClaimIfAbsent(claim: Claim): Promise<boolean> {
    await this.step('putClaimIfAbsent');
    return putIfAbsent(this.claims, claim.requestId, claim);
  }

  async readPosition(requestId: string): Promise<Position | null> {
    await this.step('readPosition');
    return this.positions.get(requestId) ?? null;
  }

  async putPositionIfAbsent(position: Position): Promise<boolean> {
    await this.step('putPositionIfAbsent');
    return putIfAbsent(this.positions, position.requestId, position);
  }

  async putMarkerIfAbsent(marker: BatchMarker): Promise<boolean> {
    await this.step('putMarkerIfAbsent');
    checkMarker(marker);
    const key = `${marker.logId}\u0000${markerKey(marker)}`;
    if (this.batchMarkers.has(key)) return false;
    const positions = Object.freeze(marker.positions.map((p) => Object.freeze({ seq: p.seq, requestId: p.requestId })));
    this.batchMarkers.set(key, Object.freeze({ logId: marker.logId, positions }));
    return true;
  }

  async *readMarkers(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<BatchMarker> {
    await this.step('readMarkers');
    const mine = [...this.batchMarkers.values()].filter(
      (m) => m.logId === logId && markerKey(m) >= fromSeq && (toSeq === undefined || markerKey(m) <= toSeq),
    );
    for (const m of mine.sort((a, b) => markerKey(a) - markerKey(b))) yield m;
  }

  async putCheckpointIfAbsent(checkpoint: StoredCheckpoint): Promise<boolean> {
    await this.step('putCheckpointIfAbsent');
    let list = this.checkpoints.get(checkpoint.logId);
    if (list === undefined) this.checkpoints.set(checkpoint.logId, (list = []));
    if (list.some((c) => c.treeSize === checkpoint.treeSize)) return false;
    list.push(Object.freeze({ ...checkpoint }));
    list.sort((a, b) => a.treeSize - b.treeSize);
    return true;
  }

  async *readCheckpoints(logId: string): AsyncIterable<StoredCheckpoint> {
    await this.step('readCheckpoints');
    for (const c of [...(this.checkpoints.get(logId) ?? [])]) yield c;
  }

  async putNoteIfAbsent(note: StoredNote): Promise<boolean> {
    await this.step('putNoteIfAbsent');
    return putIfAbsent(this.notes, `${note.logId}\u0000${note.treeSize}`, note);
  }

  async *readNotes(logId: string): AsyncIterable<StoredNote> {
    await this.step('readNotes');
    const mine = [...this.notes.values()].filter((n) => n.logId === logId);
    for (const n of mine.sort((a, b) => a.treeSize - b.treeSize)) yield n;
  }

  async putCosignatureIfAbsent(c: StoredCosignature): Promise<boolean> {
    await this.step('putCosignatureIfAbsent');
    return putIfAbsent(this.cosignatures, `${c.logId}\u0000${c.treeSize}\u0000${cosignatureSortKey(c)}`, c);
  }

  async *readCosignatures(logId: string, treeSize: number): AsyncIterable<StoredCosignature> {
    await this.step('readCosignatures');
    const mine = [...this.cosignatures.values()].filter((c) => c.logId === logId && c.treeSize === treeSize);
    for (const c of mine.sort((a, b) => cosignatureSortKey(a) - cosignatureSortKey(b))) yield c;
  }

  async listLogs(): Promise<string[]> {
    await this.step('listLogs');
    return [...this.logs.entries()]
      .filter(([, l]) => l.length > 0)
      .map(([id]) => id)
      .sort();
  }

  /** Test/offline helper: every entry of a log, synchronously (no copy of the bodies). */
  snapshot(logId: string): readonly StoredEntry[] {
    return [...(this.logs.get(logId) ?? [])];
  }

  async *listPositions(): AsyncIterable<Position> {
    yield* this.markers().positions;
  }

  /** Test/offline helper: all claims, and every position (position items, then each batch marker's). */
  markers(): { claims: Claim[]; positions: Position[] } {
    const marked = [...this.batchMarkers.values()].flatMap((m) =>
      m.positions.map((p) => ({ requestId: p.requestId, logId: m.logId, seq: p.seq })),
    );
    return { claims: [...this.claims.values()], positions: [...this.positions.values(), ...marked] };
  }
}

/** A conditional create: a frozen copy of `value` under `key` unless the key is taken. */
function putIfAbsent<T extends object>(map: Map<string, T>, key: string, value: T): boolean {
  if (map.has(key)) return false;
  map.set(key, Object.freeze({ ...value }));
  return true;
}

function freeze(e: StoredEntry): StoredEntry {
  return Object.freeze({ ...e, projection: Object.freeze({ ...e.projection }) });
}

/** A group offered over a taken slot other than its first: a fault of the caller, never a ledger state (ADR 0400). */
export class LedgerGroupOverlapError extends Error {
  override readonly name = 'LedgerGroupOverlapError';
  readonly code = 'group-overlap';
}
