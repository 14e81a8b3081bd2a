/**
 * Portable receipts, format "docket.receipt/1" (schema/receipt.schema.json; docs/verify.md "Receipts";
 * docs/adr/0175-portable-receipts.md): everything a third party needs to check one decision offline with nothing
 * but the trust policy. One RFC 8785 object:
 *
 *   { "format": "docket.receipt/1",
 *     "entry": "<the entry's exact stored bytes, as a JSON string>",
 *     "inclusion": { "leafIndex": <seq>, "treeSize": <T>, "path": ["<64 hex>", …] },   RFC 9162 §2.1.3 PATH(m, D[T])
 *     "checkpoint": "<the covering checkpoint's exact stored bytes>",
 *     "note": "<the checkpoint's signed note with witness cosignature lines>" | null }
 *
 * The entry and checkpoint travel as the exact text that was stored and signed (never re-serialized), so the leaf
 * hash and both signatures are computed over the very bytes the ledger holds. One serializer (validates, then
 * emits) and one strict reader; neither judges signatures — core/ledger/receipts/receipt-verify.ts does.
 */
import { err, ok, type Result } from '../../result.js';
import { isHex, isWellFormed } from '../primitives/bytes.js';
import { canonicalText, readLedgerJson } from '../primitives/canonical.js';
import { exactly, isNat, isRec } from '../primitives/shape.js';

export const RECEIPT_FORMAT = 'docket.receipt/1';
/** log₂ of the largest tree a safe integer can count: no RFC 9162 inclusion path is longer. */
export const MAX_PATH_HASHES = 63;
/** A receipt holds one entry (≤ 400 KB item), one checkpoint and one note: 1 MiB bounds every honest one. */
export const MAX_RECEIPT_BYTES = 1_048_576;

export interface InclusionProof {
  /** The entry's position in its log (its seq). */
  readonly leafIndex: number;
  /** The tree size of the checkpoint the proof leads to. */
  readonly treeSize: number;
  /** Lowercase hex of each 32-byte node hash of the audit path, leaf to root. */
  readonly path: readonly string[];
}

export interface Receipt {
  readonly entry: string;
  readonly inclusion: InclusionProof;
  readonly checkpoint: string;
  readonly note: string | null;
}

export interface ReceiptReadError {
  readonly code: 'receipt-malformed';
  readonly detail: string;
}

export class ReceiptInvariantError extends Error {
  override readonly name = 'ReceiptInvariantError';
  readonly code = 'receipt-invariant';
}

/** First broken rule of a receipt value (the shape only), or null. */
export function receiptViolation(x: unknown): string | null {
  if (!isRec(x) || !exactly(x, ['format', 'entry', 'inclusion', 'checkpoint', 'note']))
    return 'a receipt has exactly format, entry, inclusion, checkpoint, note';
  if (x.format !== RECEIPT_FORMAT) return `format is ${RECEIPT_FORMAT}`;
  if (typeof x.entry !== 'string' || x.entry === '' || !isWellFormed(x.entry))
    return 'entry is the non-empty stored entry text';
  if (typeof x.checkpoint !== 'string' || x.checkpoint === '' || !isWellFormed(x.checkpoint))
    return 'checkpoint is the non-empty stored checkpoint text';
  if (x.note !== null && (typeof x.note !== 'string' || x.note === '' || !isWellFormed(x.note)))
    return 'note is a signed note text or null';
  const p = x.inclusion;
  if (!isRec(p) || !exactly(p, ['leafIndex', 'treeSize', 'path']))
    return 'inclusion has exactly leafIndex, treeSize, path';
  if (!isNat(p.leafIndex) || !isNat(p.treeSize) || p.leafIndex >= p.treeSize)
    return 'inclusion.leafIndex and inclusion.treeSize are integers with leafIndex < treeSize';
  if (!Array.isArray(p.path) || p.path.length > MAX_PATH_HASHES)
    return `inclusion.path is an array of at most ${MAX_PATH_HASHES} hashes`;
  for (const h of p.path) if (!isHex(h, 32)) return 'inclusion.path holds 64 lowercase hex digit hashes';
  return null;
}

/** The one serializer: checks the shape, then emits the RFC 8785 text and a final newline. */
export function receiptText(r: Receipt): string {
  const value = {
    format: RECEIPT_FORMAT,
    entry: r.entry,
    inclusion: { leafIndex: r.inclusion.leafIndex, treeSize: r.inclusion.treeSize, path: [...r.inclusion.path] },
    checkpoint: r.checkpoint,
    note: r.note,
  };
  const v = receiptViolation(value);
  if (v !== null) throw new ReceiptInvariantError(v);
  return `${canonicalText(value)}\n`;
}

/**
 * The strict reader: the strict carrier (duplicate names, lone surrogates, invalid UTF-8 refused), integers only, the
 * closed shape. Canonical form is not required (a receipt may be pretty-printed in transit); the entry and checkpoint
 * strings inside are judged by their own strict readers, which do require their canonical bytes.
 */
export function readReceipt(bytes: Uint8Array): Result<Receipt, ReceiptReadError> {
  const bad = (detail: string) => err<ReceiptReadError>({ code: 'receipt-malformed', detail });
  if (bytes.length > MAX_RECEIPT_BYTES) return bad(`a receipt is at most ${MAX_RECEIPT_BYTES} bytes`);
  const read = readLedgerJson<Record<string, unknown> & { inclusion: InclusionProof }>(bytes, receiptViolation);
  if (!read.ok) return bad(read.error);
  const o = read.value;
  return ok({
    entry: o.entry as string,
    inclusion: { leafIndex: o.inclusion.leafIndex, treeSize: o.inclusion.treeSize, path: [...o.inclusion.path] },
    checkpoint: o.checkpoint as string,
    note: o.note as string | null,
  });
}
