/**
 * The pack registry (ADR 0062, ADR 0081): exact pack bytes by SHA-256 digest, plus `id@version` alias items, in one
 * table (key layout: docs/adr/0081-registry-and-request-archive-tables.md). Entries name packs by digest, so replay
 * needs every pack forever: items are never updated or deleted (resource policy), only conditionally created by
 * publishers who hold the managed policy this construct creates (`docket publish` runs with operator credentials).
 * The deny covers alias and graph closure items as much as packs, for every principal, publishers included. IAM has
 * no condition on whether a PutItem's item exists, so an unconditional PutItem can still overwrite one; that is made
 * evident rather than denied (docs/adr/0450-a-graph-is-named-by-its-closure.md): a graph digest names its closure's
 * hash, and `verify` reports a rebound alias.
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { ContentTable } from './content-table.js';
import type { DocketTableProps } from './durable-table.js';
import { denyToEveryone } from './deny-except.js';
import { grantKeyVia, keyUseStatement } from './key-grants.js';

export const REGISTRY_REWRITE_ACTIONS = [
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  'dynamodb:UpdateTimeToLive',
  'dynamodb:DeleteTable',
] as const;

export class Registry extends Construct {
  readonly table: dynamodb.Table;
  /** Attach to the people or pipelines that run `docket publish`. */
  readonly publisherPolicy: iam.ManagedPolicy;
  private readonly key: kms.IKey;

  constructor(scope: Construct, id: string, props: DocketTableProps) {
    super(scope, id);
    this.key = props.key;
    const content = new ContentTable(this, 'Packs', {
      tableName: props.tableName,
      key: props.key,
      pitrRecoveryDays: props.config.pitrRecoveryDays,
    });
    this.table = content.table;
    this.table.addToResourcePolicy(
      denyToEveryone('DenyEveryRewriteToEveryone', [...REGISTRY_REWRITE_ACTIONS], content.tableArnLiteral()),
    );
    this.publisherPolicy = new iam.ManagedPolicy(this, 'PublisherPolicy', {
      managedPolicyName: `${props.tableName}-publisher`,
      description: 'Publish Judgment Packs to the Docket registry (conditional create only; never update or delete)',
      statements: [
        new iam.PolicyStatement({
          actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
          resources: [this.table.tableArn],
        }),
      ],
    });
    this.publisherPolicy.addStatements(keyUseStatement(this.key, ['dynamodb'], ['encrypt']));
  }

  /** The evaluate function loads packs by digest (and resolves aliases); it never writes. */
  grantRead(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:Query'], resources: [this.table.tableArn] }),
    );
    grantKeyVia(this.key, role, ['dynamodb'], ['decrypt']);
  }
}
