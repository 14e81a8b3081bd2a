/**
 * What cosigned checkpoint notes prove to `verify --witnesses` (docs/verify.md "Witnesses"): per log, the
 * checkpoints the log signed (its note signature verifies under the trust policy's checkpoint key, from an allowed
 * authority) and, among them, those at least `quorum` distinct policy witnesses cosigned. The same checkpoint may
 * arrive from several sources (the table, an export, witness state files): cosignatures are pooled, each witness
 * counted once with its newest valid cosignature.
 */
import { toHex } from '../primitives/bytes.js';
import { parseCheckpointOrigin, readCheckpointNote, verifyLogSignature } from '../checkpoints/checkpoint-note.js';
import { cosignatureTime } from './cosignature.js';
import { isAllowedAuthority, type TrustPolicy } from '../trust-policy/trust-policy.js';
import type { WitnessPolicy } from './witness-policy.js';

export interface NoteCheckpoint {
  readonly treeSize: number;
  /** Lowercase hex, as Docket checkpoints carry it. */
  readonly rootHash: string;
  /** The quorum's time: the quorum-th newest cosignature time (seconds), or null when fewer witnesses cosigned. */
  readonly witnessedAt: number | null;
  /** The names of the policy witnesses whose cosignature on it verifies, sorted. */
  readonly cosigners: readonly string[];
}

/** A checkpoint a log states: a valid Docket checkpoint or a log-signed note. */
export interface CheckpointClaim {
  readonly treeSize: number;
  readonly rootHash: string;
}

/** What `verify --witnesses` judges of a log's newest checkpoint (docs/verify.md "Witnesses"). */
export interface NewestClaim {
  /** The largest tree size any claim states. */
  readonly treeSize: number;
  /** Every claim of that size (each root) is a checkpoint a quorum cosigned; false is `unwitnessed-anchor`. */
  readonly witnessed: boolean;
  /** When witnessed: the earliest quorum time among them (judged against maxAgeSeconds for `stale-anchor`). */
  readonly witnessedAt: number | null;
  /** The witnesses that cosigned a checkpoint of that size, sorted. */
  readonly cosigners: readonly string[];
}

/** The newest claim of a log and whether a quorum cosigned it; null when the log states no checkpoint at all. */
export function newestClaim(claims: readonly CheckpointClaim[], noted: readonly NoteCheckpoint[]): NewestClaim | null {
  if (claims.length === 0) return null;
  const treeSize = Math.max(...claims.map((c) => c.treeSize));
  const witnessed = noted.filter((n) => n.witnessedAt !== null);
  const newest = claims.filter((c) => c.treeSize === treeSize);
  const ok = newest.every((c) => witnessed.some((n) => n.treeSize === c.treeSize && n.rootHash === c.rootHash));
  const cosigners = [...new Set(noted.filter((n) => n.treeSize === treeSize).flatMap((n) => n.cosigners))].sort();
  if (!ok) return { treeSize, witnessed: false, witnessedAt: null, cosigners };
  const at = Math.min(...witnessed.filter((n) => n.treeSize === treeSize).map((n) => n.witnessedAt as number));
  return { treeSize, witnessed: true, witnessedAt: at, cosigners };
}

/** Log id → its log-signed checkpoints (one per size and root), ascending tree size. */
export type WitnessEvidence = ReadonlyMap<string, readonly NoteCheckpoint[]>;

export function judgeNotes(notes: readonly string[], trust: TrustPolicy, witnesses: WitnessPolicy): WitnessEvidence {
  const pooled = new Map<string, { logId: string; treeSize: number; rootHash: string; times: Map<string, number> }>();
  for (const text of notes) {
    const cn = readCheckpointNote(text);
    if (!cn.ok) continue;
    const o = parseCheckpointOrigin(cn.value.body.origin);
    if (o === null || !isAllowedAuthority(trust, o) || verifyLogSignature(cn.value, trust) === null) continue;
    const rootHash = toHex(cn.value.body.rootHash);
    const key = `${o.logId}\u0000${cn.value.body.treeSize}\u0000${rootHash}`;
    let p = pooled.get(key);
    if (p === undefined)
      pooled.set(key, (p = { logId: o.logId, treeSize: cn.value.body.treeSize, rootHash, times: new Map() }));
    for (const w of witnesses.witnesses) {
      const t = cosignatureTime(cn.value.note.text, cn.value.note.signatures, w);
      if (t !== null && t > (p.times.get(w.name) ?? -1)) p.times.set(w.name, t);
    }
  }
  const out = new Map<string, NoteCheckpoint[]>();
  for (const p of pooled.values()) {
    const times = [...p.times.values()].sort((a, b) => b - a);
    const witnessedAt = times.length >= witnesses.quorum ? (times[witnesses.quorum - 1] as number) : null;
    let list = out.get(p.logId);
    if (list === undefined) out.set(p.logId, (list = []));
    list.push({ treeSize: p.treeSize, rootHash: p.rootHash, witnessedAt, cosigners: [...p.times.keys()].sort() });
  }
  for (const list of out.values()) list.sort((a, b) => a.treeSize - b.treeSize || (a.rootHash < b.rootHash ? -1 : 1));
  return out;
}
