import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { CreateQueueCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createSqsClient } from '../../adapters/aws-clients.js';
import { approximateDepth, getQueueAttributes, receiveMessages, sendMessages } from '../../adapters/sqs.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import {
  pollerOptionsFromEventSource,
  readBatchResponse,
  startPoller,
  type Poller,
} from '../../localstack/event-source-poller.js';
import { fixtureTemplate } from './fixture-template.js';

let stack: LocalStack;
let sqs: SQSClient;
const pollers: Poller[] = [];

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template: fixtureTemplate('po') });
  sqs = createSqsClient({ endpoint: stack.endpoint });
});
afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  sqs?.destroy();
  await stack?.stop();
});

let queueCounter = 0;
/** A fresh queue (visibility 1 s) with a DLQ after `maxReceiveCount` receives. */
async function queuePair(maxReceiveCount = 2): Promise<{ url: string; arn: string; dlqUrl: string }> {
  const name = `poll-${queueCounter++}-${Date.now().toString(36)}`;
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqArn = (await getQueueAttributes(sqs, dlq.QueueUrl!)).QueueArn!;
  const q = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: '1',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }),
      },
    }),
  );
  const arn = (await getQueueAttributes(sqs, q.QueueUrl!)).QueueArn!;
  return { url: q.QueueUrl!, arn, dlqUrl: dlq.QueueUrl! };
}

