/**
 * The checkpoint writer (docs/adr/0121-checkpoints-verify-before-signing.md): a checkpoint never covers what
 * `docket verify` would refuse. Before signing a log's checkpoint it reads every entry the checkpoint newly covers
 * with verify's own entry check (core/ledger/verify/entry-status.ts: strict bytes, the trust policy's entry key for
 * that log and seq, the Ed25519 signature, placement, projection, digest, build) and checks the stored sequence and
 * each chain link. Entries below the largest earlier checkpoint that vouches for them (a format /2 checkpoint of
 * this writer's origin, valid under the policy) are only hashed: its root must still match, else the log was
 * rewritten and the writer refuses. Any finding → nothing is signed for that log, and the findings say why.
 * Used by the scheduled checkpoint function and `docket checkpoint` alike (functions/lib/checkpoint-runner.ts).
 */
import { toHex } from '../primitives/bytes.js';
import {
  CHECKPOINT_FORMAT,
  signCheckpoint,
  type CheckpointOrigin,
  type CheckpointSigner,
} from '../checkpoints/checkpoint.js';
import { entryLeafHash } from '../entries/entry.js';
import { MerkleFrontier } from '../checkpoints/merkle.js';
import type { LedgerStore, StoredCheckpoint } from '../store/store.js';
import { isAllowedAuthority, keyForCheckpoint, type TrustPolicy } from '../trust-policy/trust-policy.js';
import { checkCheckpoint } from '../verify/checkpoint-status.js';
import { checkEntry } from '../verify/entry-status.js';
import { compareFindings, type Finding } from '../verify/findings.js';

export interface CheckpointWriteOptions {
  readonly signer: CheckpointSigner;
  /** The policy verifiers pin: entries are judged under it, and the signer must be its checkpoint key. */
  readonly policy: TrustPolicy;
  readonly origin: CheckpointOrigin;
  readonly time: string;
}

export type CheckpointWrite =
  | {
      /** `written`: this run signed and stored it; `existing`: that tree size was already checkpointed. */
      readonly status: 'written' | 'existing';
      readonly stored: StoredCheckpoint;
      readonly treeSize: number;
      /** Entries whose signatures this run checked (those no earlier vouching checkpoint covered). */
      readonly entriesVerified: number;
    }
  | {
      readonly status: 'refused';
      readonly treeSize: number;
      /** Why nothing was signed, as verify's findings (sorted as verify sorts them). */
      readonly findings: readonly Finding[];
    };

const sameOrigin = (a: CheckpointOrigin, b: CheckpointOrigin): boolean =>
  a.environment === b.environment && a.table === b.table;

/** Earlier checkpoints of this log that vouch for their entries: this origin's, valid and /2 under the policy. */
async function vouchingCheckpoints(
  store: LedgerStore,
  logId: string,
  o: CheckpointWriteOptions,
): Promise<Map<number, { rootHash: string; chainHead: string | null }>> {
  const out = new Map<number, { rootHash: string; chainHead: string | null }>();
  for await (const stored of store.readCheckpoints(logId)) {
    const c = checkCheckpoint(stored, o.policy);
    if (c.status !== 'ok' || !c.vouches || c.checkpoint === null || !sameOrigin(c.checkpoint.origin, o.origin))
      continue;
    out.set(c.checkpoint.treeSize, { rootHash: c.checkpoint.rootHash, chainHead: c.checkpoint.chainHead });
  }
  return out;
}

/**
 * Verifies what a new checkpoint of the log would newly cover and, when nothing is wrong, signs and stores it.
 * Store reads that fail throw (StoreReadError): the caller reports them; nothing is signed.
 */
export async function checkpointLog(
  store: LedgerStore,
  logId: string,
  o: CheckpointWriteOptions,
): Promise<CheckpointWrite> {
  const earlier = await vouchingCheckpoints(store, logId, o);
  const trustedPrefix = Math.max(0, ...earlier.keys());
  const findings: Finding[] = [];
  const frontier = new MerkleFrontier();
  let prevHash: string | null = null;
  let verified = 0;
  for await (const stored of store.readEntries(logId, 0)) {
    const index = frontier.size;
    if (stored.seq !== index) {
      findings.push({ code: 'sequence-broken', logId, seq: stored.seq, expectedSeq: index });
      break; // every later position is shifted: one finding names the gap
    }
    let leaf: Uint8Array;
    let hash: string;
    if (index < trustedPrefix) {
      leaf = entryLeafHash(stored.body);
      hash = toHex(leaf);
    } else {
      const c = checkEntry(stored, o.policy, true);
      verified += 1;
      leaf = c.entryHash;
      hash = c.entryHashHex;
      if (c.status !== 'ok') findings.push({ code: c.status, logId, seq: stored.seq });
      else if (c.entry?.prevHash !== prevHash) findings.push({ code: 'chain-broken', logId, seq: stored.seq });
    }
    frontier.append(leaf);
    prevHash = hash;
    const claim = earlier.get(frontier.size);
    if (claim !== undefined && claim.rootHash !== toHex(frontier.root()))
      findings.push({ code: 'root-mismatch', logId, treeSize: frontier.size });
    else if (claim !== undefined && claim.chainHead !== hash)
      findings.push({ code: 'head-mismatch', logId, treeSize: frontier.size });
  }
  const treeSize = frontier.size;
  if (trustedPrefix > treeSize)
    findings.push({ code: 'tail-rollback', logId, treeSize: trustedPrefix, entries: treeSize });
  // The signer must be a key verifiers accept for this checkpoint and that vouches for the whole tree.
  const key = keyForCheckpoint(o.policy, o.signer.keyId, logId, treeSize);
  if (!key.ok || !key.coversTree)
    findings.push({
      code:
        key.ok || key.code === 'key-not-valid-at-seq' ? 'checkpoint-key-not-valid-at-seq' : 'checkpoint-unknown-key',
      logId,
      treeSize,
    });
  if (!isAllowedAuthority(o.policy, o.origin))
    findings.push({ code: 'checkpoint-unauthorized-origin', logId, treeSize });
  if (findings.length > 0) return { status: 'refused', treeSize, findings: findings.sort(compareFindings) };

  const { body } = await signCheckpoint(
    {
      format: CHECKPOINT_FORMAT,
      logId,
      treeSize,
      rootHash: toHex(frontier.root()),
      chainHead: prevHash,
      keyId: o.signer.keyId,
      origin: o.origin,
      time: o.time,
      entriesVerified: true,
    },
    o.signer,
  );
  const mine: StoredCheckpoint = { logId, treeSize, body };
  if (await store.putCheckpointIfAbsent(mine))
    return { status: 'written', stored: mine, treeSize, entriesVerified: verified };
  // A checkpoint of this size already exists (no new entries since, or a concurrent run): return that one.
  for await (const c of store.readCheckpoints(logId))
    if (c.treeSize === treeSize) return { status: 'existing', stored: c, treeSize, entriesVerified: verified };
  throw new RangeError(`checkpoint ${logId}@${treeSize} refused yet absent`);
}
