/**
 * SNS PublishBatch through the adapter (adapters/sns.ts; docs/adr/0253-per-invocation-outbox.md), over the wire to
 * fauxqs 2 behind the local stack's edge: calls of at most 10 entries and 262,144 bytes, messages and attributes
 * delivered exactly as a single Publish delivers them, and a message SNS would refuse answered alone by position.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSnsClient, createSqsClient } from '../../adapters/aws-clients.js';
import { chunkEntries } from '../../adapters/batch-calls.js';
import {
  openFilteredSubscription,
  SNS_BATCH_MAX_BYTES,
  snsMessageBytes,
  snsResultPublisher,
  type SnsMessage,
} from '../../adapters/sns.js';
import { deleteMessages, receiveMessages } from '../../adapters/sqs.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';

let stack: LocalStack;
let sns: SNSClient;
let sqs: SQSClient;
let topicArn: string;
const calls: { command: string; entries: number; bytes: number }[] = [];

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    template: { Resources: { Results: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'batch-results' } } } },
  });
  topicArn = stack.resources.topics![0]!.arn;
  sns = createSnsClient({ endpoint: stack.endpoint, region: stack.region });
  sqs = createSqsClient({ endpoint: stack.endpoint, region: stack.region });
  sns.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        Message?: string;
        PublishBatchRequestEntries?: { Message: string; MessageAttributes?: Record<string, { StringValue: string }> }[];
      };
      const entries = input.PublishBatchRequestEntries ?? [];
      calls.push({
        command: context.commandName ?? '',
        entries: entries.length,
        bytes: entries.reduce(
          (n, e) =>
            n +
            snsMessageBytes({
              body: e.Message,
              attributes: Object.fromEntries(
                Object.entries(e.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue]),
              ),
            }),
          0,
        ),
      });
      return next(args);
    },
    { step: 'initialize', name: 'countPublishes' },
  );
});
afterAll(async () => {
  sns?.destroy();
  sqs?.destroy();
  await stack?.stop();
});

async function receiveAll(url: string, count: number): Promise<{ body: string; attributes: Record<string, string> }[]> {
  const out: { body: string; attributes: Record<string, string> }[] = [];
  const until = Date.now() + 10_000;
  while (out.length < count && Date.now() < until) {
    const got = await receiveMessages(sqs, url, { waitTimeSeconds: 1 });
    for (const m of got)
      out.push({
        body: m.Body!,
        attributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue!])),
      });
    if (got.length > 0)
      await deleteMessages(
        sqs,
        url,
        got.map((m) => m.ReceiptHandle!),
      );
  }
  return out;
}

const message = (i: number, bodyBytes = 20): SnsMessage => ({
  body: `{"n":${i},"pad":"${'x'.repeat(bodyBytes)}"}`,
  attributes: { requestId: `req-${i}`, kind: 'disposition', outcomeId: undefined },
});

describe('chunking batch entries', () => {
  it('keeps the order and puts at most the entry limit and the byte limit in one call', () => {
    const sizes = [4, 4, 4, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 10];
    const chunks = chunkEntries(sizes, (n) => n, 10, 10);
    expect(chunks).toEqual([[4, 4], [4], [9, 1], [1, 1, 1, 1, 1, 1, 1, 1, 1], [10]]);
    expect(chunks.flat()).toEqual(sizes);
  });
});

describe('publishing a batch of notifications over the wire', () => {
  it('publishes 23 messages in three PublishBatch calls, each delivered once with its body and attributes', async () => {
    const sub = await openFilteredSubscription(sns, sqs, {
      topicArn,
      queueName: 'batch-listener',
      filterPolicies: ['{"kind":["disposition"]}'],
    });
    try {
      calls.length = 0;
      const messages = Array.from({ length: 23 }, (_, i) => message(i));
      expect(await snsResultPublisher(sns, topicArn).publishBatch(messages)).toEqual({ failed: [] });
      expect(calls.map((c) => [c.command, c.entries])).toEqual([
        ['PublishBatchCommand', 10],
        ['PublishBatchCommand', 10],
        ['PublishBatchCommand', 3],
      ]);
      const got = await receiveAll(sub.queueUrl, 23);
      expect(got.map((m) => m.body).sort()).toEqual(messages.map((m) => m.body).sort());
      for (const m of got) {
        const n = (JSON.parse(m.body) as { n: number }).n;
        expect(m.attributes).toEqual({ requestId: `req-${n}`, kind: 'disposition' });
      }
    } finally {
      await sub.close();
    }
  });

  it('splits calls at 262,144 bytes and refuses a message over the limit alone, by position', async () => {
    calls.length = 0;
    const big = Math.floor(SNS_BATCH_MAX_BYTES / 3); // three fit only with nothing else: two per call
    const messages = [message(0, big), message(1, big), message(2, big), message(3, SNS_BATCH_MAX_BYTES), message(4)];
    const report = await snsResultPublisher(sns, topicArn).publishBatch(messages);
    expect(report.failed.map((f) => f.index)).toEqual([3]);
    expect(report.failed[0]!.reason).toMatch(/^MessageTooLong/);
    expect(calls.every((c) => c.bytes <= SNS_BATCH_MAX_BYTES && c.entries <= 10)).toBe(true);
    expect(calls.map((c) => c.entries)).toEqual([2, 2]);
  });

  it('answers every entry of a call that failed as not published, by position', async () => {
    const report = await snsResultPublisher(sns, `${topicArn}-missing`).publishBatch([message(0), message(1)]);
    expect(report.failed.map((f) => f.index)).toEqual([0, 1]);
  });
});
