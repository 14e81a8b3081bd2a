/**
 * The overview's witness section (docs/console.md "Witnesses"; ADR 0231): with `docket console --witnesses <policy>`,
 * each log's newest checkpoint judged against the witness policy by core's own rule (newestClaim over judgeNotes,
 * the code `verify --witnesses` runs), and the rollback / stale-anchor / unwitnessed-anchor findings of a verify run
 * with the same inputs, exactly as `docket verify --witnesses` reports them. Without a policy: no verdict implied.
 */
import {
  judgeNotes,
  newestClaim,
  type LedgerStore,
  type StoredCheckpoint,
  type TrustPolicy,
  type WitnessInputs,
} from '../../core/ledger/index.js';
import { checkpointView } from './overview.js';
import type { WitnessPolicySummary, WitnessLogView } from '../../core/console-api/index.js';

/** The findings `verify --witnesses` adds (docs/verify.md "Witnesses"). */
export const WITNESS_FINDING_CODES: ReadonlySet<string> = new Set(['rollback', 'stale-anchor', 'unwitnessed-anchor']);

export const witnessPolicySummary = (w: WitnessInputs | null): WitnessPolicySummary | null =>
  w === null
    ? null
    : {
        quorum: w.policy.quorum,
        witnesses: w.policy.witnesses.map((x) => x.name),
        maxAgeSeconds: w.policy.maxAgeSeconds,
      };

/**
 * Each log's newest checkpoint against the policy: the claims are the log's checkpoints that verify under the trust
 * policy plus its log-signed notes, as verify gathers them; `notes` are every cosigned note the verify run sees.
 */
export async function witnessLogs(
  store: LedgerStore,
  trust: TrustPolicy,
  w: WitnessInputs,
  logIds: readonly string[],
): Promise<WitnessLogView[]> {
  const evidence = judgeNotes(w.notes, trust, w.policy);
  const out: WitnessLogView[] = [];
  for (const logId of logIds) {
    const checkpoints: StoredCheckpoint[] = [];
    for await (const c of store.readCheckpoints(logId)) checkpoints.push(c);
    const anchors = checkpoints
      .map((c) => checkpointView(c, trust))
      .filter((v) => v.status === 'ok' && v.rootHash !== null)
      .map((v) => ({ treeSize: v.treeSize, rootHash: v.rootHash as string }));
    const noted = evidence.get(logId) ?? [];
    const newest = newestClaim([...anchors, ...noted], noted);
    const meetsPolicy =
      newest !== null && newest.witnessed && (newest.witnessedAt as number) >= w.now - w.policy.maxAgeSeconds;
    out.push({ logId, newest, meetsPolicy });
  }
  return out;
}
