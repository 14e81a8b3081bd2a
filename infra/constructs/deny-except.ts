/**
 * The one shape of every "nobody may" and "only this role may" rule in a resource policy: deny `actions` on
 * `resource` to every principal (whose ARN is not `allowed`). In the resource's own policy, so no identity policy
 * granted later (an admin's `sqs:*`) can widen it.
 */
import * as iam from 'aws-cdk-lib/aws-iam';

/** Deny `actions` on `resource` to every principal the `conditions` match (to everyone without them). */
export function denyToEveryone(
  sid: string,
  actions: string[],
  resource: string,
  conditions?: Record<string, unknown>,
): iam.PolicyStatement {
  return new iam.PolicyStatement({
    sid,
    effect: iam.Effect.DENY,
    principals: [new iam.AnyPrincipal()],
    actions,
    resources: [resource],
    conditions,
  });
}

export function denyExcept(
  sid: string,
  actions: string[],
  resource: string,
  allowed: string | string[],
): iam.PolicyStatement {
  return denyToEveryone(sid, actions, resource, { ArnNotEquals: { 'aws:PrincipalArn': allowed } });
}
