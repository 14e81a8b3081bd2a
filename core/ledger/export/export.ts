/**
 * Export formats docket.ledger-export/1 (JSON Lines) and docket.checkpoint-export/1 (docs/ledger-format.md gives
 * both), so a ledger and its anchors can be verified away from the table. An entry's body travels as a string, so
 * tampered stored bytes survive export unchanged and are judged by the verifier, not by the export reader.
 */
import { readJson, type JsonValue } from '../../carrier/index.js';
import { err, ok, type Result } from '../../result.js';
import { canonicalText, withoutFinalNewline } from '../primitives/canonical.js';
import type { CheckpointOrigin } from '../checkpoints/checkpoint.js';
import type { LedgerStore, StoredCheckpoint, StoredEntry } from '../store/store.js';

export const LEDGER_EXPORT_FORMAT = 'docket.ledger-export/1';
export const CHECKPOINT_EXPORT_FORMAT = 'docket.checkpoint-export/1';

export interface ExportReadError {
  readonly code: 'export-malformed';
  /** 1-based line of a ledger export (0 for a checkpoint export). */
  readonly line: number;
  readonly detail: string;
}

const exportErr = (line: number, detail: string) => err<ExportReadError>({ code: 'export-malformed', line, detail });

const str = (m: ReadonlyMap<string, JsonValue>, k: string): string | undefined => {
  const v = m.get(k);
  return v?.kind === 'string' ? v.value : undefined;
};
const int = (m: ReadonlyMap<string, JsonValue>, k: string): number | undefined => {
  const v = m.get(k);
  if (v?.kind !== 'number' || !/^(?:0|[1-9][0-9]{0,15})$/.test(v.lexeme)) return undefined;
  const n = Number(v.lexeme);
  return Number.isSafeInteger(n) ? n : undefined;
};

export interface LedgerExport {
  readonly origin: CheckpointOrigin | null;
  readonly entries: readonly StoredEntry[];
}

/** Strict reader of a ledger export. The entries are returned as written (the verifier judges them). */
export function readLedgerExport(bytes: Uint8Array): Result<LedgerExport, ExportReadError> {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (start !== bytes.length) return exportErr(lines.length + 1, 'the last line ends with a newline');
  if (lines.length === 0) return exportErr(1, 'an export starts with its header line');
  const header = readJson(lines[0] as Uint8Array);
  if (!header.ok || header.value.kind !== 'object') return exportErr(1, 'the header is a JSON object');
  if (str(header.value.members, 'format') !== LEDGER_EXPORT_FORMAT)
    return exportErr(1, `format is ${LEDGER_EXPORT_FORMAT}`);
  const o = header.value.members.get('origin');
  let origin: CheckpointOrigin | null = null;
  if (
    o?.kind === 'object' &&
    str(o.members, 'environment') !== undefined &&
    str(o.members, 'table') !== undefined &&
    o.members.size === 2
  ) {
    origin = { environment: str(o.members, 'environment') as string, table: str(o.members, 'table') as string };
  } else if (o?.kind !== 'null') return exportErr(1, 'origin is null or {environment, table}');
  const entries: StoredEntry[] = [];
  for (let i = 1; i < lines.length; i++) {
    const r = readJson(lines[i] as Uint8Array);
    if (!r.ok) return exportErr(i + 1, `carrier: ${r.error.code}`);
    if (r.value.kind !== 'object') return exportErr(i + 1, 'a record is a JSON object');
    const m = r.value.members;
    const p = m.get('projection');
    const body = str(m, 'body');
    const logId = str(m, 'logId');
    const seq = int(m, 'seq');
    if (body === undefined || logId === undefined || seq === undefined || p?.kind !== 'object' || m.size !== 4) {
      return exportErr(i + 1, 'a record is {body, logId, projection, seq}');
    }
    const requestId = str(p.members, 'requestId');
    const kind = str(p.members, 'kind');
    const entryHash = str(p.members, 'entryHash');
    if (requestId === undefined || kind === undefined || entryHash === undefined || p.members.size !== 3) {
      return exportErr(i + 1, 'projection is {entryHash, kind, requestId}');
    }
    entries.push({ logId, seq, body, projection: { requestId, kind, entryHash } });
  }
  return ok({ origin, entries });
}

/** A checkpoint export of the given logs (every stored checkpoint, ascending tree size). */
export async function exportCheckpoints(store: LedgerStore, logIds: readonly string[]): Promise<string> {
  const checkpoints: { body: string; logId: string; treeSize: number }[] = [];
  for (const logId of [...logIds].sort()) {
    for await (const c of store.readCheckpoints(logId))
      checkpoints.push({ body: c.body, logId: c.logId, treeSize: c.treeSize });
  }
  return `${canonicalText({ checkpoints, format: CHECKPOINT_EXPORT_FORMAT })}\n`;
}

/** Strict reader of a checkpoint export. Each body is returned as written (parseCheckpoint judges it). */
export function readCheckpointExport(bytes: Uint8Array): Result<StoredCheckpoint[], ExportReadError> {
  const r = readJson(withoutFinalNewline(bytes));
  if (!r.ok) return exportErr(0, `carrier: ${r.error.code}`);
  if (r.value.kind !== 'object' || str(r.value.members, 'format') !== CHECKPOINT_EXPORT_FORMAT)
    return exportErr(0, `format is ${CHECKPOINT_EXPORT_FORMAT}`);
  const list = r.value.members.get('checkpoints');
  if (list?.kind !== 'array' || r.value.members.size !== 2) return exportErr(0, 'checkpoints is an array');
  const out: StoredCheckpoint[] = [];
  for (const item of list.items) {
    if (item.kind !== 'object' || item.members.size !== 3)
      return exportErr(0, 'a checkpoint record is {body, logId, treeSize}');
    const body = str(item.members, 'body');
    const logId = str(item.members, 'logId');
    const treeSize = int(item.members, 'treeSize');
    if (body === undefined || logId === undefined || treeSize === undefined)
      return exportErr(0, 'a checkpoint record is {body, logId, treeSize}');
    out.push({ body, logId, treeSize });
  }
  return ok(out);
}