function poll(options: Omit<Parameters<typeof startPoller>[0], 'client'>): Poller {
  const p = startPoller({ client: sqs, waitTimeSeconds: 1, onError: () => undefined, ...options });
  pollers.push(p);
  return p;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function isEmpty(url: string): Promise<boolean> {
  const d = await approximateDepth(sqs, url);
  return d.visible === 0 && d.inFlight === 0 && d.delayed === 0;
}

describe('the event-source poller over the local stack', () => {
  it('invokes the handler with a faithful SQSEvent and deletes the record it handled', async () => {
    const q = await queuePair();
    const sent = await sqs.send(
      new SendMessageCommand({
        QueueUrl: q.url,
        MessageBody: '{"requestId":"r-1"}',
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'evaluation-request' } },
      }),
    );
    const events: SQSEvent[] = [];
    const p = poll({
      queueUrl: q.url,
      handler: async (e) => {
        events.push(e);
        return { batchItemFailures: [] };
      },
    });
    await waitFor(() => p.stats.deleted === 1);
    await p.stop();
    const r = events[0]!.Records[0]!;
    expect(r).toMatchObject({
      messageId: sent.MessageId,
      body: '{"requestId":"r-1"}',
      md5OfBody: createHash('md5').update('{"requestId":"r-1"}').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: q.arn,
      awsRegion: 'us-east-1',
      messageAttributes: {
        kind: { dataType: 'String', stringValue: 'evaluation-request', stringListValues: [], binaryListValues: [] },
      },
    });
    expect(r.attributes.ApproximateReceiveCount).toBe('1');
    expect(Number(r.attributes.SentTimestamp)).toBeGreaterThan(1_700_000_000_000);
    expect(r.receiptHandle).not.toBe('');
    expect(await isEmpty(q.url)).toBe(true);
  });

  it('deletes exactly the records not listed in batchItemFailures and redelivers the listed ones after the visibility timeout', async () => {
    const q = await queuePair(5);
    const bodies = ['ok-1', 'fail-1', 'ok-2', 'fail-2', 'ok-3'];
    await sendMessages(
      sqs,
      q.url,
      bodies.map((body) => ({ body })),
    );
    const seen: Array<{ body: string; count: string }> = [];
    const p = poll({
      queueUrl: q.url,
      batchSize: 5,
      maxBatchingWindowSeconds: 1,
      handler: async (e) => {
        for (const r of e.Records) seen.push({ body: r.body, count: r.attributes.ApproximateReceiveCount });
        const failures = e.Records.filter(
          (r) => r.body.startsWith('fail') && r.attributes.ApproximateReceiveCount === '1',
        );
        return { batchItemFailures: failures.map((r) => ({ itemIdentifier: r.messageId })) };
      },
    });
    await waitFor(() => p.stats.deleted === 5);
    await p.stop();
    for (const ok of ['ok-1', 'ok-2', 'ok-3'])
      expect(seen.filter((s) => s.body === ok)).toEqual([{ body: ok, count: '1' }]);
    for (const fail of ['fail-1', 'fail-2']) {
      expect(seen.filter((s) => s.body === fail)).toEqual([
        { body: fail, count: '1' },
        { body: fail, count: '2' },
      ]);
    }
    expect(p.stats.partialBatches).toBeGreaterThanOrEqual(1);
    expect(await isEmpty(q.url)).toBe(true);
  });

  it('treats a thrown handler error as a failure of the whole batch', async () => {
    const q = await queuePair(5);
    await sendMessages(sqs, q.url, [{ body: 'a' }, { body: 'b' }, { body: 'c' }]);
    const counts = new Map<string, string[]>();
    let thrown = false;
    const p = poll({
      queueUrl: q.url,
      batchSize: 3,
      maxBatchingWindowSeconds: 1,
      handler: async (e) => {
        for (const r of e.Records)
          counts.set(r.body, [...(counts.get(r.body) ?? []), r.attributes.ApproximateReceiveCount]);
        if (!thrown) {
          thrown = true;
          throw new Error('handler crashed');
        }
        return undefined; // no response at all: every record succeeded
      },
    });
    await waitFor(() => p.stats.deleted === 3);
    await p.stop();
    // Whatever the first batch held was redelivered (receive count 2), none of it was deleted by the failed call.
    const firstBatch = [...counts.entries()].filter(([, c]) => c[0] === '1' && c.length === 2);
    expect(firstBatch.length).toBeGreaterThanOrEqual(1);
    for (const [, c] of firstBatch) expect(c).toEqual(['1', '2']);
    expect(p.stats.failedBatches).toBe(1);
  });

  it('treats an unknown itemIdentifier as a failure of the whole batch', async () => {
    const q = await queuePair(5);
    await sendMessages(sqs, q.url, [{ body: 'x' }]);
    const counts: string[] = [];
    const reasons: string[] = [];
    const p = poll({
      queueUrl: q.url,
      onBatch: (b) => b.reason && reasons.push(b.reason),
      handler: async (e) => {
        counts.push(e.Records[0]!.attributes.ApproximateReceiveCount);
        return counts.length === 1
          ? { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] }
          : { batchItemFailures: [] };
      },
    });
    await waitFor(() => p.stats.deleted === 1);
    await p.stop();
    expect(counts).toEqual(['1', '2']);
    expect(reasons[0]).toMatch(/not a message of this batch/);
  });

  it('fails a batch whose handler outlives the function timeout', async () => {
    const q = await queuePair(5);
    await sendMessages(sqs, q.url, [{ body: 'slow' }]);
    const counts: string[] = [];
    const p = poll({
      queueUrl: q.url,
      functionTimeoutSeconds: 0.3,
      handler: async (e) => {
        counts.push(e.Records[0]!.attributes.ApproximateReceiveCount);
        if (counts.length === 1) await new Promise((r) => setTimeout(r, 600));
        return { batchItemFailures: [] };
      },
    });
    await waitFor(() => p.stats.deleted === 1);
    await p.stop();
    expect(counts).toEqual(['1', '2']);
    expect(p.stats.failedBatches).toBe(1);
  });

  it('lets the queue redrive policy move a poison message to the DLQ after maxReceiveCount', async () => {
    const q = await queuePair(2);
    await sendMessages(sqs, q.url, [{ body: 'poison' }, { body: 'fine' }]);
    const poisonCounts: string[] = [];
    const p = poll({
      queueUrl: q.url,
      handler: async (e) => ({
        batchItemFailures: e.Records.filter((r) => r.body === 'poison').map((r) => {
          poisonCounts.push(r.attributes.ApproximateReceiveCount);
          return { itemIdentifier: r.messageId };
        }),
      }),
    });
    let dead: string[] = [];
    await waitFor(async () => {
      dead = [...dead, ...(await receiveMessages(sqs, q.dlqUrl, { waitTimeSeconds: 0 })).map((m) => m.Body!)];
      return dead.length > 0;
    });
    await p.stop();
    expect(dead).toEqual(['poison']);
    expect(poisonCounts).toEqual(['1', '2']);
    expect(p.stats.deleted).toBe(1);
    expect(await isEmpty(q.url)).toBe(true);
  });

  it('stops polling when stopped: a later message stays on the queue', async () => {
    const q = await queuePair();
    let calls = 0;
    const p = poll({
      queueUrl: q.url,
      handler: async () => {
        calls++;
      },
    });
    await p.stop();
    await sendMessages(sqs, q.url, [{ body: 'after stop' }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toBe(0);
    expect((await approximateDepth(sqs, q.url)).visible).toBe(1);
  });

  it('runs several invocations at once up to the configured concurrency', async () => {
    const q = await queuePair(5);
    await sendMessages(
      sqs,
      q.url,
      Array.from({ length: 12 }, (_, i) => ({ body: `m${i}` })),
    );
    let active = 0;
    let peak = 0;
    const p = poll({
      queueUrl: q.url,
      batchSize: 2,
      concurrency: 3,
      handler: async () => {
        active++;
        peak = Math.max(peak, active);
        // Hold each invocation until three run at once (or 1.5 s pass), so a loaded machine cannot hide the overlap.
        const until = Date.now() + 1500;
        while (active < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 50));
        active--;
      },
    });
    await waitFor(() => p.stats.deleted === 12);
    await p.stop();
    expect(peak).toBe(3);
    expect(p.stats.invocations).toBeGreaterThanOrEqual(6);
  });

  it('takes batch size, window, concurrency, timeout and response type from the template mapping', () => {
    const es = stack.resources.eventSources[0]!;
    const o = pollerOptionsFromEventSource(es, async () => undefined);
    expect(o).toMatchObject({
      queueUrl: es.queueUrl,
      queueArn: es.queueArn,
      batchSize: 5,
      maxBatchingWindowSeconds: 1,
      concurrency: 2,
      functionTimeoutSeconds: 30,
      reportBatchItemFailures: true,
    });
  });
});

