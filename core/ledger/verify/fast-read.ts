/**
 * The fast path for reading a ledger export, provably equivalent to the ledger's strict reader on its domain and
 * falling back to it outside (docs/adr/0093-verify-performance.md); the fast read of one record is readCanonicalText.
 */
import { ok, type Result } from '../../result.js';
import { isWellFormed } from '../primitives/bytes.js';
import { readCanonicalText } from '../primitives/canonical.js';
import { LEDGER_EXPORT_FORMAT, readLedgerExport, type ExportReadError, type LedgerExport } from '../export/export.js';
import type { StoredEntry } from '../store/store.js';
import { isRec } from '../primitives/shape.js';

const keys = (o: Record<string, unknown>): string => Object.keys(o).sort().join(',');
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a docket.ledger-export/1 file. When every line is the canonical text of a well-shaped record, records are
 * read with JSON.parse plus the canonical equality check; otherwise the whole file goes to the ledger's strict
 * readLedgerExport, so acceptance and results are the same either way.
 */
export function readLedgerExportFast(bytes: Uint8Array): Result<LedgerExport, ExportReadError> {
  let text: string;
  try {
    text = fatal.decode(bytes);
  } catch {
    return readLedgerExport(bytes);
  }
  if (!text.endsWith('\n')) return readLedgerExport(bytes);
  const lines = text.slice(0, -1).split('\n');
  const header = readCanonicalText(lines[0] as string);
  if (
    !header.ok ||
    !isRec(header.value) ||
    keys(header.value) !== 'format,origin' ||
    header.value.format !== LEDGER_EXPORT_FORMAT
  )
    return readLedgerExport(bytes);
  const o = header.value.origin;
  const origin =
    isRec(o) && keys(o) === 'environment,table' && typeof o.environment === 'string' && typeof o.table === 'string'
      ? { environment: o.environment, table: o.table }
      : null;
  if (o !== null && origin === null) return readLedgerExport(bytes);
  const entries: StoredEntry[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      return readLedgerExport(bytes);
    }
    if (!isRec(r)) return readLedgerExport(bytes);
    const { body, logId, projection: p, seq } = r;
    if (
      typeof body !== 'string' ||
      typeof logId !== 'string' ||
      typeof seq !== 'number' ||
      !Number.isSafeInteger(seq) ||
      seq < 0
    )
      return readLedgerExport(bytes);
    if (!isRec(p) || typeof p.entryHash !== 'string' || typeof p.kind !== 'string' || typeof p.requestId !== 'string')
      return readLedgerExport(bytes);
    // The canonical text of exactly this record shape (members sorted); equality also rules out duplicates, extra
    // members, whitespace and non-minimal escapes. Lone surrogates: JSON.stringify escapes them, isWellFormed refuses.
    const canonical = `{"body":${JSON.stringify(body)},"logId":${JSON.stringify(logId)},"projection":{"entryHash":${JSON.stringify(p.entryHash)},"kind":${JSON.stringify(p.kind)},"requestId":${JSON.stringify(p.requestId)}},"seq":${seq}}`;
    if (
      canonical !== line ||
      !isWellFormed(body) ||
      !isWellFormed(p.requestId) ||
      !isWellFormed(p.kind) ||
      !isWellFormed(logId)
    )
      return readLedgerExport(bytes);
    entries.push({ logId, seq, body, projection: { requestId: p.requestId, kind: p.kind, entryHash: p.entryHash } });
  }
  return ok({ origin, entries });
}
