/**
 * Verification of an exported ledger from file bytes: the ledger export, the trust policy, the checkpoint export and
 * optional position markers. Any unreadable input gives no verdict (exit 2), never a verdict over less than was
 * exported: a truncated export (its last line cut short) is refused by the export reader.
 */
import { err, type Result } from '../../result.js';
import { readCheckpointExport } from '../export/export.js';
import { readLedgerExportFast } from './fast-read.js';
import { readTrustPolicy, type TrustPolicy } from '../trust-policy/trust-policy.js';
import type { NoVerdict, Verdict } from './findings.js';
import { readMarkers } from './markers.js';
import { exportSource, type Pace } from './sources.js';
import { verifyLedger, type VerifyOptions } from './verify-ledger.js';

export function readPolicyBytes(bytes: Uint8Array): Result<TrustPolicy, NoVerdict> {
  const p = readTrustPolicy(bytes);
  return p.ok ? p : err({ code: 'policy-unreadable', detail: p.error.detail });
}

export interface VerifyFiles {
  readonly ledger: Uint8Array;
  readonly policy: Uint8Array;
  readonly checkpoints: Uint8Array;
  readonly markers?: Uint8Array;
}

export async function verifyExportFiles(
  files: VerifyFiles,
  options: Omit<VerifyOptions, 'positions'> & { readonly pace?: Pace } = {},
): Promise<Result<Verdict, NoVerdict>> {
  const { pace, ...verifyOptions } = options;
  const policy = readPolicyBytes(files.policy);
  if (!policy.ok) return policy;
  const cps = readCheckpointExport(files.checkpoints);
  if (!cps.ok) return err({ code: 'checkpoints-unreadable', detail: cps.error.detail });
  const exp = readLedgerExportFast(files.ledger);
  if (!exp.ok) return err({ code: 'export-unreadable', detail: `line ${exp.error.line}: ${exp.error.detail}` });
  let positions;
  if (files.markers !== undefined) {
    const m = readMarkers(files.markers);
    if (!m.ok) return err({ code: 'markers-unreadable', detail: m.error });
    positions = m.value;
  }
  return verifyLedger(exportSource(exp.value, pace), policy.value, cps.value, {
    ...verifyOptions,
    ...(positions === undefined ? {} : { positions }),
  });
}
