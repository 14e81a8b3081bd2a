/**
 * Judging presented checkpoints under the trust policy (ADR 0056; docs/verify.md): only a checkpoint that reads
 * strictly, names a pinned key valid for its log at seq treeSize−1, carries a valid checkpoint-domain signature and
 * comes from an allowed authority (environment + table) is an anchor. Everything else is a finding, never an anchor.
 */
import { parseCheckpoint, verifyCheckpointSignature, type SignedCheckpoint } from '../checkpoint.js';
import type { StoredCheckpoint } from '../store.js';
import { isAllowedAuthority, keyForCheckpoint, type TrustPolicy } from '../trust-policy.js';
import type { CheckpointStatus } from './findings.js';

export interface CheckpointCheck {
  readonly status: CheckpointStatus;
  readonly checkpoint: SignedCheckpoint | null;
}

export function checkCheckpoint(stored: StoredCheckpoint, policy: TrustPolicy): CheckpointCheck {
  const parsed = parseCheckpoint(stored.body);
  if (!parsed.ok)
    return {
      status: parsed.error.code === 'unsupported-version' ? 'checkpoint-unsupported-version' : 'checkpoint-malformed',
      checkpoint: null,
    };
  const cp = parsed.value;
  // The record's (logId, treeSize) is where the checkpoint was filed; a body that says otherwise is not readable as filed.
  if (cp.logId !== stored.logId || cp.treeSize !== stored.treeSize)
    return { status: 'checkpoint-malformed', checkpoint: null };
  const key = keyForCheckpoint(policy, cp.keyId, cp.logId, cp.treeSize);
  if (!key.ok)
    return {
      status: key.code === 'unknown-key' ? 'checkpoint-unknown-key' : 'checkpoint-key-not-valid-at-seq',
      checkpoint: cp,
    };
  if (!verifyCheckpointSignature(cp, key.key.publicKey))
    return { status: 'checkpoint-signature-mismatch', checkpoint: cp };
  if (!isAllowedAuthority(policy, cp.origin)) return { status: 'checkpoint-unauthorized-origin', checkpoint: cp };
  return { status: 'ok', checkpoint: cp };
}
