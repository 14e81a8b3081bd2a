/**
 * Read-only access for auditors and `docket verify` / `docket replay` / `docket show` against the live stage: the
 * ledger (Scan for listLogs, Query, GetItem), the pack registry and request archive (replay needs the exact bytes),
 * the exported checkpoints, the published trust policy and the evaluate function's rejects queue (ADR 0492). Not one
 * write action; attach it to auditor roles.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { keyUseStatement } from './key-grants.js';
import type { Rejects } from './rejects.js';
import { trustPolicyParameterArn } from './signing-key.js';

export interface AuditAccessProps {
  readonly policyName: string;
  readonly tables: readonly dynamodb.ITable[];
  readonly exportBucket: s3.Bucket;
  readonly trustPolicyParameterName: string;
  readonly key: kms.IKey;
  /** The evaluate function's rejects, read for their reasons (ADR 0492). */
  readonly rejects: Rejects;
}

export const AUDIT_TABLE_ACTIONS = [
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
] as const;

export class AuditAccess extends Construct {
  readonly policy: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, props: AuditAccessProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.policy = new iam.ManagedPolicy(this, 'Policy', {
      managedPolicyName: props.policyName,
      description:
        'Docket: read-only audit of the ledger, registry, request archive, exported checkpoints, trust policy, rejects',
      statements: [
        new iam.PolicyStatement({ actions: [...AUDIT_TABLE_ACTIONS], resources: props.tables.map((t) => t.tableArn) }),
        new iam.PolicyStatement({
          actions: ['s3:ListBucket', 's3:ListBucketVersions'],
          resources: [props.exportBucket.bucketArn],
        }),
        new iam.PolicyStatement({
          actions: ['s3:GetObject', 's3:GetObjectVersion'],
          resources: [props.exportBucket.arnForObjects('checkpoints/*')],
        }),
        new iam.PolicyStatement({
          actions: ['ssm:GetParameter'],
          resources: [trustPolicyParameterArn(this, props.trustPolicyParameterName)],
        }),
        keyUseStatement(props.key, ['dynamodb', 's3'], ['decrypt']),
        props.rejects.readStatement(),
      ],
    });
    const bucketLogicalId = stack.resolve((props.exportBucket.node.defaultChild as s3.CfnBucket).logicalId) as string;
    Validations.of(this.policy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/checkpoints/*]`,
      reason:
        'Auditors read every exported checkpoint, whose object keys are created per run and unknown at deploy time. ' +
        'The grant is read-only (GetObject, GetObjectVersion) under the checkpoint prefix of one bucket.',
    });
  }
}
