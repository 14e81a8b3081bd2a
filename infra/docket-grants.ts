/**
 * DocketPipeline's grants attach the pipeline's own reviewed managed policies (requester, route consumer, auditor)
 * instead of writing new statements into the grantee's policy: one least-privilege document per need, the same one
 * the stack's outputs name, already checked by cdk-nag (docs/adr/0446-pipeline-grants-attach-managed-policies.md).
 */
import type * as iam from 'aws-cdk-lib/aws-iam';
import { DocketPipelineError } from './docket-pipeline-error.js';

const attached = new WeakMap<iam.IManagedPolicy, Set<unknown>>();

/** Attach `policy` to the role, user or group `grantee` acts as (once), and return it. */
export function attachManagedPolicy(
  policy: iam.ManagedPolicy,
  grantee: iam.IGrantable,
  grant: string,
): iam.IManagedPolicy {
  const principal = grantee.grantPrincipal as Partial<iam.IRole & iam.IUser & iam.IGroup>;
  const seen = attached.get(policy) ?? new Set<unknown>();
  attached.set(policy, seen);
  if (seen.has(principal)) return policy;
  if (principal.roleArn !== undefined && principal.roleName !== undefined) policy.attachToRole(principal as iam.IRole);
  else if (principal.userArn !== undefined && principal.userName !== undefined)
    policy.attachToUser(principal as iam.IUser);
  else if (principal.groupArn !== undefined && principal.groupName !== undefined)
    policy.attachToGroup(principal as iam.IGroup);
  else
    throw new DocketPipelineError(
      'grantee-not-attachable',
      `${grant}: the grantee acts as ${String(principal)}, which is not an IAM role, user or group; Docket's grants ` +
        'attach a managed policy, so pass a role (a Lambda function or a task role passes its own)',
    );
  seen.add(principal);
  return policy;
}
