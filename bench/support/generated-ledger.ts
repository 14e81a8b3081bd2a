/**
 * The verification benches' generated ledger, deterministic (the corpus's fixed test keys and times): four logs
 * signed by the entry key K1, each checkpointed `uncovered` entries before its end by the checkpoint key KC in
 * format /2, and the trust policy that pins both keys from seq 0.
 */
import {
  buildLog,
  checkpointsText,
  checkpointV2Of,
  exportText,
  K1,
  KC,
  policyText,
} from '../../conformance/ledger/fixtures.js';

const LOGS = 4;

export function generatedLedger(total: number, uncovered: number) {
  const perLog = Math.floor(total / LOGS);
  const logIds = Array.from({ length: LOGS }, (_, i) => `log-${i}`);
  const logs = logIds.map((id) => buildLog(id, perLog));
  return {
    logIds,
    perLog,
    logs,
    records: logs.flat(),
    exportText: exportText(logs.flat()),
    checkpointsText: checkpointsText(logs.map((l, i) => checkpointV2Of(l, logIds[i]!, perLog - uncovered, KC))),
    policyText: policyFromSeq0(logIds),
  };
}

/** The benches' trust policy: K1 signs the entries and KC the checkpoints of every log in `logIds`, from seq 0. */
export function policyFromSeq0(logIds: readonly string[]): string {
  const from0 = logIds.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
  return policyText(logIds, [
    { keys: K1, role: 'entries', validity: from0 },
    { keys: KC, role: 'checkpoints', validity: from0 },
  ]);
}
