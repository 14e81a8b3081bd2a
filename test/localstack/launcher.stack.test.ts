import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTableCommand, ListTablesCommand, PutItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueuesCommand,
  SendMessageCommand,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { provisionAt, startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { ProvisionError } from '../../localstack/provision.js';
import { planFromTemplate, TemplatePlanError } from '../../localstack/template-plan.js';
import { createDynamoDbClient, createSqsClient } from '../../adapters/aws-clients.js';
import { fixtureTemplate } from './fixture-template.js';

describe('the local stack launcher', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({ port: 0, template: fixtureTemplate('fx') });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('listens on an ephemeral loopback port and answers a LocalStack-style health check', async () => {
    expect(stack.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.port).not.toBe(4566);
    const res = await fetch(`${stack.endpoint}/_localstack/health`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { services: Record<string, string> }).services).toEqual({
      dynamodb: 'running',
      sqs: 'running',
      sns: 'running',
      s3: 'running',
    });
  });

  it('routes DynamoDB and SQS calls on the one endpoint to their emulators', async () => {
    const ddb = createDynamoDbClient({ endpoint: stack.endpoint });
    const sqs = createSqsClient({ endpoint: stack.endpoint });
    const tables = await ddb.send(new ListTablesCommand({}));
    expect(tables.TableNames?.sort()).toEqual(['fx-ledger', 'fx-packs']);
    await ddb.send(
      new PutItemCommand({ TableName: 'fx-packs', Item: { pk: { S: 'a' }, sk: { S: 'b' }, v: { S: 'x' } } }),
    );
    const got = await ddb.send(new GetItemCommand({ TableName: 'fx-packs', Key: { pk: { S: 'a' }, sk: { S: 'b' } } }));
    expect(got.Item?.v?.S).toBe('x');
    const queues = await sqs.send(new ListQueuesCommand({}));
    expect(queues.QueueUrls?.sort()).toEqual([
      `${stack.endpoint}/000000000000/fx-intake`,
      `${stack.endpoint}/000000000000/fx-intake-dlq`,
    ]);
    ddb.destroy();
    sqs.destroy();
  });

  it('hands out queue URLs on the host the client called, and accepts them back without an endpoint override', async () => {
    const viaLocalhost = stack.endpoint.replace('127.0.0.1', 'localhost');
    const sqs = createSqsClient({ endpoint: viaLocalhost });
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'fx-intake-dlq' }));
    expect(QueueUrl).toBe(`${viaLocalhost}/000000000000/fx-intake-dlq`);
    // A client with no endpoint at all follows the QueueUrl's host, as the SDK does by default.
    const plain = createSqsClient(
      { region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } },
      {},
    );
    await plain.send(new SendMessageCommand({ QueueUrl, MessageBody: 'routed by url' }));
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }));
    expect(got.Messages?.map((m) => m.Body)).toEqual(['routed by url']);
    sqs.destroy();
    plain.destroy();
  });

  it('refuses a service it does not emulate with a clear error instead of misrouting it', async () => {
    const res = await fetch(stack.endpoint, {
      method: 'POST',
      headers: { 'x-amz-target': 'secretsmanager.GetSecretValue', 'content-type': 'application/x-amz-json-1.1' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/DynamoDB, SQS, SNS and S3 only/);
  });

  it('provisions tables with their key schema from the template', async () => {
    const ddb = createDynamoDbClient({ endpoint: stack.endpoint });
    const d = await ddb.send(new DescribeTableCommand({ TableName: 'fx-ledger' }));
    expect(d.Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(d.Table?.GlobalSecondaryIndexes).toBeUndefined();
    ddb.destroy();
  });

  it('provisions queues with the redrive policy and visibility timeout of the template', async () => {
    const sqs = createSqsClient({ endpoint: stack.endpoint });
    const intake = stack.resources.queues.find((q) => q.logicalId === 'Intake')!;
    const dlq = stack.resources.queues.find((q) => q.logicalId === 'IntakeDlq')!;
    const a = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: intake.url, AttributeNames: ['All'] }));
    expect(a.Attributes?.VisibilityTimeout).toBe('2');
    expect(JSON.parse(a.Attributes?.RedrivePolicy ?? '{}')).toEqual({
      deadLetterTargetArn: dlq.arn,
      maxReceiveCount: 3,
    });
    sqs.destroy();
  });

  it('reads the event source mapping and resolves the function environment against the local resources', () => {
    const [es] = stack.resources.eventSources;
    expect(es).toMatchObject({
      queueName: 'fx-intake',
      batchSize: 5,
      maxBatchingWindowSeconds: 1,
      reportBatchItemFailures: true,
      maximumConcurrency: 2,
      visibilityTimeoutSeconds: 2,
    });
    expect(es!.function.timeoutSeconds).toBe(30);
    const dlq = stack.resources.queues.find((q) => q.logicalId === 'IntakeDlq')!;
    expect(es!.environment).toEqual({
      LEDGER_TABLE: 'fx-ledger',
      INTAKE_DLQ_URL: dlq.url,
      INTAKE_ARN: es!.queueArn,
      ROUTE_QUEUES: JSON.stringify({ 'queue:review': dlq.url }),
      STAGE: 'fixture',
    });
  });

  it('provisions idempotently: a second run over the same stack reuses the same tables and queues', async () => {
    const again = await provisionAt(stack.endpoint, { template: fixtureTemplate('fx') });
    expect(again.queues.map((q) => q.url)).toEqual(stack.resources.queues.map((q) => q.url));
    expect(again.tables.map((t) => t.name).sort()).toEqual(['fx-ledger', 'fx-packs']);
  });

  it('refuses a table with a secondary index, which it would not create, with a typed error', () => {
    const indexed = fixtureTemplate('fx');
    indexed.Resources!.LedgerTable!.Properties!.GlobalSecondaryIndexes = [{ IndexName: 'byRequest' }];
    expect(() => planFromTemplate(indexed)).toThrow(TemplatePlanError);
    expect(() => planFromTemplate(indexed)).toThrow(/LedgerTable has secondary indexes/);
  });

  it('refuses to reuse an existing table whose key schema differs from the template', async () => {
    const changed = fixtureTemplate('fx');
    const ledger = changed.Resources!.LedgerTable!.Properties!;
    ledger.KeySchema = [{ AttributeName: 'pk', KeyType: 'HASH' }];
    ledger.AttributeDefinitions = [{ AttributeName: 'pk', AttributeType: 'S' }];
    await expect(provisionAt(stack.endpoint, { template: changed })).rejects.toBeInstanceOf(ProvisionError);
  });
});
