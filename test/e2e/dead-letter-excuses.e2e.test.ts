/**
 * Excuses only the platform can make, tried over the wire on the local stack as an attacker with the DynamoDB and SQS
 * APIs would (docs/verify.md "Requests without an entry"; ADRs 0292, 0455): an accepted request's entry and markers
 * are deleted and its archived bytes put on the FIFO ledger queue's DLQ, alone or in a ledger message — the edge
 * refuses the send (the queue policy denies SendMessage to every principal), and a copy that reaches the queue another
 * way carries no `DeadLetterQueueSourceArn`, so `docket verify` still reports the omission. A request SQS itself
 * redrove there is excused, and so is each request of a ledger message SQS redrove there
 * (docs/adr/0497-a-ledger-message-carries-many-requests.md). The intake DLQ refuses every send too; the evaluate function's rejects go to the rejects queue with their
 * reasons and excuse nothing (ADR 0492). A re-put archive item whose first retention is dated in the future is a
 * finding, not "in flight".
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../../adapters/aws-clients.js';
import { DynamoDbRequestArchive } from '../../adapters/dynamodb-request-archive.js';
import { getQueueAttributes, sendMessage } from '../../adapters/sqs.js';
import { ledgerMessageBytes } from '../../core/pipeline/ledger-message.js';
import { deleteEntryItemAt } from '../adapters/entry-item-at.js';
import { unmarkFrom } from '../adapters/marker-item-at.js';
import { startE2e, type E2eWorld } from './harness.js';
import { sendToGroup, sendToLog } from './ledger-queue.js';
import { sleep, worldIo, type WorldIo } from './world-io.js';

let w: E2eWorld;
let io: WorldIo;
const LOW_RISK = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';

beforeAll(async () => {
  w = await startE2e({ stage: 'dlqx' });
  io = await worldIo(w);
}, 120_000);
afterAll(async () => {
  await w?.stop();
});

type Verdict = {
  ok: boolean;
  findings: { code: string; requestId?: string; retainedAt?: number }[];
  summary: { archive?: { excused: { requestId: string; excuse: string; reason?: string }[] } };
};
const verdict = async (world: E2eWorld = w): Promise<Verdict> => JSON.parse((await world.verify()).stdout) as Verdict;

/** The ledger message (core/pipeline/ledger-message.ts) the sequence function would send for these request bodies. */
const ledgerMessage = (...bodies: string[]): string => {
  const m = ledgerMessageBytes(bodies.map((body, i) => ({ body, intakeMessageId: `intake-${i}` })));
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

/**
 * A request recorded alone, then its entry, its claim and every index of it (its batch marker; a position item, had one
 * been written) deleted with the DynamoDB API; its archived bytes stay.
 */
async function recordThenDelete(id: string): Promise<{ body: string; digest: string }> {
  const body = io.request(id, 'vendor', LOW_RISK);
  await io.submit(body);
  const { entry } = await io.entryOf(id);
  expect(await deleteEntryItemAt(w.dynamodb, w.env.LEDGER_TABLE!, entry.logId, entry.seq)).toBe(entry.seq);
  for (const sk of ['0', '1'])
    await w.dynamodb.send(
      new DeleteItemCommand({ TableName: w.env.LEDGER_TABLE!, Key: { pk: { S: `req#${id}` }, sk: { N: sk } } }),
    );
  expect(await unmarkFrom(w.dynamodb, w.env.LEDGER_TABLE!, entry.logId, entry.seq)).toBe(1);
  return { body, digest: entry.requestDigest };
}

it('a deleted request’s bytes sent to the ledger DLQ, alone or in a ledger message, excuse nothing: the edge refuses the send, and a copy sent past it has no redrive source', async () => {
  // An earlier entry on every log keeps the victim's log from being emptied (then verify would see no log at all).
  // A request id no longer picks its log (a ledger message's digest does), so each log is sent one directly.
  const logIds = JSON.parse(w.env.LOG_IDS!) as string[];
  for (const [i, logId] of logIds.entries()) await sendToLog(w, logId, [io.request(`warm-${i}`, 'vendor', LOW_RISK)]);
  for (const [i, logId] of logIds.entries()) expect((await io.entryOf(`warm-${i}`)).entry.logId).toBe(logId);
  await w.coldStart();
  const { body, digest } = await recordThenDelete('planted-1');
  // A cold start between: the next request may land on the same log (a ledger message's digest picks its log),
  // where a warm writer's head cache still knows the entry just deleted.
  await w.coldStart();
  const packed = await recordThenDelete('planted-packed-1');
  const bodies = [body, ledgerMessage(packed.body, body)];
  const plant = (client: typeof w.sqs, messageBody: string) =>
    client.send(
      new SendMessageCommand({
        QueueUrl: w.queueUrl('ledger-dlq.fifo'),
        MessageBody: messageBody,
        MessageGroupId: 'log-0',
        MessageDeduplicationId: createHash('sha256').update(messageBody).digest('hex'),
      }),
    );
  for (const b of bodies) await expect(plant(w.sqs, b)).rejects.toMatchObject({ name: 'AccessDenied' });
  // Past the edge, straight to the queue emulator (as a principal the policy would except): on the queue, no source.
  const direct = createSqsClient({ endpoint: w.stack.sqsEndpoint, region: w.stack.region });
  try {
    for (const b of bodies) await plant(direct, b);
  } finally {
    direct.destroy();
  }
  const v = await verdict();
  expect(v.ok).toBe(false);
  const planted = ['planted-1', 'planted-packed-1'];
  expect(v.findings.filter((f) => planted.includes(f.requestId ?? ''))).toEqual([
    { code: 'request-without-entry', requestId: 'planted-1', requestDigest: digest },
    { code: 'request-without-entry', requestId: 'planted-packed-1', requestDigest: packed.digest },
  ]);
  expect(v.summary.archive?.excused.filter((e) => planted.includes(e.requestId))).toEqual([]);
}, 180_000);

it('no principal sends to the intake DLQ either: the edge refuses a planted copy with a reason of its choice, and the evaluate function’s rejects reach the rejects queue with their reasons, excusing nothing', async () => {
  await w.coldStart();
  const { body, digest } = await recordThenDelete('planted-intake-1');
  // A cold start again: the requests below may land on the victim's log (a ledger message's digest picks its log),
  // where a warm writer's head cache still knows the entry just deleted.
  await w.coldStart();
  // The intake DLQ's policy denies SendMessage to every principal, the evaluate role included (ADR 0492).
  await expect(
    w.sqs.send(
      new SendMessageCommand({
        QueueUrl: w.queueUrl('intake-dlq'),
        MessageBody: body,
        MessageAttributes: { DocketReason: { DataType: 'String', StringValue: 'request-not-json' } },
      }),
    ),
  ).rejects.toMatchObject({ name: 'AccessDenied' });
  // What the evaluate function cannot record goes to the rejects queue, with its reason and the requester's message.
  const unidentified = await sendMessage(w.sqs, w.queueUrl('intake'), { body: '{"facts": {}, "oops": ' });
  await io.submit(io.request('reused-1', 'vendor', LOW_RISK));
  await io.entryOf('reused-1');
  const reused = io.request('reused-1', 'vendor', '{"vendor":{"riskScore":"99","sanctioned":true}}');
  await io.submit(reused);
  const rejects = await io.drain(w.queueUrl('rejects'), 2, 30_000);
  expect(rejects.find((m) => m.body === '{"facts": {}, "oops": ')?.attributes).toMatchObject({
    DocketReason: 'request-not-json',
    DocketReasonMessage: expect.any(String),
    OriginalMessageId: unidentified,
  });
  expect(rejects.find((m) => m.body === reused)?.attributes).toMatchObject({
    DocketReason: 'request-id-reused',
    RequestId: 'reused-1',
  });
  // Nothing reached either DLQ, and a reject names no redrive source: the deleted request stays a finding.
  for (const q of ['intake-dlq', 'ledger-dlq.fifo'])
    expect((await getQueueAttributes(w.sqs, w.queueUrl(q))).ApproximateNumberOfMessages, q).toBe('0');
  const v = await verdict();
  expect(v.findings.filter((f) => f.requestId === 'planted-intake-1')).toEqual([
    { code: 'request-without-entry', requestId: 'planted-intake-1', requestDigest: digest },
  ]);
}, 180_000);

it('a deleted request’s bytes planted on the rejects queue, alone or in a ledger message, with a reason of the writer’s choice, excuse nothing: verify still reports the omission', async () => {
  await w.coldStart();
  const { body, digest } = await recordThenDelete('planted-reject-1');
  // Straight to the queue emulator, as the one principal the rejects queue's policy lets send (ADR 0492).
  const direct = createSqsClient({ endpoint: w.stack.sqsEndpoint, region: w.stack.region });
  try {
    for (const [messageBody, reason] of [
      [body, 'request-id-reused'],
      [ledgerMessage(body), 'ledger-message-invalid'],
    ] as const)
      await direct.send(
        new SendMessageCommand({
          QueueUrl: w.queueUrl('rejects'),
          MessageBody: messageBody,
          MessageAttributes: {
            DocketReason: { DataType: 'String', StringValue: reason },
            RequestId: { DataType: 'String', StringValue: 'planted-reject-1' },
          },
        }),
      );
  } finally {
    direct.destroy();
  }
  const v = await verdict();
  expect(v.ok).toBe(false);
  expect(v.findings.filter((f) => f.requestId === 'planted-reject-1')).toEqual([
    { code: 'request-without-entry', requestId: 'planted-reject-1', requestDigest: digest },
  ]);
  expect(v.summary.archive?.excused.filter((e) => e.requestId === 'planted-reject-1')).toEqual([]);
}, 180_000);

it('a deleted request re-archived with a first retention in the future is a finding while the path is busy, not in flight', async () => {
  // A cold start first: a warm writer's head cache still knows the entry the test above deleted.
  await w.coldStart();
  const { body, digest } = await recordThenDelete('future-1');
  await w.dynamodb.send(
    new DeleteItemCommand({
      TableName: w.env.REQUESTS_TABLE!,
      Key: { pk: { S: `request#${digest}` }, sk: { S: 'request' } },
    }),
  );
  const inAYear = Date.now() + 365 * 86_400_000;
  const forger = new DynamoDbRequestArchive({
    client: w.dynamodb,
    tableName: w.env.REQUESTS_TABLE!,
    now: () => inAYear,
  });
  await forger.put(new TextEncoder().encode(body));
  // A message waiting on the intake queue for the rest of the test: the path is busy, the in-flight excuse is open.
  await w.sqs.send(new SendMessageCommand({ QueueUrl: w.queueUrl('intake'), MessageBody: '{}', DelaySeconds: 900 }));
  const v = await verdict();
  expect(v.ok).toBe(false);
  expect(v.findings.filter((f) => f.requestId === 'future-1')).toEqual([
    {
      code: 'request-retained-in-future',
      requestId: 'future-1',
      requestDigest: digest,
      retainedAt: Math.floor(inAYear / 1000),
    },
  ]);
}, 180_000);

describe('with a short visibility timeout, so SQS’s own redrive (maxReceiveCount failed receives) happens in the test', () => {
  let r: E2eWorld;
  let rio: WorldIo;
  beforeAll(async () => {
    r = await startE2e({ stage: 'dlqr', visibilityTimeout: 1 });
    rio = await worldIo(r);
  }, 120_000);
  afterAll(async () => {
    await r?.stop();
  });

  it('a request SQS itself redrove from the ledger queue to its DLQ is excused as ledger-queue-redriven', async () => {
    // Retained, then on the FIFO ledger queue in a group that names no log: the evaluate function fails it on every
    // receive (not-a-log-group) and after maxReceiveCount receives SQS moves it to the DLQ, marking its source.
    const body = rio.request('redriven-1', 'vendor', LOW_RISK);
    const { digest } = await r.archive.put(new TextEncoder().encode(body));
    await r.sqs.send(
      new SendMessageCommand({
        QueueUrl: r.queueUrl('ledger.fifo'),
        MessageBody: body,
        MessageGroupId: 'not-a-log',
        MessageDeduplicationId: digest,
      }),
    );
    let excuse: { requestId: string; excuse: string; reason?: string } | undefined;
    for (const until = Date.now() + 90_000; excuse === undefined && Date.now() < until; await sleep(1000))
      excuse = (await verdict(r)).summary.archive?.excused.find(
        (e) => e.requestId === 'redriven-1' && e.excuse === 'dead-lettered',
      );
    expect(excuse).toEqual({
      requestId: 'redriven-1',
      requestDigest: digest,
      excuse: 'dead-lettered',
      reason: 'ledger-queue-redriven',
    });
  }, 180_000);

  it('each request of a ledger message SQS redrove from the ledger queue to its DLQ is excused as ledger-queue-redriven, and no other', async () => {
    // Three requests in one ledger message, as the sequence function packs an intake batch, in a group that names no
    // log: the evaluate function fails the message on every receive and SQS moves it, whole, to the DLQ. A fourth
    // request, archived too but in no message, is not excused by it.
    const ids = ['packed-1', 'packed-2', 'packed-3', 'packed-left-out'];
    const bodies = ids.map((id) => rio.request(id, 'vendor', LOW_RISK));
    const digests = await Promise.all(
      bodies.map(async (b) => (await r.archive.put(new TextEncoder().encode(b))).digest),
    );
    const message = ledgerMessage(...bodies.slice(0, 3));
    await sendToGroup(r, 'not-a-log', message);
    const deadLettered = (v: Verdict) =>
      (v.summary.archive?.excused ?? []).filter((e) => ids.includes(e.requestId) && e.excuse === 'dead-lettered');
    let excused: ReturnType<typeof deadLettered> = [];
    for (const until = Date.now() + 90_000; excused.length < 3 && Date.now() < until; await sleep(1000))
      excused = deadLettered(await verdict(r));
    expect(excused).toEqual(
      ids.slice(0, 3).map((requestId, i) => ({
        requestId,
        requestDigest: digests[i],
        excuse: 'dead-lettered',
        reason: 'ledger-queue-redriven',
      })),
    );
  }, 180_000);

  it('a corrupt ledger message on the ledger queue goes whole to the rejects queue, where SQS’s redrive never moves it, and excuses none of the requests in it', async () => {
    // A ledger message of one archived request with a byte past its end: the strict reader refuses it.
    const victim = rio.request('corrupt-victim-1', 'vendor', LOW_RISK);
    const { digest } = await r.archive.put(new TextEncoder().encode(victim));
    const corrupt = `${ledgerMessage(victim)} `;
    await sendToGroup(r, 'log-0', corrupt);
    const rejects = await rio.drain(r.queueUrl('rejects'), 1, 30_000);
    expect(rejects.find((m) => m.body === corrupt)?.attributes).toMatchObject({
      DocketReason: 'ledger-message-invalid',
    });
    const v = await verdict(r);
    expect(v.summary.archive?.excused.filter((e) => e.requestId === 'corrupt-victim-1')).toEqual([]);
    expect(v.findings.filter((f) => f.requestId === 'corrupt-victim-1')).toEqual([
      { code: 'request-without-entry', requestId: 'corrupt-victim-1', requestDigest: digest },
    ]);
  }, 180_000);
});
