import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../../adapters/aws-clients.js';
import {
  approximateDepth,
  deleteMessages,
  getQueueUrl,
  receiveMessages,
  sendMessage,
  sendMessages,
  SqsBatchError,
} from '../../adapters/sqs.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';

let stack: LocalStack;
let sqs: SQSClient;
let relay: RecordingProxy;
let relayed: SQSClient;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, provision: false });
  sqs = createSqsClient({ endpoint: stack.endpoint });
  relay = await startRecordingProxy(stack.endpoint);
  relayed = createSqsClient({ endpoint: relay.endpoint });
});
afterAll(async () => {
  sqs?.destroy();
  relayed?.destroy();
  await relay?.close();
  await stack?.stop();
});

let n = 0;
async function queue(attributes: Record<string, string> = {}): Promise<string> {
  const out = await sqs.send(new CreateQueueCommand({ QueueName: `sqs-${n++}-${Date.now()}`, Attributes: attributes }));
  return out.QueueUrl!;
}

async function drain(url: string): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const got = await receiveMessages(sqs, url, { waitTimeSeconds: 0 });
    if (got.length === 0) return bodies;
    bodies.push(...got.map((m) => m.Body!));
    await deleteMessages(
      sqs,
      url,
      got.map((m) => m.ReceiptHandle!),
    );
  }
}

describe('the SQS adapter over the wire', () => {
  it('sends any number of messages in batches of ten and returns one message id per input, in order', async () => {
    const url = await queue();
    const sent = await sendMessages(
      sqs,
      url,
      Array.from({ length: 23 }, (_, i) => ({ body: `m${i}` })),
    );
    expect(sent.map((s) => s.id)).toEqual(Array.from({ length: 23 }, (_, i) => String(i)));
    expect(new Set(sent.map((s) => s.messageId)).size).toBe(23);
    expect((await drain(url)).sort()).toEqual(Array.from({ length: 23 }, (_, i) => `m${i}`).sort());
  });

  it('retries only the entries a batch call reported as failed', async () => {
    const url = await queue();
    let call = 0;
    const entriesPerCall: number[] = [];
    // The relay turns the first batch call into a 200 answer that fails two entries, as SQS does under pressure.
    relay.fail = (target, body) => {
      if (target === 'AmazonSQS.SendMessageBatch') entriesPerCall.push((body.Entries as unknown[]).length);
      return null;
    };
    const partial = await sendMessagesWithInjectedFailure(url, () => call++ === 0).finally(() => {
      relay.fail = () => null;
    });
    expect(partial.sent).toHaveLength(5);
    expect(entriesPerCall).toEqual([3, 2]);
    expect((await drain(url)).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('throws SqsBatchError naming the entries that could not be sent, after delivering the rest', async () => {
    const url = await queue({ MaximumMessageSize: '1024' });
    // Over this queue's limit: a sender fault that SQS reports per entry and that no retry can fix.
    const error = await sendMessages(sqs, url, [
      { id: 'fine', body: 'fine' },
      { id: 'long', body: 'x'.repeat(2000) },
      { id: 'also', body: 'also' },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqsBatchError);
    expect((error as SqsBatchError).failed.map((f) => [f.id, f.senderFault])).toEqual([['long', true]]);
    expect((error as SqsBatchError).sent.map((s) => s.id)).toEqual(['fine', 'also']);
    expect((await drain(url)).sort()).toEqual(['also', 'fine']);
  });

  it('splits batches by total size and refuses a message over 1 MiB without losing its neighbours', async () => {
    const url = await queue();
    const big = 'b'.repeat(400 * 1024);
    const error = await sendMessages(sqs, url, [
      { id: 'b1', body: big },
      { id: 'b2', body: big },
      { id: 'b3', body: big },
      { id: 'huge', body: 'h'.repeat(1024 * 1024 + 1) },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqsBatchError);
    expect((error as SqsBatchError).failed.map((f) => f.id)).toEqual(['huge']);
    expect((error as SqsBatchError).sent.map((s) => s.id)).toEqual(['b1', 'b2', 'b3']);
    expect((await drain(url)).length).toBe(3);
  });

  it('sends a single message, finds a queue by name and reports its depth', async () => {
    const url = await queue();
    expect(await getQueueUrl(sqs, url.split('/').pop()!)).toBe(url);
    await sendMessage(sqs, url, { body: 'one', attributes: { a: { DataType: 'String', StringValue: 'v' } } });
    expect(await approximateDepth(sqs, url)).toEqual({ visible: 1, inFlight: 0, delayed: 0 });
    const [m] = await receiveMessages(sqs, url, { waitTimeSeconds: 0, visibilityTimeout: 30 });
    expect(m?.MessageAttributes?.a?.StringValue).toBe('v');
    expect(m?.Attributes?.ApproximateReceiveCount).toBe('1');
    expect(await approximateDepth(sqs, url)).toEqual({ visible: 0, inFlight: 1, delayed: 0 });
  });
});

/**
 * Sends a..e through a relay that, on the calls `failThis` selects, forwards only the first three entries and
 * answers the last two as failed (a partial batch failure with HTTP 200).
 */
async function sendMessagesWithInjectedFailure(url: string, failThis: () => boolean): Promise<{ sent: unknown[] }> {
  const http = await import('node:http');
  const target = new URL(relay.endpoint);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Entries?: Array<{ Id: string }> };
      const inject = req.headers['x-amz-target'] === 'AmazonSQS.SendMessageBatch' && failThis();
      const dropped = inject ? body.Entries!.slice(3) : [];
      if (inject) body.Entries = body.Entries!.slice(0, 3);
      const payload = Buffer.from(JSON.stringify(body));
      const fwd = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: req.url,
          headers: { ...req.headers, 'content-length': String(payload.length) },
        },
        (up) => {
          const parts: Buffer[] = [];
          up.on('data', (c: Buffer) => parts.push(c));
          up.on('end', () => {
            const answer = JSON.parse(Buffer.concat(parts).toString('utf8')) as { Failed?: unknown[] };
            if (inject)
              answer.Failed = dropped.map((e) => ({
                Id: e.Id,
                Code: 'InternalError',
                Message: 'injected',
                SenderFault: false,
              }));
            const out = JSON.stringify(answer);
            res.writeHead(up.statusCode ?? 200, {
              'content-type': 'application/x-amz-json-1.0',
              'content-length': Buffer.byteLength(out),
            });
            res.end(out);
          });
        },
      );
      fwd.end(payload);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const client = createSqsClient({ endpoint: `http://127.0.0.1:${port}` });
  try {
    const sent = await sendMessages(
      client,
      url,
      ['a', 'b', 'c', 'd', 'e'].map((body) => ({ body })),
      { backoffMs: 1 },
    );
    return { sent };
  } finally {
    client.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}
