/**
 * A witness's memory, format "docket.witness-state/1" (schema/witness-state.schema.json): per origin, the last
 * checkpoint it cosigned, as the cosigned note. RFC 8785 text; written by the caller atomically (temp file + rename).
 *
 *   { "format": "docket.witness-state/1",
 *     "logs": [{ "origin": "docket/prod/docket-prod-ledger/log-0", "treeSize": 6, "rootHash": "<base64>",
 *                "note": "<the checkpoint note with this witness's cosignature>" }] }   (ascending origin)
 */
import { err, ok, type Result } from '../../result.js';
import { canonicalText, readCanonicalRecord, withoutFinalNewline } from '../primitives/canonical.js';
import { readCheckpointNote } from '../checkpoints/checkpoint-note.js';
import { exactly, isRec } from '../primitives/shape.js';
import { decodeBase64Strict, encodeBase64, isValidKeyName } from '../notes/signed-note.js';

export const WITNESS_STATE_FORMAT = 'docket.witness-state/1';

export interface WitnessedLog {
  readonly origin: string;
  readonly treeSize: number;
  readonly rootHash: Uint8Array;
  readonly note: string;
}

/** Origin → the last cosigned checkpoint. An absent origin is tree size 0. */
export type WitnessState = ReadonlyMap<string, WitnessedLog>;

export interface WitnessStateError {
  readonly code: 'witness-state-invalid';
  readonly detail: string;
}

export const emptyWitnessState = (): WitnessState => new Map();

/** The one serializer (validates each record before emitting). */
export function serializeWitnessState(state: WitnessState): string {
  const logs = [...state.values()]
    .sort((a, b) => (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0))
    .map((l) => {
      const v = logViolation(l.origin, l.treeSize, l.rootHash, l.note);
      if (v !== null) throw new RangeError(`witness state: ${v}`);
      return { note: l.note, origin: l.origin, rootHash: encodeBase64(l.rootHash), treeSize: l.treeSize };
    });
  return `${canonicalText({ format: WITNESS_STATE_FORMAT, logs })}\n`;
}

/** The strict reader. */
export function readWitnessState(bytes: Uint8Array): Result<WitnessState, WitnessStateError> {
  const read = readCanonicalRecord(withoutFinalNewline(bytes));
  if (!read.ok) return bad(read.error);
  const o = read.value;
  if (!isRec(o) || !exactly(o, ['format', 'logs'])) return bad('a witness state has exactly format and logs');
  if (o.format !== WITNESS_STATE_FORMAT) return bad(`format is ${WITNESS_STATE_FORMAT}`);
  if (!Array.isArray(o.logs)) return bad('logs is an array');
  const state = new Map<string, WitnessedLog>();
  for (const [i, r] of (o.logs as unknown[]).entries()) {
    if (!isRec(r) || !exactly(r, ['note', 'origin', 'rootHash', 'treeSize']))
      return bad(`logs[${i}] has exactly note, origin, rootHash, treeSize`);
    const root = typeof r.rootHash === 'string' ? decodeBase64Strict(r.rootHash) : null;
    if (typeof r.origin !== 'string' || typeof r.note !== 'string' || typeof r.treeSize !== 'number' || root === null)
      return bad(`logs[${i}] has string origin, note, rootHash and an integer treeSize`);
    const v = logViolation(r.origin, r.treeSize, root, r.note);
    if (v !== null) return bad(`logs[${i}]: ${v}`);
    if (state.has(r.origin)) return bad(`logs[${i}]: origin listed twice`);
    state.set(r.origin, { origin: r.origin, treeSize: r.treeSize, rootHash: root, note: r.note });
  }
  return ok(state);
}

function logViolation(origin: string, treeSize: number, rootHash: Uint8Array, note: string): string | null {
  if (!isValidKeyName(origin)) return 'origin is a key name';
  if (!Number.isSafeInteger(treeSize) || treeSize < 0) return 'treeSize is a non-negative integer';
  if (rootHash.length !== 32) return 'rootHash is base64 of 32 bytes';
  const n = readCheckpointNote(note);
  if (!n.ok) return `note: ${n.error.detail}`;
  if (n.value.body.origin !== origin || n.value.body.treeSize !== treeSize)
    return 'the note states this origin and size';
  if (encodeBase64(n.value.body.rootHash) !== encodeBase64(rootHash)) return 'the note states this root hash';
  return null;
}

const bad = (detail: string) => err<WitnessStateError>({ code: 'witness-state-invalid', detail });
