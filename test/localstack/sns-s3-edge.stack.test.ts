/**
 * fauxqs 2 also serves SNS and S3, through the one edge endpoint (ADR 0111): the template's topics and buckets are
 * provisioned from the template, and a client that knows only the edge subscribes a queue with a filter policy,
 * publishes to a topic and stores an object exactly as it would in AWS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PublishCommand, SubscribeCommand } from '@aws-sdk/client-sns';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { createSnsClient, createSqsClient, LOCAL_CREDENTIALS } from '../../adapters/aws-clients.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { planFromTemplate, type CfnTemplate } from '../../localstack/template-plan.js';

const template: CfnTemplate = {
  Resources: {
    Errors: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'edge-errors' } },
    Results: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'edge-results' } },
    ExportBucket: { Type: 'AWS::S3::Bucket', Properties: { Tags: [{ Key: 'docket:stage', Value: 'edge' }] } },
  },
};

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template });
});
afterAll(async () => {
  await stack?.stop();
});

describe('SNS and S3 behind the edge', () => {
  it('plans topics and a stable name for an unnamed bucket', () => {
    const plan = planFromTemplate(template);
    expect(plan.topics).toEqual([{ logicalId: 'Results', topicName: 'edge-results' }]);
    expect(plan.buckets).toEqual([{ logicalId: 'ExportBucket', bucketName: 'docket-edge-exportbucket' }]);
  });

  it('delivers a publish through the edge to the subscribed queue only when the filter policy matches', async () => {
    const topic = stack.resources.topics?.[0];
    expect(topic?.arn).toMatch(/^arn:aws:sns:us-east-1:\d{12}:edge-results$/);
    const errors = stack.resources.queues.find((q) => q.name === 'edge-errors')!;
    const sns = createSnsClient({ endpoint: stack.endpoint, region: stack.region });
    await sns.send(
      new SubscribeCommand({
        TopicArn: topic!.arn,
        Protocol: 'sqs',
        Endpoint: errors.arn,
        Attributes: { FilterPolicy: JSON.stringify({ kind: ['evaluation-error'] }), RawMessageDelivery: 'true' },
      }),
    );
    const publish = (kind: string, message: string) =>
      sns.send(
        new PublishCommand({
          TopicArn: topic!.arn,
          Message: message,
          MessageAttributes: { kind: { DataType: 'String', StringValue: kind } },
        }),
      );
    await publish('disposition', 'not for this queue');
    await publish('evaluation-error', 'for this queue');
    sns.destroy();
    const sqs = createSqsClient({ endpoint: stack.endpoint, region: stack.region });
    const got = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: errors.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    sqs.destroy();
    expect((got.Messages ?? []).map((m) => m.Body)).toEqual(['for this queue']);
  });

  it('stores and lists objects in the template bucket with the same key layout as in AWS', async () => {
    const s3 = new S3Client({
      endpoint: stack.endpoint,
      region: stack.region,
      credentials: { ...LOCAL_CREDENTIALS },
      forcePathStyle: true,
    });
    const Bucket = stack.resources.buckets![0]!.name;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'checkpoints/2026-12-03T00:00:00Z.json', Body: '{}\n' }));
    const listed = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: 'checkpoints/' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['checkpoints/2026-12-03T00:00:00Z.json']);
    const obj = await s3.send(new GetObjectCommand({ Bucket, Key: 'checkpoints/2026-12-03T00:00:00Z.json' }));
    expect(await obj.Body?.transformToString()).toBe('{}\n');
    s3.destroy();
  });
});
