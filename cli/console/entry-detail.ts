/**
 * The entry page's data (docs/console.md "Entry"): the parsed entry, its signature status under the trust policy,
 * and its inclusion proof against the log's newest checkpoint, laid out step by step as RFC 9162 §2.1.3.2 walks it
 * so the page can draw the Merkle path (each step: the sibling hash, the side it sits on, the hash it yields).
 */
import {
  fromHex,
  inclusionProof,
  keyForEntry,
  nodeHash,
  parseStoredEntry,
  toHex,
  verifyInclusion,
  verifyParsedEntrySignature,
  type LedgerStore,
  type StoredCheckpoint,
  type TrustPolicy,
} from '../../core/ledger/index.js';
import type { LedgerIndex } from './ledger-index.js';
import { newestCheckpoint } from './overview.js';
import type { SignatureStatus, ProofStep, EntryDetail } from '../../core/console-api/index.js';

/** The steps of §2.1.3.2 for a proof, with each side and intermediate hash (the same loop verifyInclusion runs). */
export function proofSteps(leafIndex: number, treeSize: number, leaf: Uint8Array, proof: readonly Uint8Array[]) {
  const steps: ProofStep[] = [];
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) break;
    let side: 'left' | 'right';
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      side = 'left';
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else {
      r = nodeHash(r, p);
      side = 'right';
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
    steps.push({ sibling: toHex(p), side, result: toHex(r) });
  }
  return steps;
}

function signatureOf(parsed: ReturnType<typeof parseStoredEntry>, policy: TrustPolicy | null): SignatureStatus | null {
  if (!parsed.ok) return null;
  if (policy === null) return 'no-policy';
  const e = parsed.value.entry;
  const key = keyForEntry(policy, e.keyId, e.logId, e.seq);
  if (!key.ok) return key.code;
  return verifyParsedEntrySignature(parsed.value, key.key.publicKey) ? 'ok' : 'signature-mismatch';
}

export async function entryDetail(
  index: LedgerIndex,
  store: LedgerStore,
  policy: TrustPolicy | null,
  requestId: string,
): Promise<EntryDetail | null> {
  const at = index.positionOf(requestId);
  if (at === undefined) return null;
  let body: string | null = null;
  let projectionHash = '';
  for await (const s of store.readEntries(at.logId, at.seq, at.seq)) {
    body = s.body;
    projectionHash = s.projection.entryHash;
  }
  if (body === null) return null;
  const parsed = parseStoredEntry(body);
  const log = index.log(at.logId);
  const checkpoints: StoredCheckpoint[] = [];
  for await (const c of store.readCheckpoints(at.logId)) checkpoints.push(c);
  const newest = newestCheckpoint(checkpoints, policy);
  let inclusion: EntryDetail['inclusion'] = null;
  const leafIndex = log ? log.entries.findIndex((e) => e.seq === at.seq) : -1;
  if (newest !== null && log !== undefined && leafIndex >= 0) {
    if (leafIndex >= newest.treeSize || newest.treeSize > log.leaves.length || newest.rootHash === null)
      inclusion = { covered: false, checkpoint: newest };
    else {
      const leaves = log.leaves.slice(0, newest.treeSize);
      const leaf = leaves[leafIndex] as Uint8Array;
      const proof = inclusionProof(leafIndex, leaves);
      inclusion = {
        checkpoint: newest,
        leafIndex,
        leafHash: toHex(leaf),
        steps: proofSteps(leafIndex, newest.treeSize, leaf, proof),
        verified: verifyInclusion(leafIndex, newest.treeSize, leaf, proof, fromHex(newest.rootHash)),
      };
    }
  }
  const duplicates = index
    .all()
    .filter((e) => e.requestId === requestId && !(e.logId === at.logId && e.seq === at.seq))
    .map((e) => ({ logId: e.logId, seq: e.seq }));
  return {
    logId: at.logId,
    seq: at.seq,
    entryHash: parsed.ok ? parsed.value.entryHash : projectionHash,
    body,
    entry: parsed.ok ? parsed.value.entry : null,
    unreadable: parsed.ok ? null : parsed.error,
    signature: signatureOf(parsed, policy),
    inclusion,
    duplicates,
  };
}
