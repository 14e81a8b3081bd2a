/**
 * The archive cross-check's reader (adapters/request-omissions.ts) over the queue emulator, with messages SQS's own
 * redrive moved (maxReceiveCount 1, then a second receive): what a dead-letter message excuses now that a FIFO ledger
 * queue message carries many requests (docs/verify.md "Requests without an entry";
 * docs/adr/0497-a-ledger-message-carries-many-requests.md). A ledger message redriven from the ledger queue excuses
 * each request it carries; one that claims the format and does not read excuses nothing; an intake message shaped like
 * a ledger message is the requester's bytes, nothing inside it; a message planted on a DLQ excuses nothing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../../adapters/aws-clients.js';
import type { ArchivedBytes } from '../../adapters/dynamodb-request-archive.js';
import { crossCheckArchive, requestPath, type QueueRef } from '../../adapters/request-omissions.js';
import { getQueueAttributes, receiveMessages, sendMessage } from '../../adapters/sqs.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { ledgerMessageBytes } from '../../core/pipeline/ledger-message.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';

let stack: LocalStack;
let sqs: SQSClient;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, provision: false });
  sqs = createSqsClient({ endpoint: stack.endpoint });
}, 60_000);
afterAll(async () => {
  sqs?.destroy();
  await stack?.stop();
});

const enc = new TextEncoder();
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
/** A request's bytes: enough for the cross-check to read its id. */
const request = (id: string): string =>
  `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"vendor@1.0.0","facts":{"note":"é ${id}"}}`;

let n = 0;
/** A fresh request path: an intake queue and a FIFO ledger queue, each with its DLQ after one receive. */
async function path(): Promise<{ intake: QueueRef; ledger: QueueRef; intakeDlq: string; ledgerDlq: string }> {
  const name = `omit-${n++}-${Date.now().toString(36)}`;
  const queue = async (q: string, attributes: Record<string, string>): Promise<QueueRef> => {
    const out = await sqs.send(new CreateQueueCommand({ QueueName: q, Attributes: attributes }));
    return { name: q, url: out.QueueUrl! };
  };
  const fifo = { FifoQueue: 'true' };
  const intakeDlq = await queue(`${name}-intake-dlq`, {});
  const ledgerDlq = await queue(`${name}-ledger-dlq.fifo`, fifo);
  const redrive = async (dlq: QueueRef) =>
    JSON.stringify({ deadLetterTargetArn: (await getQueueAttributes(sqs, dlq.url)).QueueArn!, maxReceiveCount: 1 });
  const intake = await queue(`${name}-intake`, { RedrivePolicy: await redrive(intakeDlq) });
  const ledger = await queue(`${name}-ledger.fifo`, { ...fifo, RedrivePolicy: await redrive(ledgerDlq) });
  return { intake, ledger, intakeDlq: intakeDlq.url, ledgerDlq: ledgerDlq.url };
}

/** Receives a queue's messages until SQS's redrive has moved them all to its DLQ (never deleting one). */
async function redriveAll(url: string, dlqUrl: string, count: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const depth = Number((await getQueueAttributes(sqs, dlqUrl)).ApproximateNumberOfMessages ?? 0);
    if (depth >= count) return;
    await receiveMessages(sqs, url, { waitTimeSeconds: 0, visibilityTimeout: 0 });
  }
  throw new Error(`SQS's redrive moved fewer than ${count} messages to ${dlqUrl}`);
}

/** The cross-check of these archived requests (no entry records any), on a path whose queues are all empty. */
async function check(p: Awaited<ReturnType<typeof path>>, archived: readonly string[]) {
  const items: ArchivedBytes[] = archived.map((text) => ({
    digest: sha256(text),
    bytes: enc.encode(text),
    retainedAt: 0,
  }));
  return crossCheckArchive(
    {
      archive: {
        async *list() {
          yield* items;
        },
      },
      store: { async *readEntries() {} },
      logIds: [],
      sqs,
      pathQueues: requestPath(p.intake, p.ledger),
      deadLetterQueueUrls: [p.intakeDlq, p.ledgerDlq],
    },
    1_000_000_000,
  );
}

const ids = (xs: readonly { requestId: string }[]): string[] => xs.map((x) => x.requestId).sort();

