/** A content-addressed table (pk S / sk S): on-demand, PITR, deletion protection, RETAIN, customer-managed key. */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface ContentTableProps {
  readonly tableName: string;
  readonly key: kms.IKey;
  readonly pitrRecoveryDays: number;
  readonly timeToLiveAttribute?: string;
}

export class ContentTable extends Construct {
  readonly table: dynamodb.Table;
  private readonly physicalName: string;

  constructor(scope: Construct, id: string, props: ContentTableProps) {
    super(scope, id);
    this.physicalName = props.tableName;
    this.table = new dynamodb.Table(this, 'Table', {
      tableName: props.tableName,
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: props.pitrRecoveryDays },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.key,
      ...(props.timeToLiveAttribute !== undefined ? { timeToLiveAttribute: props.timeToLiveAttribute } : {}),
    });
  }

  /** See Ledger.tableArnLiteral: a table's own resource policy cannot Fn::GetAtt the table. */
  tableArnLiteral(): string {
    return Stack.of(this).formatArn({ service: 'dynamodb', resource: 'table', resourceName: this.physicalName });
  }
}
