/** KMS permissions limited to use through named AWS services (never direct use of the data key). */
import { Aws } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';

export type KeyUse = 'decrypt' | 'encrypt';

export function keyUseStatement(
  key: kms.IKey,
  services: readonly string[],
  uses: readonly KeyUse[],
): iam.PolicyStatement {
  const actions = new Set<string>(['kms:DescribeKey']);
  if (uses.includes('decrypt')) actions.add('kms:Decrypt');
  if (uses.includes('encrypt')) {
    actions.add('kms:Encrypt');
    actions.add('kms:GenerateDataKey');
    actions.add('kms:Decrypt');
  }
  return new iam.PolicyStatement({
    actions: [...actions].sort(),
    resources: [key.keyArn],
    conditions: { StringEquals: { 'kms:ViaService': services.map((s) => `${s}.${Aws.REGION}.amazonaws.com`) } },
  });
}

export function grantKeyVia(
  key: kms.IKey,
  grantee: iam.IGrantable,
  services: readonly string[],
  uses: readonly KeyUse[],
): void {
  grantee.grantPrincipal.addToPrincipalPolicy(keyUseStatement(key, services, uses));
}
