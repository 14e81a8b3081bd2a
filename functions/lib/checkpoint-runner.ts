/**
 * One checkpoint run: for every log, the verifying checkpoint writer (core/ledger/write/checkpoint-writer.ts) signs a
 * checkpoint of its current state — or refuses, with findings, when an entry it would newly cover is one `docket
 * verify` would refuse — and publishes its C2SP checkpoint note when the signer knows its public key and the store
 * keeps notes (core/ledger/checkpoints/publish-note.ts); then the checkpoint export and the notes export (every stored checkpoint
 * and note of those logs) for storage outside the table. A refusal for one log does not stop the others.
 *
 * Given the archive cross-check's findings (docs/verify.md "Requests without an entry"), the run signs nothing while
 * any is open: an archived request without an entry has lost its place in some log (a deleted tail entry), and a
 * checkpoint over the shorter log would seal the omission for every later verifier and witness
 * (docs/adr/0457-no-checkpoint-over-an-open-omission.md). Every log is refused with those findings.
 */
import type { CheckpointOrigin, CheckpointSigner } from '../../core/ledger/index.js';
import { checkpointLog } from '../../core/ledger/index.js';
import { exportCheckpoints } from '../../core/ledger/index.js';
import type { NoteSigner } from '../../core/ledger/index.js';
import { exportNotes } from '../../core/ledger/index.js';
import { keepsNotes, publishCheckpointNote } from '../../core/ledger/index.js';
import type { LedgerStore } from '../../core/ledger/index.js';
import type { TrustPolicy } from '../../core/ledger/index.js';
import type { Finding, RequestWithoutEntryFinding } from '../../core/ledger/index.js';

export interface LogCheckpointResult {
  readonly logId: string;
  readonly treeSize: number;
  readonly status: 'written' | 'existing' | 'refused';
  /** Why nothing was signed (refused only). */
  readonly findings?: readonly (Finding | RequestWithoutEntryFinding)[];
}

export interface CheckpointRun {
  readonly checkpoints: readonly LogCheckpointResult[];
  /** The logs whose checkpoint was refused (the CLI exits 1; the function counts CheckpointRefusals). */
  readonly refused: readonly LogCheckpointResult[];
  /** docket.checkpoint-export/1 text. */
  readonly export: string;
  /** docket.checkpoint-notes/1 text (null when the store keeps no notes or the signer has no public key). */
  readonly notes: string | null;
}

export async function runCheckpoints(o: {
  store: LedgerStore;
  signer: CheckpointSigner;
  policy: TrustPolicy;
  logIds: readonly string[];
  origin: CheckpointOrigin;
  time: string;
  /** The archive cross-check's findings, read before this run (absent: no archive to cross-check). */
  omissions?: readonly RequestWithoutEntryFinding[];
}): Promise<CheckpointRun> {
  const checkpoints: LogCheckpointResult[] = [];
  const open = o.omissions ?? [];
  const publicKey = o.signer.publicKey;
  const noteSigner: NoteSigner | null =
    publicKey === undefined || !keepsNotes(o.store) ? null : { publicKey, sign: (m) => o.signer.sign(m) };
  for (const logId of o.logIds) {
    if (open.length > 0) {
      const head = await o.store.readHead(logId);
      checkpoints.push({ logId, treeSize: head === null ? 0 : head.seq + 1, status: 'refused', findings: open });
      continue;
    }
    const r = await checkpointLog(o.store, logId, {
      signer: o.signer,
      policy: o.policy,
      origin: o.origin,
      time: o.time,
    });
    if (r.status === 'refused') {
      checkpoints.push({ logId, treeSize: r.treeSize, status: r.status, findings: r.findings });
      continue;
    }
    // Only a checkpoint the verifying writer signed (or had signed) gets a note: a refused log publishes nothing.
    if (noteSigner !== null && keepsNotes(o.store)) await publishCheckpointNote(o.store, r.stored, noteSigner);
    checkpoints.push({ logId, treeSize: r.treeSize, status: r.status });
  }
  return {
    checkpoints,
    refused: checkpoints.filter((c) => c.status === 'refused'),
    export: await exportCheckpoints(o.store, o.logIds),
    notes: keepsNotes(o.store) ? await exportNotes(o.store, o.logIds) : null,
  };
}

/** One line naming a refusal's findings, e.g. `log-0: refused: signature-mismatch at seq 7`. */
export function describeRefusal(r: LogCheckpointResult): string {
  const what = (r.findings ?? []).map((f) => {
    const at =
      'requestId' in f
        ? ` of request ${f.requestId}`
        : 'seq' in f
          ? ` at seq ${f.seq}`
          : 'treeSize' in f
            ? ` at tree size ${f.treeSize}`
            : '';
    return `${f.code}${at}`;
  });
  return `${r.logId}: checkpoint refused (nothing signed): ${what.join(', ')}`;
}

export const rfc3339Now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
