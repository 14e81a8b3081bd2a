/**
 * core/ledger/trust-policy: what an auditor pins before verifying: the trust policy's strict reader and its key
 * lookups.
 */
export {
  TRUST_POLICY_FORMAT,
  TRUST_POLICY_FORMAT_V3,
  TRUST_POLICY_FORMAT_V5,
  readTrustPolicy,
  type DraftFeatureAllowance,
  keyForEntry,
  keyForCheckpoint,
  isAllowedAuthority,
  type TrustPolicy,
  type TrustedKey,
  type KeyValidity,
  type TrustPolicyError,
} from './trust-policy.js';
export { rememberedPermits } from './draft-feature-history.js';
