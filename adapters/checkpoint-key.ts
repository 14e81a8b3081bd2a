/**
 * The checkpoint writer's key and the trust policy it verifies entries under (docs/adr/0120-separate-entry-and-checkpoint-keys.md).
 * In the cloud the key is a non-exportable KMS key (CHECKPOINT_KMS_KEY_ID; only the checkpoint role may Sign) and
 * the policy is the SSM parameter the stack publishes (TRUST_POLICY_PARAMETER); on the local stack both are files
 * under .docket/local/ (DOCKET_CHECKPOINT_KEY_FILE, DOCKET_TRUST_POLICY_FILE). The entry key
 * (DOCKET_SIGNING_KEY_FILE / SIGNING_SECRET_ARN) is never a fallback: a checkpoint writer without its own key stops.
 */
import { readFile } from 'node:fs/promises';
import { KMSClient } from '@aws-sdk/client-kms';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { readTrustPolicy, type CheckpointSigner, type TrustPolicy } from '../core/ledger/index.js';
import { kmsCheckpointSigner } from './kms-checkpoint-signer.js';
import { signerFromKeyFile, SigningKeyError } from './signing-key.js';

export async function loadCheckpointSigner(
  env: NodeJS.ProcessEnv,
  kms: () => KMSClient = () => new KMSClient({}),
): Promise<CheckpointSigner> {
  const file = env.DOCKET_CHECKPOINT_KEY_FILE;
  if (file) return signerFromKeyFile(file, 'checkpoint');
  const kmsKeyId = env.CHECKPOINT_KMS_KEY_ID;
  if (!kmsKeyId) throw new SigningKeyError('neither DOCKET_CHECKPOINT_KEY_FILE nor CHECKPOINT_KMS_KEY_ID is set');
  return kmsCheckpointSigner(kms(), kmsKeyId);
}

export class TrustPolicyUnavailableError extends Error {
  readonly code = 'trust-policy-unavailable';
}

/** The trust policy verifiers pin, from a file (local) or the stack's SSM parameter (cloud). */
export async function loadTrustPolicy(
  env: NodeJS.ProcessEnv,
  ssm: () => SSMClient = () => new SSMClient({}),
): Promise<TrustPolicy> {
  let bytes: Uint8Array;
  let source: string;
  if (env.DOCKET_TRUST_POLICY_FILE) {
    source = env.DOCKET_TRUST_POLICY_FILE;
    try {
      bytes = new Uint8Array(await readFile(source));
    } catch (e) {
      throw new TrustPolicyUnavailableError(
        `cannot read the trust policy ${source}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
  } else if (env.TRUST_POLICY_PARAMETER) {
    source = `parameter ${env.TRUST_POLICY_PARAMETER}`;
    const out = await ssm().send(new GetParameterCommand({ Name: env.TRUST_POLICY_PARAMETER }));
    const value = out.Parameter?.Value;
    if (typeof value !== 'string') throw new TrustPolicyUnavailableError(`${source} holds no value`);
    bytes = new TextEncoder().encode(value);
  } else throw new TrustPolicyUnavailableError('neither DOCKET_TRUST_POLICY_FILE nor TRUST_POLICY_PARAMETER is set');
  const policy = readTrustPolicy(bytes);
  if (!policy.ok) throw new TrustPolicyUnavailableError(`${source}: ${policy.error.detail}`);
  return policy.value;
}