const ledgerMessage = (...bodies: string[]): string => {
  const m = ledgerMessageBytes(bodies.map((body, i) => ({ body, intakeMessageId: `intake-${i}` })));
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

describe('the archive cross-check reads a DLQ message SQS redrove from the ledger queue as the requests it carries', () => {
  it('a ledger message of three requests redriven from the ledger queue excuses exactly those three, as ledger-queue-redriven', async () => {
    const p = await path();
    const [a, b, c, d] = ['packed-a', 'packed-b', 'packed-c', 'left-out'].map(request) as [
      string,
      string,
      string,
      string,
    ];
    await sendMessage(sqs, p.ledger.url, { body: ledgerMessage(a, b, c), groupId: 'not-a-log', deduplicationId: 'm1' });
    await redriveAll(p.ledger.url, p.ledgerDlq, 1);
    const r = await check(p, [a, b, c, d]);
    expect(r.excused).toEqual(
      ['packed-a', 'packed-b', 'packed-c'].map((requestId) => ({
        requestId,
        requestDigest: sha256(request(requestId)),
        excuse: 'dead-lettered',
        reason: 'ledger-queue-redriven',
      })),
    );
    expect(r.findings).toEqual([{ code: 'request-without-entry', requestId: 'left-out', requestDigest: sha256(d) }]);
  }, 60_000);

  it('a ledger queue body that is not a ledger message is one request, excused by its own digest as before', async () => {
    const p = await path();
    const a = request('unpacked-a');
    await sendMessage(sqs, p.ledger.url, { body: a, groupId: 'not-a-log', deduplicationId: 'm1' });
    await redriveAll(p.ledger.url, p.ledgerDlq, 1);
    const r = await check(p, [a]);
    expect(ids(r.excused)).toEqual(['unpacked-a']);
    expect(r.findings).toEqual([]);
  }, 60_000);

  it('a redriven message that claims the ledger message format and does not read excuses nothing: not its requests, not its own bytes', async () => {
    const p = await path();
    const [a, b] = [request('corrupt-a'), request('corrupt-b')];
    // Two requests, then a byte past the last one: the strict reader refuses the whole message.
    const trailing = `${ledgerMessage(a, b)} `;
    // One line claiming the format, with a request id of its own: archived, readRequest names it.
    const oneLine = `{"format":"docket.ledger-message/1","requests":[],"requestId":"corrupt-whole"}`;
    await sendMessage(sqs, p.ledger.url, { body: trailing, groupId: 'g1', deduplicationId: 'm1' });
    await sendMessage(sqs, p.ledger.url, { body: oneLine, groupId: 'g2', deduplicationId: 'm2' });
    await redriveAll(p.ledger.url, p.ledgerDlq, 2);
    const r = await check(p, [a, b, oneLine]);
    expect(r.excused).toEqual([]);
    expect(ids(r.findings)).toEqual(['corrupt-a', 'corrupt-b', 'corrupt-whole']);
  }, 60_000);

  it('an intake message shaped like a ledger message, redriven from the intake queue, is the requester’s bytes: it excuses none of the requests inside it', async () => {
    const p = await path();
    const victim = request('victim-1');
    const shaped = ledgerMessage(victim);
    await sendMessage(sqs, p.intake.url, { body: shaped });
    await redriveAll(p.intake.url, p.intakeDlq, 1);
    const r = await check(p, [victim]);
    expect(r.excused).toEqual([]);
    expect(r.findings).toEqual([
      { code: 'request-without-entry', requestId: 'victim-1', requestDigest: sha256(victim) },
    ]);
  }, 60_000);

  it('a ledger message sent straight to the ledger DLQ carries no redrive source and excuses none of its requests', async () => {
    const p = await path();
    const [a, b, c] = ['planted-a', 'planted-b', 'planted-c'].map(request) as [string, string, string];
    await sendMessage(sqs, p.ledgerDlq, { body: ledgerMessage(a, b, c), groupId: 'log-0', deduplicationId: 'm1' });
    const r = await check(p, [a, b, c]);
    expect(r.excused).toEqual([]);
    expect(ids(r.findings)).toEqual(['planted-a', 'planted-b', 'planted-c']);
  }, 60_000);
});
