/**
 * The launcher provisions exactly what infra/ synthesizes (ADR 0064): the same table and queue names, keys,
 * GSIs, redrive policies and visibility timeouts — read from the template, never from a second list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTableCommand, ListTablesCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListQueuesCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createDynamoDbClient, createSqsClient } from '../../adapters/aws-clients.js';
import { getQueueAttributes } from '../../adapters/sqs.js';
import { startLocalStack, synthesize, type LocalStack } from '../../localstack/launcher.js';
import type { CfnTemplate } from '../../localstack/template-plan.js';
import { resourceNames } from '../../infra/names.js';
import { resolveConfig } from '../../infra/config.js';

const STAGE = 'provtest';
let stack: LocalStack;
let template: CfnTemplate;
let ddb: DynamoDBClient;
let sqs: SQSClient;

beforeAll(async () => {
  template = await synthesize(STAGE);
  stack = await startLocalStack({ port: 0, stage: STAGE });
  ddb = createDynamoDbClient({ endpoint: stack.endpoint });
  sqs = createSqsClient({ endpoint: stack.endpoint });
});
afterAll(async () => {
  ddb?.destroy();
  sqs?.destroy();
  await stack?.stop();
});

function resourcesOfType(type: string): Array<[string, Record<string, any>]> {
  return Object.entries(template.Resources ?? {})
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => [id, (r.Properties ?? {}) as Record<string, any>]);
}

describe('provisioning the local stack from the synthesized CDK template', () => {
  it('creates exactly the tables of the template, under infra’s physical names', async () => {
    const expected = resourcesOfType('AWS::DynamoDB::Table')
      .map(([, p]) => p.TableName as string)
      .sort();
    const names = resourceNames(STAGE, resolveConfig({ stage: STAGE }));
    expect(expected).toEqual([names.ledgerTable, names.packsTable, names.requestsTable].sort());
    expect((await ddb.send(new ListTablesCommand({}))).TableNames?.sort()).toEqual(expected);
  });

  it('gives each table the key schema and indexes of the template', async () => {
    for (const [, p] of resourcesOfType('AWS::DynamoDB::Table')) {
      const d = await ddb.send(new DescribeTableCommand({ TableName: p.TableName }));
      expect(d.Table?.KeySchema, p.TableName).toEqual(p.KeySchema);
      expect((d.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName).sort()).toEqual(
        ((p.GlobalSecondaryIndexes ?? []) as Array<{ IndexName: string }>).map((g) => g.IndexName).sort(),
      );
    }
  });

  it('creates exactly the queues of the template with their visibility timeouts and redrive policies', async () => {
    const queues = resourcesOfType('AWS::SQS::Queue');
    const listed = ((await sqs.send(new ListQueuesCommand({}))).QueueUrls ?? []).map((u) => u.split('/').pop()).sort();
    expect(listed).toEqual(queues.map(([, p]) => p.QueueName as string).sort());
    const nameOf = new Map(queues.map(([id, p]) => [id, p.QueueName as string]));
    for (const [, p] of queues) {
      const local = stack.resources.queues.find((q) => q.name === p.QueueName)!;
      const a = await getQueueAttributes(sqs, local.url);
      expect(a.VisibilityTimeout, p.QueueName).toBe(String(p.VisibilityTimeout ?? 30));
      if (p.MessageRetentionPeriod !== undefined)
        expect(a.MessageRetentionPeriod).toBe(String(p.MessageRetentionPeriod));
      if (p.RedrivePolicy) {
        const redrive = JSON.parse(a.RedrivePolicy ?? '{}') as { deadLetterTargetArn: string; maxReceiveCount: number };
        expect(redrive.maxReceiveCount).toBe(p.RedrivePolicy.maxReceiveCount);
        expect(redrive.deadLetterTargetArn.split(':').pop()).toBe(
          nameOf.get(p.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]),
        );
      } else {
        expect(a.RedrivePolicy).toBeUndefined();
      }
    }
  });

  it('refuses at the edge a send to either DLQ of the request path, which the template denies to everyone, and only to them', async () => {
    const names = resourceNames(STAGE, resolveConfig({ stage: STAGE }));
    // Both DLQs are denied to every principal (ADR 0455, ADR 0492); the rejects queue's deny excepts the evaluate role,
    // which the local stack (knowing no principals) does not keep.
    expect(stack.resources.sendDeniedQueues).toEqual([names.intake.dlq, names.ledgerQueue.dlq].sort());
    const url = (n: string) => stack.resources.queues.find((q) => q.name === n)!.url;
    const send = (n: string) =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url(n),
          MessageBody: 'planted',
          ...(n.endsWith('.fifo') ? { MessageGroupId: 'g', MessageDeduplicationId: 'd' } : {}),
        }),
      );
    await expect(send(names.ledgerQueue.dlq)).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(send(names.intake.dlq)).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(send(names.rejectsQueue)).resolves.toMatchObject({ MessageId: expect.any(String) });
  });

  it('finds the sequence function on the intake queue, the evaluate function on the FIFO ledger queue and the deliver function on the delivery queue, with the template’s settings', () => {
    const mappings = resourcesOfType('AWS::Lambda::EventSourceMapping');
    expect(stack.resources.eventSources).toHaveLength(mappings.length);
    expect(mappings).toHaveLength(3);
    const names = resourceNames(STAGE, resolveConfig({ stage: STAGE }));
    const sourceOf = (fn: string) => stack.resources.eventSources.find((x) => x.function.logicalId.includes(fn))!;
    expect(sourceOf('SequencerSequence').queueName).toBe(names.intake.queue);
    expect(sourceOf('EvaluatorEvaluate').queueName).toBe(names.ledgerQueue.queue);
    expect(sourceOf('DelivererDeliver').queueName).toBe(names.deliveryQueue.queue);
    for (const es of stack.resources.eventSources) {
      const [, p] = mappings.find(([, m]) => JSON.stringify(m.FunctionName).includes(es.function.logicalId))!;
      expect(es.batchSize).toBe(p.BatchSize ?? 10);
      expect(es.maxBatchingWindowSeconds).toBe(p.MaximumBatchingWindowInSeconds ?? 0);
      expect(es.reportBatchItemFailures).toBe(true);
      expect(es.maximumConcurrency).toBe(p.ScalingConfig?.MaximumConcurrency);
      // AWS guidance the template keeps (docs/deploy.md): visibility timeout ≥ 6 × the function timeout.
      expect(es.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * es.function.timeoutSeconds);
    }
    expect(sourceOf('EvaluatorEvaluate').environment.LEDGER_TABLE).toBe(`docket-${STAGE}-ledger`);
    // The sequencer's environment names the FIFO queue and the logs, and no table.
    expect(sourceOf('SequencerSequence').environment.LEDGER_QUEUE_URL).toMatch(/ledger\.fifo$/);
    expect(sourceOf('SequencerSequence').environment.LEDGER_TABLE).toBeUndefined();
    // Evaluate sends jobs and publishes nothing; the deliver function publishes and dead-letters refused jobs.
    expect(sourceOf('EvaluatorEvaluate').environment.DELIVERY_QUEUE_URL).toMatch(/-delivery$/);
    // Its rejects go to the rejects queue, never to a DLQ (ADR 0492).
    expect(sourceOf('EvaluatorEvaluate').environment.REJECTS_QUEUE_URL).toMatch(/-rejects$/);
    expect(sourceOf('EvaluatorEvaluate').environment.INTAKE_DLQ_URL).toBeUndefined();
    expect(sourceOf('EvaluatorEvaluate').environment.RESULTS_TOPIC_ARN).toBeUndefined();
    expect(sourceOf('DelivererDeliver').environment.RESULTS_TOPIC_ARN).toMatch(/-results$/);
    expect(sourceOf('DelivererDeliver').environment.DELIVERY_DLQ_URL).toMatch(/-delivery-dlq$/);
    expect(sourceOf('DelivererDeliver').environment.SIGNING_SECRET_ARN).toBeUndefined();
  });
});
