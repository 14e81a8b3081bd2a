/**
 * Judging presented checkpoints under the trust policy (docs/verify.md): only a checkpoint that reads strictly, names
 * a pinned checkpoint key valid for its log at seq treeSize−1, carries a valid checkpoint-domain signature and comes
 * from an allowed authority (environment + table) is an anchor. Everything else is a finding, never an anchor.
 * An anchor also vouches for the signatures of the entries it covers only when its writer verified them before
 * signing (format /2) and its key is valid for the whole covered range (docs/adr/0121-checkpoints-verify-before-signing.md).
 */
import {
  CHECKPOINT_FORMAT,
  parseCheckpoint,
  verifyCheckpointSignature,
  type SignedCheckpoint,
} from '../checkpoints/checkpoint.js';
import type { StoredCheckpoint } from '../store/store.js';
import { isAllowedAuthority, keyForCheckpoint, type TrustPolicy } from '../trust-policy/trust-policy.js';
import type { CheckpointStatus } from './findings.js';

export interface CheckpointCheck {
  readonly status: CheckpointStatus;
  readonly checkpoint: SignedCheckpoint | null;
  /** An ok checkpoint whose word stands in for the signatures of the entries it covers (not of its own key's). */
  readonly vouches: boolean;
}

export function checkCheckpoint(stored: StoredCheckpoint, policy: TrustPolicy): CheckpointCheck {
  const fail = (status: CheckpointStatus, checkpoint: SignedCheckpoint | null = null): CheckpointCheck => ({
    status,
    checkpoint,
    vouches: false,
  });
  const parsed = parseCheckpoint(stored.body);
  if (!parsed.ok)
    return fail(
      parsed.error.code === 'unsupported-version' ? 'checkpoint-unsupported-version' : 'checkpoint-malformed',
    );
  const cp = parsed.value;
  // The record's (logId, treeSize) is where the checkpoint was filed; a body that says otherwise is not readable as filed.
  if (cp.logId !== stored.logId || cp.treeSize !== stored.treeSize) return fail('checkpoint-malformed');
  const key = keyForCheckpoint(policy, cp.keyId, cp.logId, cp.treeSize);
  if (!key.ok)
    return fail(key.code === 'unknown-key' ? 'checkpoint-unknown-key' : 'checkpoint-key-not-valid-at-seq', cp);
  if (!verifyCheckpointSignature(cp, key.key.publicKey)) return fail('checkpoint-signature-mismatch', cp);
  if (!isAllowedAuthority(policy, cp.origin)) return fail('checkpoint-unauthorized-origin', cp);
  return { status: 'ok', checkpoint: cp, vouches: cp.format === CHECKPOINT_FORMAT && key.coversTree };
}
