/**
 * Fast paths for reading canonical records, each provably equivalent to the ledger's strict reader on its domain and
 * falling back to it outside (docs/adr/0093-verify-performance.md).
 *
 * A text T is accepted as a canonical ledger record iff T is well-formed Unicode, JSON.parse(T) succeeds, the value
 * satisfies the ledger's value rules (canonicalText checks them) and canonicalText(value) === T. Such a T is strict
 * RFC 8259 JSON with unique member names, no lone surrogate and integer numbers (it is what the one serializer emits),
 * so the strict carrier reads it to the same value; conversely a text the strict reader accepts is by definition equal
 * to the canonical text of its value. JSON.parse defines "__proto__" as an own member, like the carrier.
 */
import { ok, type Result } from '../../result.js';
import { isWellFormed, utf8Bytes } from '../primitives/bytes.js';
import { readCanonicalRecord } from '../primitives/canonical.js';
import { LEDGER_EXPORT_FORMAT, readLedgerExport, type ExportReadError, type LedgerExport } from '../export/export.js';
import type { StoredEntry } from '../store/store.js';

const ASCII_NAME = /^[\x20-\x7e]+$/;
/** Native String.prototype.isWellFormed (V8 ≥ 11.1, Node 20) when present, else the ledger's own test. */
const wellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : isWellFormed;

/** Member names already found printable ASCII: ledger records reuse a few dozen names, so the regex runs once each. */
const asciiNames = new Set<string>();
function isAsciiName(k: string): boolean {
  if (asciiNames.has(k)) return true;
  if (!ASCII_NAME.test(k)) return false;
  if (asciiNames.size < 4096) asciiNames.add(k);
  return true;
}

/**
 * True when a JSON.parse result obeys the ledger value rules (integers within ±(2^53−1), no −0, printable-ASCII
 * member names, well-formed strings) AND every object's members are in strictly ascending UTF-16 code-unit order.
 * For such a value RFC 8785 text equals JSON.stringify(value) (§3.2: ECMAScript primitive serialization, sorted
 * members), so the text check below needs only the native serializer; canonicalText stays the one emitter.
 */
export function isSortedLedgerValue(x: unknown): boolean {
  if (x === null || typeof x === 'boolean') return true;
  if (typeof x === 'number') return Number.isSafeInteger(x) && !Object.is(x, -0);
  if (typeof x === 'string') return wellFormed(x);
  if (typeof x !== 'object') return false;
  if (Array.isArray(x)) {
    for (const v of x) if (!isSortedLedgerValue(v)) return false;
    return true;
  }
  let prev: string | null = null;
  for (const k in x as Record<string, unknown>) {
    if (!Object.hasOwn(x, k)) return false;
    if ((prev !== null && !(prev < k)) || !isAsciiName(k)) return false;
    if (!isSortedLedgerValue((x as Record<string, unknown>)[k])) return false;
    prev = k;
  }
  return true;
}

/** The strict canonical read of a record given as text; same answers as readCanonicalRecord(utf8(text)). */
export function readCanonicalText(text: string): Result<unknown, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return readCanonicalRecord(utf8Bytes(text));
  }
  // Anything else (including integer-like member names, which V8 enumerates first) goes to the strict reader.
  return isSortedLedgerValue(value) && JSON.stringify(value) === text
    ? ok(value)
    : readCanonicalRecord(utf8Bytes(text));
}

const isRec = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
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
  if (!(
    o === null ||
    (isRec(o) && keys(o) === 'environment,table' && typeof o.environment === 'string' && typeof o.table === 'string')
  ))
    return readLedgerExport(bytes);
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
      !wellFormed(body) ||
      !wellFormed(p.requestId) ||
      !wellFormed(p.kind) ||
      !wellFormed(logId)
    )
      return readLedgerExport(bytes);
    entries.push({ logId, seq, body, projection: { requestId: p.requestId, kind: p.kind, entryHash: p.entryHash } });
  }
  return ok({
    origin:
      o === null
        ? null
        : {
            environment: (o as Record<string, string>).environment as string,
            table: (o as Record<string, string>).table as string,
          },
    entries,
  });
}
