/**
 * The local stack keeps what it accepted (ADR 0111, ADR 0112): with its data directory, tables, queue messages with
 * their receive counts and visibility, dead-letter messages and S3 objects survive a graceful stop and a SIGKILL;
 * a dead stack is never reported running, and `start` cleans it up — killing a wedged stack process, never a
 * process that merely reuses its pid.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createDynamoDbClient, createSqsClient, LOCAL_CREDENTIALS } from '../../adapters/aws-clients.js';
import { sendMessages } from '../../adapters/sqs.js';
import { probeStack, startDaemon, stopDaemon, type StackState } from '../../localstack/daemon.js';
import { buildServeEntry } from './build-serve.js';

let entry: string;
let work: string;
const STAGE = 'dur';

beforeAll(async () => {
  entry = await buildServeEntry();
  work = mkdtempSync(join(tmpdir(), 'docket-durable-'));
});
afterAll(async () => {
  for (const dir of ['a', 'b', 'c']) await stopDaemon({ stateDir: join(work, dir) }).catch(() => undefined);
  rmSync(dirname(entry), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Alive and not a zombie (a killed child this process has not reaped yet still takes signal 0). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const attrs = async (sqs: SQSClient, url: string): Promise<Record<string, number>> => {
  const a = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }));
  return {
    visible: Number(a.Attributes?.ApproximateNumberOfMessages),
    inFlight: Number(a.Attributes?.ApproximateNumberOfMessagesNotVisible),
  };
};

const s3Of = (s: StackState): S3Client =>
  new S3Client({ endpoint: s.endpoint, region: s.region, credentials: { ...LOCAL_CREDENTIALS }, forcePathStyle: true });

const exportBucket = (s: StackState): string => {
  const b = Object.entries(s.buckets).find(([id]) => id.startsWith('CheckpointsExport'))?.[1];
  if (!b) throw new Error('the template defines no checkpoint export bucket');
  return b;
};

describe('the local stack with its data directory', () => {
  it('keeps tables, messages with their receive counts and visibility, DLQ messages and S3 objects across a graceful stop and a SIGKILL', async () => {
    const stateDir = join(work, 'a');
    const first = await startDaemon({ stateDir, port: 0, stage: STAGE, entry });
    const intake = first.queues[`docket-${STAGE}-intake`]!;
    // A DLQ a function sends to (the request path's DLQs refuse every send: only SQS's redrive fills them, ADR 0492).
    const dlq = first.queues[`docket-${STAGE}-delivery-dlq`]!;
    let ddb = createDynamoDbClient({ endpoint: first.endpoint });
    let sqs = createSqsClient({ endpoint: first.endpoint });
    let s3 = s3Of(first);
    await ddb.send(
      new PutItemCommand({
        TableName: `docket-${STAGE}-ledger`,
        Item: { pk: { S: 'log#x' }, sk: { N: '0' }, body: { S: 'kept' } },
      }),
    );
    await sendMessages(sqs, intake, [{ body: 'held' }]);
    await sendMessages(sqs, dlq, [{ body: 'dead' }]);
    // Received for ten minutes: invisible across every restart below.
    const held = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: intake, MaxNumberOfMessages: 1, VisibilityTimeout: 600 }),
    );
    expect(held.Messages?.map((m) => m.Body)).toEqual(['held']);
    // Received once for a second: visible again before the stop, with a receive count of 1.
    await sendMessages(sqs, intake, [{ body: 'once' }]);
    const once = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: intake, MaxNumberOfMessages: 1, VisibilityTimeout: 1 }),
    );
    expect(once.Messages?.map((m) => m.Body)).toEqual(['once']);
    await sendMessages(sqs, intake, [{ body: 'never' }]);
    await new Promise((r) => setTimeout(r, 1_200));
    // The export bucket is the template's, with the same key layout the checkpoint function uses in AWS.
    await s3.send(new PutObjectCommand({ Bucket: exportBucket(first), Key: 'checkpoints/t0.json', Body: '{"x":1}' }));
    ddb.destroy();
    sqs.destroy();
    s3.destroy();

    const stopped = await stopDaemon({ stateDir });
    expect(stopped).toMatchObject({ stopped: true, killed: false });
    const counted = stopped.stopped ? stopped.report?.queues : undefined;
    // fauxqs counts a message whose visibility ended as in flight until the next receive looks at it: the total is exact.
    const intakeCount = counted?.find((q) => q.queue === `docket-${STAGE}-intake`);
    expect((intakeCount?.waiting ?? 0) + (intakeCount?.inFlight ?? 0)).toBe(3);
    expect(intakeCount?.inFlight).toBeGreaterThanOrEqual(1);
    expect(counted?.find((q) => q.queue === `docket-${STAGE}-delivery-dlq`)).toMatchObject({ waiting: 1 });

    const second = await startDaemon({ stateDir, port: 0, stage: STAGE, entry });
    sqs = createSqsClient({ endpoint: second.endpoint });
    expect(await attrs(sqs, intake.replace(first.endpoint, second.endpoint))).toEqual({ visible: 2, inFlight: 1 });
    expect(await attrs(sqs, second.queues[`docket-${STAGE}-delivery-dlq`]!)).toEqual({ visible: 1, inFlight: 0 });
    sqs.destroy();

    // A crash: no drain, no stop report, no state file removal.
    process.kill(second.pid, 'SIGKILL');
    const dead = await probeStack(stateDir);
    expect(dead.status).toBe('dead');
    const third = await startDaemon({ stateDir, port: 0, stage: STAGE, entry });
    expect(third.alreadyRunning).toBe(false);
    sqs = createSqsClient({ endpoint: third.endpoint });
    ddb = createDynamoDbClient({ endpoint: third.endpoint });
    s3 = s3Of(third);
    const url = third.queues[`docket-${STAGE}-intake`]!;
    expect(await attrs(sqs, url)).toEqual({ visible: 2, inFlight: 1 });
    // Receive counts survive both restarts: "once" is received for the second time, "never" for the first.
    const again = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        MessageSystemAttributeNames: ['ApproximateReceiveCount'],
      }),
    );
    const byBody = Object.fromEntries(
      (again.Messages ?? []).map((m) => [m.Body, m.Attributes?.ApproximateReceiveCount]),
    );
    expect(byBody).toEqual({ once: '2', never: '1' });
    const item = await ddb.send(
      new GetItemCommand({ TableName: `docket-${STAGE}-ledger`, Key: { pk: { S: 'log#x' }, sk: { N: '0' } } }),
    );
    expect(item.Item?.body?.S).toBe('kept');
    const obj = await s3.send(new GetObjectCommand({ Bucket: exportBucket(third), Key: 'checkpoints/t0.json' }));
    expect(await obj.Body?.transformToString()).toBe('{"x":1}');
    sqs.destroy();
    ddb.destroy();
    s3.destroy();
    await stopDaemon({ stateDir });
  });

  it('reports a stack that stopped answering as dead, kills it, and starts a new one on the same data', async () => {
    const stateDir = join(work, 'b');
    const first = await startDaemon({ stateDir, port: 0, dataDir: null, stage: STAGE, entry });
    process.kill(first.pid, 'SIGSTOP'); // alive, holding its port, answering nothing
    try {
      const next = await startDaemon({ stateDir, port: 0, dataDir: null, stage: STAGE, entry });
      expect(next.alreadyRunning).toBe(false);
      expect(next.recovered).toMatch(/no longer answered and was killed/);
      expect(next.pid).not.toBe(first.pid);
      expect(isAlive(first.pid)).toBe(false);
      expect((await probeStack(stateDir)).status).toBe('running');
    } finally {
      if (isAlive(first.pid)) process.kill(first.pid, 'SIGKILL');
      await stopDaemon({ stateDir });
    }
  });

  it('never kills a process that only reuses a dead stack pid, and never reports that stack running', async () => {
    const stateDir = join(work, 'c');
    const closed = await startDaemon({ stateDir, port: 0, dataDir: null, stage: STAGE, entry });
    await stopDaemon({ stateDir });
    // A stale state file naming this test's own (live, unrelated) process and the old, now closed, endpoint.
    writeFileSync(join(stateDir, 'stack.json'), JSON.stringify({ ...closed, pid: process.pid }));
    const probe = await probeStack(stateDir);
    expect(probe).toMatchObject({ status: 'dead', cleaned: expect.stringMatching(/another program/) });
    expect((await probeStack(stateDir)).status).toBe('none');
    expect(await stopDaemon({ stateDir })).toEqual({ stopped: false });
  });
});
