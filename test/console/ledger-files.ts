/**
 * Ledger files for the console's tests, bench and screenshots: honest signed logs from the conformance fixtures
 * (fixed keys), a format /2 checkpoint per log and a trust policy, written as `docket console --export` reads them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildLog,
  checkpointsText,
  checkpointV2Of,
  exportText,
  K1,
  KC,
  policyText,
} from '../../conformance/ledger/fixtures.js';

export interface LedgerFiles {
  readonly dir: string;
  readonly exportPath: string;
  readonly checkpointsPath: string;
  readonly policyPath: string;
}

export function writeLedgerFiles(
  logIds: readonly string[],
  perLog: number,
  over: (logId: string, seq: number) => Record<string, unknown> = () => ({}),
): LedgerFiles {
  const dir = mkdtempSync(join(tmpdir(), 'docket-console-files-'));
  const logs = logIds.map((id) =>
    buildLog(
      id,
      perLog,
      () => K1,
      (seq) => over(id, seq),
    ),
  );
  const from0 = logIds.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
  const files = {
    dir,
    exportPath: join(dir, 'ledger.jsonl'),
    checkpointsPath: join(dir, 'checkpoints.json'),
    policyPath: join(dir, 'trust-policy.json'),
  };
  writeFileSync(files.exportPath, exportText(logs.flat()));
  writeFileSync(
    files.checkpointsPath,
    checkpointsText(logs.map((l, i) => checkpointV2Of(l, logIds[i] as string, perLog, KC))),
  );
  writeFileSync(
    files.policyPath,
    policyText(logIds, [
      { keys: K1, role: 'entries', validity: from0 },
      { keys: KC, role: 'checkpoints', validity: from0 },
    ]),
  );
  return files;
}
