/**
 * Where checkpoint notes and witness cosignatures live beside the checkpoints (docs/adr/0131-witness-items.md).
 * The ledger table holds them as append-only items:
 *   note         pk "note#<logId>"              sk = treeSize                     the log-signed checkpoint note
 *   cosignature  pk "cosig#<logId>#<treeSize>"  sk = time·65536 + keyID[0..1]     one cosignature line
 * A cosigned note is the log-signed note with each witness's newest cosignature line appended (signed-note allows any order).
 */
export interface StoredNote {
  readonly logId: string;
  readonly treeSize: number;
  /** The signed note as the log signed it (text, empty line, the log's signature line). */
  readonly note: string;
}

export interface StoredCosignature {
  readonly logId: string;
  readonly treeSize: number;
  /** The cosignature's own timestamp (seconds), also inside the signature bytes. */
  readonly time: number;
  /** The 4-byte cosignature key ID, hex. */
  readonly keyId: string;
  /** One signature line, `— <witness name> <base64>\n`. */
  readonly line: string;
}

export interface CheckpointNoteStore {
  putNoteIfAbsent(note: StoredNote): Promise<boolean>;
  /** Every stored note of a log, ascending tree size; complete or throws StoreReadError. */
  readNotes(logId: string): AsyncIterable<StoredNote>;
  putCosignatureIfAbsent(cosignature: StoredCosignature): Promise<boolean>;
  /** Every stored cosignature of one checkpoint; complete or throws StoreReadError. */
  readCosignatures(logId: string, treeSize: number): AsyncIterable<StoredCosignature>;
}

/** The sort key of a cosignature item: unique per witness key and second for one checkpoint. */
export const cosignatureSortKey = (c: { time: number; keyId: string }): number =>
  c.time * 65536 + Number.parseInt(c.keyId.slice(0, 4), 16);

/** The log-signed note with the newest stored cosignature line of each witness key appended. */
export async function cosignedNote(store: CheckpointNoteStore, n: StoredNote): Promise<string> {
  const newest = new Map<string, StoredCosignature>();
  for await (const c of store.readCosignatures(n.logId, n.treeSize)) {
    const key = `${c.keyId} ${c.line.split(' ')[1] ?? ''}`;
    const had = newest.get(key);
    if (had === undefined || had.time < c.time) newest.set(key, c);
  }
  return n.note + [...newest.values()].map((c) => c.line).join('');
}
