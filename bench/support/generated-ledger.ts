/**
 * The verification benches' generated ledger, deterministic (the corpus's fixed test keys and times): four logs
 * signed by the entry key K1, each checkpointed `uncovered` entries before its end by the checkpoint key KC in
 * format /2, and the trust policy that pins both keys from seq 0.
 */
import {
  BUILD,
  buildLog,
  checkpointsText,
  checkpointV2Of,
  exportText,
  K1,
  KC,
  PROD,
} from '../../conformance/ledger/fixtures.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { fromHex, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { readTrustPolicy, type TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { trustPolicyDocument } from '../../stack/local-files.js';

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

/**
 * The benches' trust policy: K1 signs the entries and KC the checkpoints of every log in `logIds`, from seq 0; format
 * /3 when `draftFeatures` are allowed.
 */
export const policyFromSeq0 = (logIds: readonly string[], draftFeatures: readonly string[] = []): string =>
  trustPolicyDocument({
    keys: K1,
    checkpointKey: KC,
    logIds,
    environment: PROD.environment,
    table: PROD.table,
    evaluatorBuilds: [BUILD],
    draftFeatures,
  });

/** `text` read as a trust policy; a bench's own policy that does not read stops the bench. */
export function readPolicy(text: string): TrustPolicy {
  const r = readTrustPolicy(utf8Bytes(text));
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
}

/** An entry body's signing message and signature, for a bare Ed25519 baseline; a bench entry that does not read stops it. */
export function signedParts(body: string): { message: Uint8Array; signature: Uint8Array } {
  const p = parseStoredEntry(body);
  if (!p.ok) throw new Error(p.error.detail);
  return { message: p.value.signingMessage, signature: fromHex(p.value.entry.signature) };
}
