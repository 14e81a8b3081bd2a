/**
 * The local stack's FIFO receive (localstack/fauxqs-fifo-receive.ts, ADR 0401): one receive takes up to ten messages
 * of one group, in order, and the group stays locked until every one of them is deleted or returns.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../../adapters/aws-clients.js';
import { deleteMessages, receiveMessages, sendMessages } from '../../adapters/sqs.js';
import { FauxqsFifoReceiveError, groupReceiveSource } from '../../localstack/fauxqs-fifo-receive.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { fixtureTemplate } from './fixture-template.js';

let stack: LocalStack;
let sqs: SQSClient;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template: fixtureTemplate('fg') });
  sqs = createSqsClient({ endpoint: stack.endpoint });
});
afterAll(async () => {
  sqs?.destroy();
  await stack?.stop();
});

async function fifoQueue(visibilityTimeout = 30): Promise<string> {
  const name = `fg-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}.fifo`;
  const q = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: { FifoQueue: 'true', VisibilityTimeout: String(visibilityTimeout) },
    }),
  );
  return q.QueueUrl!;
}

const send = (url: string, group: string, bodies: readonly string[]) =>
  sendMessages(
    sqs,
    url,
    bodies.map((body) => ({ body, groupId: group, deduplicationId: body })),
  );

describe('a FIFO receive on the local stack', () => {
  it('takes up to ten messages of one group in one receive, in order, as SQS does', async () => {
    const url = await fifoQueue();
    const bodies = Array.from({ length: 12 }, (_, i) => `a-${i}`);
    await send(url, 'a', bodies.slice(0, 10));
    await send(url, 'a', bodies.slice(10));
    const first = await receiveMessages(sqs, url, { maxMessages: 10, waitTimeSeconds: 0 });
    expect(first.map((m) => m.Body)).toEqual(bodies.slice(0, 10));
    expect(new Set(first.map((m) => m.Attributes?.MessageGroupId))).toEqual(new Set(['a']));
    // The group is locked while any of the ten is in flight: nothing more of it comes.
    expect(await receiveMessages(sqs, url, { maxMessages: 10, waitTimeSeconds: 0 })).toEqual([]);
    await deleteMessages(
      sqs,
      url,
      first.slice(0, 9).map((m) => m.ReceiptHandle!),
    );
    expect(await receiveMessages(sqs, url, { maxMessages: 10, waitTimeSeconds: 0 })).toEqual([]);
    await deleteMessages(sqs, url, [first[9]!.ReceiptHandle!]);
    const rest = await receiveMessages(sqs, url, { maxMessages: 10, waitTimeSeconds: 0 });
    expect(rest.map((m) => m.Body)).toEqual(bodies.slice(10));
  });

  it('fills a receive from the next unlocked group once the first group has no more', async () => {
    const url = await fifoQueue();
    await send(url, 'a', ['a-0', 'a-1', 'a-2']);
    await send(url, 'b', ['b-0', 'b-1']);
    const got = await receiveMessages(sqs, url, { maxMessages: 10, waitTimeSeconds: 0 });
    expect(got.map((m) => m.Body)).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1']);
  });

  it('returns every message of a batch whose visibility timeout passed, and then unlocks the group', async () => {
    const url = await fifoQueue(1);
    await send(url, 'a', ['a-0', 'a-1', 'a-2']);
    const first = await receiveMessages(sqs, url, { maxMessages: 10, waitTimeSeconds: 0 });
    expect(first).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 1_500));
    const again = await receiveMessages(sqs, url, { maxMessages: 10, waitTimeSeconds: 0 });
    // Sorted: fauxqs puts expired messages back in reverse order (ADR 0401 leaves that; Docket needs no order).
    expect(again.map((m) => m.Body).sort()).toEqual(['a-0', 'a-1', 'a-2']);
    expect(again.every((m) => m.Attributes?.ApproximateReceiveCount === '2')).toBe(true);
  });
});

describe('the patch of fauxqs', () => {
  const installed = (): string => {
    const dirs = createRequire(import.meta.url).resolve.paths('fauxqs') ?? [];
    for (const d of dirs) {
      try {
        return readFileSync(join(d, 'fauxqs', 'dist', 'sqs', 'sqsStore.js'), 'utf8');
      } catch {
        // not in this directory
      }
    }
    throw new Error('fauxqs not installed');
  };
  const method = (): string => {
    const text = installed();
    const start = text.indexOf('    dequeueFifo(');
    const end = text.indexOf('\n    deleteMessage(', start);
    return text.slice(start + 4, end).trimEnd();
  };

  it('removes exactly the one break after a group’s first message from the installed fauxqs', () => {
    const original = method();
    const patched = groupReceiveSource(original);
    expect(patched.startsWith('function dequeueFifo(')).toBe(true);
    expect(original.split('break;').length - patched.split('break;').length).toBe(1);
  });

  it('refuses a source of another shape rather than running unpatched', () => {
    expect(() => groupReceiveSource(method().replace(/\+ 1\);\s*break;/, '+ 1);'))).toThrow(FauxqsFifoReceiveError);
    expect(() => groupReceiveSource('dequeue(maxCount) { return []; }')).toThrow(FauxqsFifoReceiveError);
  });
});
