/**
 * Assembles a docket.receipt/1 for one request from a ledger store (docs/adr/0175-portable-receipts.md): the
 * entry's exact stored bytes, the covering checkpoint's exact bytes, the RFC 9162 §2.1.3.1 inclusion path computed
 * from the stored entries of the log (leaf hashes recomputed from the bytes, never taken from projections), and the
 * checkpoint's signed note with every witness's newest cosignature when the store keeps notes.
 *
 * Which checkpoint: among the readable checkpoints of the entry's log whose tree covers the entry, the one whose
 * note carries the most cosignature lines, then the largest tree (ADR 0175). The builder judges nothing:
 * verifyReceipt does, and a receipt of a forged ledger simply fails there.
 */
import { err, ok, type Result } from '../../result.js';
import { fromHex, toHex } from '../primitives/bytes.js';
import { parseCheckpoint, type SignedCheckpoint } from '../checkpoints/checkpoint.js';
import { entryHashOf } from '../entries/entry.js';
import { inclusionProof } from '../checkpoints/merkle.js';
import { cosignedNote, type CheckpointNoteStore } from '../store/note-store.js';
import { keepsNotes } from '../checkpoints/publish-note.js';
import type { Receipt } from './receipt.js';
import type { LedgerStore, Position } from '../store/store.js';
import { findPosition } from '../store/find-position.js';

export type ReceiptBuildError =
  /** No entry and no claim for the request id. */
  | { readonly code: 'unknown-request'; readonly detail: string }
  /** Claimed but not recorded yet, or its position names a slot with no entry or another request's entry. */
  | { readonly code: 'not-recorded'; readonly detail: string }
  /** Recorded, but no checkpoint of the log covers it yet; `newestCheckpointTime` dates the log's newest one, if any. */
  | {
      readonly code: 'not-checkpointed';
      readonly detail: string;
      readonly position: Position;
      readonly newestCheckpointTime: string | null;
    };

/** Where the request's entry is recorded, or why there is none. */
export async function locateEntry(
  store: LedgerStore,
  requestId: string,
): Promise<Result<{ position: Position; body: string }, ReceiptBuildError>> {
  const position = await findPosition(store, requestId);
  if (position === null) {
    const claim = await store.readClaim(requestId);
    return claim === null
      ? err({ code: 'unknown-request', detail: `no entry for request ${requestId}` })
      : err({ code: 'not-recorded', detail: `${requestId} is claimed on log ${claim.logId} but not recorded yet` });
  }
  for await (const e of store.readEntries(position.logId, position.seq, position.seq)) {
    if (e.seq !== position.seq) continue;
    // Positions and batch markers are unsigned indexes (docs/verify.md "Threat model"): the entry itself must say so.
    if (e.projection.requestId !== requestId)
      return err({
        code: 'not-recorded',
        detail: `the index of ${requestId} names ${position.logId}/${position.seq}, an entry of another request`,
      });
    return ok({ position, body: e.body });
  }
  return err({
    code: 'not-recorded',
    detail: `the position of ${requestId} names a missing entry ${position.logId}/${position.seq}`,
  });
}

export async function buildReceipt(store: LedgerStore, requestId: string): Promise<Result<Receipt, ReceiptBuildError>> {
  const located = await locateEntry(store, requestId);
  if (!located.ok) return located;
  const at = await receiptAt(store, located.value.position, located.value.body);
  return at.ok ? ok(at.value.receipt) : at;
}

/**
 * The receipt of `body` at `position` from the log as stored: the chosen covering checkpoint, and the inclusion path
 * of position.seq computed from the stored leaves, with the leaf hash the log holds there (`storedLeaf`, hex). When
 * `body` is the entry stored at that position the receipt proves its inclusion; when it is not (a requester's saved
 * entry whose slot now holds another, core/ledger/receipts/promise-audit.ts), `storedLeaf` is what the checkpoint committed
 * to instead. Throws RangeError when the stored log has a gap below the checkpoint's size.
 */
export async function receiptAt(
  store: LedgerStore,
  position: Position,
  body: string,
): Promise<Result<{ receipt: Receipt; storedLeaf: string }, ReceiptBuildError>> {
  const covering: { cp: SignedCheckpoint; body: string }[] = [];
  let newest: SignedCheckpoint | null = null;
  for await (const c of store.readCheckpoints(position.logId)) {
    const parsed = parseCheckpoint(c.body);
    if (!parsed.ok || parsed.value.logId !== position.logId || parsed.value.treeSize !== c.treeSize) continue;
    if (newest === null || parsed.value.treeSize > newest.treeSize) newest = parsed.value;
    if (parsed.value.treeSize > position.seq) covering.push({ cp: parsed.value, body: c.body });
  }
  if (covering.length === 0)
    return err({
      code: 'not-checkpointed',
      detail: `no checkpoint of log ${position.logId} covers seq ${position.seq} yet`,
      position,
      newestCheckpointTime: newest?.time ?? null,
    });
  const notes = keepsNotes(store) ? await notesBySize(store, position.logId) : new Map<number, string>();
  covering.sort(
    (a, b) =>
      signatureLines(notes.get(b.cp.treeSize)) - signatureLines(notes.get(a.cp.treeSize)) ||
      b.cp.treeSize - a.cp.treeSize,
  );
  const chosen = covering[0]!;
  const leaves: Uint8Array[] = [];
  for await (const e of store.readEntries(position.logId, 0, chosen.cp.treeSize - 1)) {
    if (e.seq !== leaves.length) throw new RangeError(`log ${position.logId} has no entry at seq ${leaves.length}`);
    leaves.push(fromHex(entryHashOf(e.body)));
  }
  if (leaves.length !== chosen.cp.treeSize)
    throw new RangeError(`log ${position.logId} ends at ${leaves.length}, before ${chosen.cp.treeSize}`);
  return ok({
    receipt: {
      entry: body,
      inclusion: {
        leafIndex: position.seq,
        treeSize: chosen.cp.treeSize,
        path: inclusionProof(position.seq, leaves).map((h) => toHex(h)),
      },
      checkpoint: chosen.body,
      note: notes.get(chosen.cp.treeSize) ?? null,
    },
    storedLeaf: toHex(leaves[position.seq]!),
  });
}

/** The signature lines of a signed note (the log's and each cosignature), or −1 without a note. */
function signatureLines(note: string | undefined): number {
  if (note === undefined) return -1;
  return note.slice(note.lastIndexOf('\n\n') + 2).split('\n').length - 1;
}

/** Each stored note of the log with its cosignature lines, by tree size. */
async function notesBySize(store: CheckpointNoteStore, logId: string): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for await (const n of store.readNotes(logId)) out.set(n.treeSize, await cosignedNote(store, n));
  return out;
}
