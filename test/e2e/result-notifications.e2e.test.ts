/**
 * Result notifications over the wire (docs/pipeline.md "Result notifications"): the local stack's results topic
 * (fauxqs 2's SNS behind the edge, provisioned from the CDK template) and the real evaluate runtime publishing to
 * it. Outside clients — the AWS CLI when it is installed, and always the AWS SDK v3 — subscribe queues of their own
 * with the filter policy {"kind":["evaluation-error"]}; of one request that succeeds and one whose work budget is
 * too small, exactly the error's notification arrives.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { readResultNotification } from '../../core/pipeline/result-notification.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';

/** A docket.result/2 notification as read, with its signed entry's members alongside its id and coordinates. */
type ResultNotification = SignedEntry & {
  readonly notificationId: string;
  readonly ledger: { logId: string; seq: number; entryHash: string };
};
import { startE2e, type E2eWorld } from './harness.js';
import { enc, ex, worldIo, type WorldIo } from './world-io.js';

const run = promisify(execFile);
let w: E2eWorld;
let io: WorldIo;
let topicArn: string;

/** The AWS CLI on PATH, or undefined (CI machines may lack it; .ci/run installs Debian's awscli then). */
async function awsCli(): Promise<string | undefined> {
  try {
    await run('aws', ['--version'], { timeout: 30_000 });
    return 'aws';
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  w = await startE2e({ stage: 'e2e-results' });
  io = await worldIo(w);
  topicArn = w.deliverEnv.RESULTS_TOPIC_ARN!;
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

interface Listener {
  readonly who: string;
  receive(waitSeconds: number): Promise<ResultNotification[]>;
}

/** A queue of the SDK's own, subscribed with the SDK (SNS envelope delivery: the notification is `Message`). */
async function sdkListener(filterPolicy: string | undefined, name: string): Promise<Listener> {
  const sns = new SNSClient({ endpoint: w.stack.endpoint, region: w.stack.region, credentials: CREDENTIALS });
  const url = (await w.sqs.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;
  const arn = (await w.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] })))
    .Attributes!.QueueArn!;
  await sns.send(
    new SubscribeCommand({
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: arn,
      ...(filterPolicy ? { Attributes: { FilterPolicy: filterPolicy } } : {}),
    }),
  );
  sns.destroy();
  return {
    who: `sdk:${name}`,
    async receive(waitSeconds) {
      const r = await w.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds }),
      );
      const out: ResultNotification[] = [];
      for (const m of r.Messages ?? []) {
        const envelope = JSON.parse(m.Body!) as { Message: string };
        out.push(strict(envelope.Message));
        await w.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
      }
      return out;
    },
  };
}

/** A queue made and subscribed by the AWS CLI (raw delivery: the message body is the notification itself). */
async function cliListener(aws: string, filterPolicy: string, name: string): Promise<Listener> {
  const env = {
    ...process.env,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_DEFAULT_REGION: w.stack.region,
    AWS_PAGER: '',
  };
  const cli = async (...args: string[]): Promise<Record<string, unknown>> => {
    const { stdout } = await run(aws, ['--endpoint-url', w.stack.endpoint, '--output', 'json', ...args], {
      env,
      timeout: 60_000,
    });
    return stdout.trim() === '' ? {} : (JSON.parse(stdout) as Record<string, unknown>);
  };
  const url = (await cli('sqs', 'create-queue', '--queue-name', name)).QueueUrl as string;
  const attrs = await cli('sqs', 'get-queue-attributes', '--queue-url', url, '--attribute-names', 'QueueArn');
  const arn = (attrs.Attributes as Record<string, string>).QueueArn!;
  const sub = await cli(
    'sns',
    'subscribe',
    '--topic-arn',
    topicArn,
    '--protocol',
    'sqs',
    '--notification-endpoint',
    arn,
    '--attributes',
    JSON.stringify({ FilterPolicy: filterPolicy, RawMessageDelivery: 'true' }),
  );
  expect(sub.SubscriptionArn).toMatch(/^arn:aws:sns:/);
  return {
    who: `aws-cli:${name}`,
    async receive(waitSeconds) {
      const r = await cli(
        'sqs',
        'receive-message',
        '--queue-url',
        url,
        '--max-number-of-messages',
        '10',
        '--wait-time-seconds',
        String(waitSeconds),
        '--message-attribute-names',
        'All',
      );
      const out: ResultNotification[] = [];
      for (const m of (r.Messages as { Body: string; ReceiptHandle: string }[] | undefined) ?? []) {
        out.push(strict(m.Body));
        await cli('sqs', 'delete-message', '--queue-url', url, '--receipt-handle', m.ReceiptHandle);
      }
      return out;
    },
  };
}

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

function strict(body: string): ResultNotification {
  const r = readResultNotification(enc.encode(body));
  if (!r.ok) throw new Error(`not a docket.result/2 notification: ${r.error.message}`);
  if (r.value.entry === null) throw new Error('an entry this small is carried, not omitted');
  return { ...r.value.entry.entry, notificationId: r.value.notificationId, ledger: r.value.ledger };
}

/** Everything that arrives until `expected` notifications are in, then whatever else arrives within two seconds. */
async function collect(l: Listener, expected: number): Promise<ResultNotification[]> {
  const got: ResultNotification[] = [];
  const until = Date.now() + 30_000;
  while (got.length < expected && Date.now() < until) got.push(...(await l.receive(2)));
  got.push(...(await l.receive(2)));
  return got;
}

describe('result notifications on the local stack', () => {
  it('a queue subscribed with {"kind":["evaluation-error"]} receives exactly the error of one success and one over-budget request', async () => {
    const filter = JSON.stringify({ kind: ['evaluation-error'] });
    const aws = await awsCli();
    const listeners: Listener[] = [await sdkListener(filter, 'outside-sdk-errors')];
    if (aws) listeners.push(await cliListener(aws, filter, 'outside-cli-errors'));
    else console.warn('aws CLI not on PATH: checked with the AWS SDK v3 client only');
    // Without a filter both notifications arrive: proof the success was published and filtered out above.
    const everything = await sdkListener(undefined, 'outside-sdk-all');

    const facts = ex('requests/triage-complete-appropriate.facts.json');
    const evidence = ex('requests/triage-all-present.evidence.json');
    await io.submit(io.request('res-ok', 'triage', facts, evidence));
    await io.submit(io.request('res-budget', 'triage', facts, evidence, ',"workBudget":10'));
    const ok = await io.entryOf('res-ok');
    const failed = await io.entryOf('res-budget');
    expect([ok.entry.kind, failed.entry.kind]).toEqual(['disposition', 'evaluation-error']);

    const all = await collect(everything, 2);
    expect(all.map((n) => [n.requestId, n.kind]).sort()).toEqual([
      ['res-budget', 'evaluation-error'],
      ['res-ok', 'disposition'],
    ]);
    expect(listeners.length).toBeGreaterThanOrEqual(1);
    for (const l of listeners) {
      const got = await collect(l, 1);
      expect(got.length, l.who).toBe(1);
      expect(got[0], l.who).toMatchObject({
        kind: 'evaluation-error',
        requestId: 'res-budget',
        notificationId: failed.entryHash,
        ledger: { logId: failed.logId, seq: failed.seq, entryHash: failed.entryHash },
        error: { class: 'resource-exhaustion' },
      });
    }
  }, 180_000);
});
