/**
 * Ledger files holding graph-run entries, as `docket console --export` reads them: RFC 0022's worked example run
 * (`graph-run-1`) and the same run with a leaf id, pack name, pointer and handoff target replaced by markup
 * (`graph-run-hostile`), both honestly signed and chained on log-g and covered by a checkpoint.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkpointsText,
  checkpointV2Of,
  exportText,
  K1,
  KC,
  policyText,
  recordOf,
  signRaw,
  type Rec,
} from '../../conformance/ledger/fixtures.js';
import { entryHashOf } from '../../core/ledger/index.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { buildGraphRequest } from '../../core/pipeline/index.js';
import { graphRunEntry, INPUTS } from '../ledger/graph-run-fixtures.js';
import { HOSTILE_TARGET, hostileRun } from '../graph-view/fixtures.js';
import type { LedgerFiles } from './ledger-files.js';

export const GRAPH_LOG = 'log-g';

/** The request `graph-run-1` records (its digest is the entry's requestDigest): the example's inputs, by digest. */
export const GRAPH_REQUEST = (() => {
  const built = buildGraphRequest({ requestId: 'graph-run-1', graph: `sha256:${'0'.repeat(64)}`, inputs: INPUTS });
  if (!built.ok) throw new Error(built.error);
  return new TextEncoder().encode(built.value);
})();

export function writeGraphLedgerFiles(): LedgerFiles {
  const dir = mkdtempSync(join(tmpdir(), 'docket-console-graph-'));
  const hostile = hostileRun() as ReturnType<typeof hostileRun> & { work: { budget: number; used: number } };
  const bodies: Record<string, unknown>[] = [
    { requestId: 'graph-run-1', requestDigest: sha256Hex(GRAPH_REQUEST) },
    // The hostile run keeps the saved run's budget and work, which the entry must record as its own.
    {
      requestId: 'graph-run-hostile',
      run: JSON.stringify(hostile),
      workBudget: hostile.work.budget,
      work: hostile.work.used,
      // The strict reader wants every leaf's pack in the closed set: the hostile pack name too.
      packs: {
        ...(graphRunEntry() as unknown as { packs: Record<string, string> }).packs,
        [HOSTILE_TARGET]: 'ab'.repeat(32),
      },
    },
  ];
  const recs: Rec[] = [];
  let prev: string | null = null;
  bodies.forEach((over, seq) => {
    const unsigned = graphRunEntry({ logId: GRAPH_LOG, seq, prevHash: prev, keyId: K1.keyId, ...over });
    const body = signRaw(unsigned as unknown as Record<string, unknown>, K1);
    recs.push(recordOf(body, GRAPH_LOG, seq));
    prev = entryHashOf(body);
  });
  const files = {
    dir,
    exportPath: join(dir, 'ledger.jsonl'),
    checkpointsPath: join(dir, 'checkpoints.json'),
    policyPath: join(dir, 'trust-policy.json'),
  };
  const from0 = [{ logId: GRAPH_LOG, fromSeq: 0, toSeq: null }];
  writeFileSync(files.exportPath, exportText(recs));
  writeFileSync(files.checkpointsPath, checkpointsText([checkpointV2Of(recs, GRAPH_LOG, recs.length, KC)]));
  writeFileSync(
    files.policyPath,
    policyText(
      [GRAPH_LOG],
      [
        { keys: K1, role: 'entries', validity: from0 },
        { keys: KC, role: 'checkpoints', validity: from0 },
      ],
    ),
  );
  return files;
}
