/**
 * The request archive: the exact request bytes by SHA-256 digest, kept outside the ledger so that replay can
 * re-run any entry (docs/replay.md) and so that facts can be purged (privacy, retention) without touching a signed
 * entry — the ledger keeps only the digest, and `replay` reports a purged request as not-replayable.
 * Items are never updated; only the purge role may delete (docs/adr/0081-registry-and-request-archive-tables.md).
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { ContentTable } from './content-table.js';
import type { DocketTableProps } from './durable-table.js';
import { denyExcept, denyToEveryone } from './deny-except.js';
import { grantKeyVia } from './key-grants.js';

export class RequestArchive extends Construct {
  readonly table: dynamodb.Table;
  /** Assumable by principals the account's IAM allows; the only principal that may DeleteItem here. */
  readonly purgeRole: iam.Role;
  private readonly key: kms.IKey;

  constructor(scope: Construct, id: string, props: DocketTableProps) {
    super(scope, id);
    this.key = props.key;
    const ttl = props.config.requestArchiveTtlAttribute;
    const content = new ContentTable(this, 'Requests', {
      tableName: props.tableName,
      key: props.key,
      pitrRecoveryDays: props.config.pitrRecoveryDays,
      ...(ttl !== undefined ? { timeToLiveAttribute: ttl } : {}),
    });
    this.table = content.table;
    this.purgeRole = new iam.Role(this, 'PurgeRole', {
      roleName: `${props.tableName}-purger`,
      description: 'Purge archived request bytes (facts) from the Docket request archive; never touches the ledger',
      assumedBy: new iam.AccountRootPrincipal(),
    });
    this.purgeRole.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:DeleteItem'],
        resources: [this.table.tableArn],
      }),
    );
    grantKeyVia(this.key, this.purgeRole, ['dynamodb'], ['decrypt']);
    const arn = content.tableArnLiteral();
    this.table.addToResourcePolicy(
      denyToEveryone(
        'DenyRewritesToEveryone',
        [
          'dynamodb:UpdateItem',
          'dynamodb:BatchWriteItem',
          'dynamodb:PartiQLUpdate',
          'dynamodb:PartiQLDelete',
          'dynamodb:DeleteTable',
        ],
        arn,
      ),
    );
    this.table.addToResourcePolicy(
      denyExcept('DenyDeleteItemExceptPurgeRole', ['dynamodb:DeleteItem'], arn, this.purgeRole.roleArn),
    );
  }

  /**
   * The checkpoint function's archive cross-check (ADR 0457, ADR 0487) lists every archived request: a Scan, and the
   * key to read what it returns. Nothing else: no GetItem of one request, no write.
   */
  grantCrossCheck(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Scan'], resources: [this.table.tableArn] }),
    );
    grantKeyVia(this.key, role, ['dynamodb'], ['decrypt']);
  }

  /** The evaluate function archives each request's exact bytes (conditional create) and reads them back. */
  grantArchive(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], resources: [this.table.tableArn] }),
    );
    grantKeyVia(this.key, role, ['dynamodb'], ['encrypt']);
  }
}
