/** A small CloudFormation template in the shape infra/synth.ts emits, for provisioning tests. */
import type { CfnTemplate } from '../../localstack/template-plan.js';

/** A table keyed like infra's (pk S HASH, sk RANGE of the given type). */
function pkSkTable(tableName: string, sortKeyType: 'S' | 'N'): Record<string, unknown> {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: sortKeyType },
    ],
  };
}

export function fixtureTemplate(prefix: string): CfnTemplate {
  return {
    Resources: {
      LedgerTable: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          ...pkSkTable(`${prefix}-ledger`, 'N'),
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
          SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': ['Key', 'Arn'] } },
        },
      },
      PacksTable: {
        Type: 'AWS::DynamoDB::Table',
        Properties: pkSkTable(`${prefix}-packs`, 'S'),
      },
      IntakeDlq: {
        Type: 'AWS::SQS::Queue',
        Properties: { QueueName: `${prefix}-intake-dlq`, MessageRetentionPeriod: 1209600 },
      },
      // Declared before its DLQ on purpose: the plan must order queues by their redrive dependency.
      Intake: {
        Type: 'AWS::SQS::Queue',
        Properties: {
          QueueName: `${prefix}-intake`,
          VisibilityTimeout: 2,
          RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': ['IntakeDlq', 'Arn'] }, maxReceiveCount: 3 },
        },
      },
      Evaluate: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          Handler: 'index.handler',
          Timeout: 30,
          Environment: {
            Variables: {
              LEDGER_TABLE: { Ref: 'LedgerTable' },
              INTAKE_DLQ_URL: { Ref: 'IntakeDlq' },
              INTAKE_ARN: { 'Fn::GetAtt': ['Intake', 'Arn'] },
              ROUTE_QUEUES: { 'Fn::Join': ['', ['{"queue:review":"', { Ref: 'IntakeDlq' }, '"}']] },
              STAGE: 'fixture',
              SECRET_ARN: { Ref: 'SigningSecret' },
            },
          },
        },
      },
      EvaluateSource: {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: {
          EventSourceArn: { 'Fn::GetAtt': ['Intake', 'Arn'] },
          FunctionName: { Ref: 'Evaluate' },
          BatchSize: 5,
          MaximumBatchingWindowInSeconds: 1,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          ScalingConfig: { MaximumConcurrency: 2 },
        },
      },
    },
  };
}
