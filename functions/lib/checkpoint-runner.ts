/**
 * One checkpoint run: for every log, the verifying checkpoint writer (core/ledger/checkpoint-writer.ts) signs a
 * checkpoint of its current state — or refuses, with findings, when an entry it would newly cover is one `docket
 * verify` would refuse — then the checkpoint export (every stored checkpoint of those logs) for storage outside the
 * table. A refusal for one log does not stop the others.
 */
import type { CheckpointOrigin, CheckpointSigner } from '../../core/ledger/checkpoint.js';
import { checkpointLog } from '../../core/ledger/checkpoint-writer.js';
import { exportCheckpoints } from '../../core/ledger/export.js';
import type { LedgerStore } from '../../core/ledger/store.js';
import type { TrustPolicy } from '../../core/ledger/trust-policy.js';
import type { Finding } from '../../core/ledger/verify/findings.js';

export interface LogCheckpointResult {
  readonly logId: string;
  readonly treeSize: number;
  readonly status: 'written' | 'existing' | 'refused';
  /** Why nothing was signed (refused only). */
  readonly findings?: readonly Finding[];
}

export interface CheckpointRun {
  readonly checkpoints: readonly LogCheckpointResult[];
  /** The logs whose checkpoint was refused (the CLI exits 1; the function counts CheckpointRefusals). */
  readonly refused: readonly LogCheckpointResult[];
  /** docket.checkpoint-export/1 text. */
  readonly export: string;
}

export async function runCheckpoints(o: {
  store: LedgerStore;
  signer: CheckpointSigner;
  policy: TrustPolicy;
  logIds: readonly string[];
  origin: CheckpointOrigin;
  time: string;
}): Promise<CheckpointRun> {
  const checkpoints: LogCheckpointResult[] = [];
  for (const logId of o.logIds) {
    const r = await checkpointLog(o.store, logId, {
      signer: o.signer,
      policy: o.policy,
      origin: o.origin,
      time: o.time,
    });
    checkpoints.push(
      r.status === 'refused'
        ? { logId, treeSize: r.treeSize, status: r.status, findings: r.findings }
        : { logId, treeSize: r.treeSize, status: r.status },
    );
  }
  return {
    checkpoints,
    refused: checkpoints.filter((c) => c.status === 'refused'),
    export: await exportCheckpoints(o.store, o.logIds),
  };
}

/** One line naming a refusal's findings, e.g. `log-0: refused: signature-mismatch at seq 7`. */
export function describeRefusal(r: LogCheckpointResult): string {
  const what = (r.findings ?? []).map((f) => {
    const at = 'seq' in f ? ` at seq ${f.seq}` : 'treeSize' in f ? ` at tree size ${f.treeSize}` : '';
    return `${f.code}${at}`;
  });
  return `${r.logId}: checkpoint refused (nothing signed): ${what.join(', ')}`;
}

export const rfc3339Now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
