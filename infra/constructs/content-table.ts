/** A content-addressed table (pk S / sk S): on-demand, PITR, deletion protection, RETAIN, customer-managed key. */
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { durableTableProps, tableArnLiteral } from './durable-table.js';

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
      ...durableTableProps(props.key, props.pitrRecoveryDays),
      ...(props.timeToLiveAttribute !== undefined ? { timeToLiveAttribute: props.timeToLiveAttribute } : {}),
    });
  }

  /** For the table's own resource policy (see durable-table.ts). */
  tableArnLiteral(): string {
    return tableArnLiteral(this, this.physicalName);
  }
}