describe('reading a handler response under ReportBatchItemFailures', () => {
  const ids = new Set(['m1', 'm2']);
  it('reads no response, null failures and an empty list as complete success', () => {
    for (const r of [undefined, null, {}, { batchItemFailures: null }, { batchItemFailures: [] }]) {
      expect(readBatchResponse(r, ids)).toEqual({ ok: true, failed: new Set() });
    }
  });
  it('reads listed message ids as the failed records', () => {
    expect(readBatchResponse({ batchItemFailures: [{ itemIdentifier: 'm2' }] }, ids)).toEqual({
      ok: true,
      failed: new Set(['m2']),
    });
  });
  it('reads an unreadable response or a bad item as a failure of the whole batch', () => {
    for (const r of [
      'ok',
      42,
      [],
      { batchItemFailures: 'm1' },
      { batchItemFailures: [{}] },
      { batchItemFailures: [{ itemIdentifier: '' }] },
      { batchItemFailures: [{ itemIdentifier: null }] },
      { batchItemFailures: [{ itemIdentifier: 'm3' }] },
      { batchItemFailures: [null] },
    ]) {
      expect(readBatchResponse(r, ids).ok, JSON.stringify(r)).toBe(false);
    }
  });
});

// A record built from a real receive keeps Lambda's field names even for FIFO-only attributes.
describe('records from a FIFO queue', () => {
  it('carry MessageGroupId, MessageDeduplicationId and SequenceNumber', async () => {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `fifo-${Date.now()}.fifo`, Attributes: { FifoQueue: 'true' } }),
    );
    await sqs.send(
      new SendMessageCommand({ QueueUrl, MessageBody: 'f', MessageGroupId: 'g1', MessageDeduplicationId: 'd1' }),
    );
    const records: SQSRecord[] = [];
    const p = poll({
      queueUrl: QueueUrl!,
      handler: async (e) => {
        records.push(...e.Records);
      },
    });
    await waitFor(() => p.stats.deleted === 1);
    await p.stop();
    expect(records[0]!.attributes).toMatchObject({ MessageGroupId: 'g1', MessageDeduplicationId: 'd1' });
    expect(records[0]!.attributes.SequenceNumber).toMatch(/^\d+$/);
  });

  it('keeps the first failed record and every later one of the batch, whatever the handler answers', async () => {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({
        QueueName: `fifo-order-${Date.now()}.fifo`,
        Attributes: { FifoQueue: 'true', VisibilityTimeout: '1' },
      }),
    );
    // Three groups, so one receive returns all three (a queue hands out one message per group at a time, at least).
    await sendMessages(
      sqs,
      QueueUrl!,
      ['m0', 'm1', 'm2'].map((body, i) => ({ body, groupId: `g${i}`, deduplicationId: `d${i}` })),
    );
    const batches: string[][] = [];
    const reports: { deleted: string[]; failed: string[] }[] = [];
    let failedOnce = false;
    const p = poll({
      queueUrl: QueueUrl!,
      batchSize: 10,
      handler: async (e) => {
        batches.push(e.Records.map((r) => r.body));
        const second = e.Records[1];
        if (failedOnce || second === undefined) return { batchItemFailures: [] };
        failedOnce = true;
        // Names only the second record: the poller must keep the third too (FIFO order).
        return { batchItemFailures: [{ itemIdentifier: second.messageId }] };
      },
      onBatch: (b) => {
        const body = (id: string) => b.messageIds.indexOf(id);
        reports.push({
          deleted: b.deleted.map((id) => batches.at(-1)![body(id)]!),
          failed: b.failed.map((id) => batches.at(-1)![body(id)]!),
        });
      },
    });
    await waitFor(() => p.stats.deleted === 3);
    await p.stop();
    const failing = reports.findIndex((r) => r.failed.length > 0);
    expect(failing).toBeGreaterThanOrEqual(0);
    const batch = batches[failing]!;
    expect(reports[failing]).toEqual({ deleted: [batch[0]], failed: batch.slice(1) });
    // Each message was deleted once, after a redelivery for those kept.
    expect(reports.flatMap((r) => r.deleted).sort()).toEqual(['m0', 'm1', 'm2']);
  });

  it('refuses a batch size above ten, as Lambda does for FIFO sources', () => {
    expect(() =>
      startPoller({ client: sqs, queueUrl: 'http://x/000/q.fifo', handler: async () => undefined, batchSize: 11 }),
    ).toThrow(/FIFO/);
  });
});
