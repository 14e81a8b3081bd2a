/**
 * What every Docket table shares, ledger and content tables alike: on-demand billing, point-in-time recovery,
 * deletion protection, RETAIN on stack deletion and the customer-managed KMS key; and the table ARN spelled from
 * its physical name for the table's own resource policy.
 */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import type { DocketConfig } from '../config.js';

/** What each of Docket's tables (ledger, registry, request archive) is built from. */
export interface DocketTableProps {
  readonly config: DocketConfig;
  readonly tableName: string;
  readonly key: kms.IKey;
}

/** The durability and encryption properties of a Docket table (keys, name and TTL are the caller's). */
export function durableTableProps(key: kms.IKey, pitrRecoveryDays: number) {
  return {
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: pitrRecoveryDays },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
    encryptionKey: key,
  } satisfies Partial<dynamodb.TableProps>;
}

/**
 * The table ARN built from its physical name: a table's own resource policy cannot reference the table
 * (Fn::GetAtt on itself is circular).
 */
export function tableArnLiteral(scope: Construct, physicalName: string): string {
  return Stack.of(scope).formatArn({ service: 'dynamodb', resource: 'table', resourceName: physicalName });
}
