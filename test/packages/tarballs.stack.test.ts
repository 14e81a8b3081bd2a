/**
 * The library packages proved from the outside (docs/adr/0440-packages-built-from-the-repository-folders.md): each
 * is built and packed (`npm pack`), the tarballs are installed into a fresh project in a temporary directory with
 * nothing from this repository on its path, and there
 * - a TypeScript file using every exported function type-checks under `strict` (test/packages/project/check.ts),
 *   internal paths are not importable, and no dependency the user did not ask for (aws-cdk-lib) was installed;
 * - a consumer built with @docket/consumer reads the local stack's route queue: a genuine handoff is handled once
 *   across redeliveries (claims in a DynamoDB table, across processes), a forged one (entry altered, signature kept)
 *   and a genuine one copied onto the wrong route queue land on the route DLQ with their DocketReason, and the
 *   handler reports exactly the records it could not finish in batchItemFailures;
 * - a requester built with @docket/client submits and receives its verified results, while a forged notification
 *   published on the results topic for one of its requests is reported and never yielded.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import canonicalize from 'canonicalize';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { ListSubscriptionsByTopicCommand, PublishCommand } from '@aws-sdk/client-sns';
import { ListQueuesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { handoffId } from '../../core/pipeline/handoff-message.js';
import { buildPackages, OUT_DIR, packPackage } from '../../scripts/build-packages.mjs';
import { startE2e, type E2eWorld } from '../e2e/harness.js';
import { ex, sleep, worldIo, type WorldIo } from '../e2e/world-io.js';

/** The library packages; @docket/cdk and the CLI are proved by their own lane. */
const LIBRARIES = ['verify', 'consumer', 'client'];
const FIXTURES = join(import.meta.dirname, 'project');
const project = mkdtempSync(join(tmpdir(), 'docket-packages-'));
/** The child processes' environment: this Node first on PATH, nothing of the repository (no NODE_PATH, no cwd). */
const env = {
  PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
  HOME: process.env.HOME ?? tmpdir(),
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? tmpdir(), '.npm'),
};

/** Runs a command in the project; resolves with its exit code and output (never rejects). */
function run(cmd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const p = spawn(cmd, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => done({ code: code ?? -1, out, err }));
  });
}

/** Runs one of the project's scripts with a JSON configuration; resolves with its JSON output. */
async function script<T>(name: string, config: Record<string, unknown>): Promise<T> {
  const file = join(project, `${name}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const r = await run(process.execPath, [join(project, `${name}.mjs`), file]);
  if (r.code !== 0) throw new Error(`${name}.mjs exited ${r.code}: ${r.err}`);
  return JSON.parse(r.out) as T;
}

let w: E2eWorld;
let io: WorldIo;
let routeQueues: Record<string, string>;
let genuineEntry: string;
/** This run's own build directory (under dist/packages, so the build resolves the repository's node_modules). */
let built: string;

beforeAll(async () => {
  const tarballs: string[] = [];
  mkdirSync(OUT_DIR, { recursive: true });
  built = mkdtempSync(join(OUT_DIR, '.tarballs-'));
  for (const { dir } of await buildPackages(LIBRARIES, { outRoot: built })) tarballs.push(packPackage(dir));
  writeFileSync(join(project, 'package.json'), '{ "name": "docket-user", "private": true, "type": "module" }\n');
  for (const f of ['check.ts', 'tsconfig.json', 'consume.mjs', 'request.mjs'])
    copyFileSync(join(FIXTURES, f), join(project, f));
  const install = await run('npm', [
    'install',
    ...tarballs,
    'typescript@5.9',
    '@types/node@24',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
  ]);
  if (install.code !== 0) throw new Error(`npm install failed: ${install.err}`);
  // A receive that was in flight when a test stops the evaluate poller can hide a record until its visibility
  // timeout passes; a short one keeps that within the client's 90 s wait (the append protocol makes any redelivery
  // one entry).
  w = await startE2e({ stage: 'pkg', visibilityTimeout: 10 });
  io = await worldIo(w);
  routeQueues = Object.fromEntries(
    (JSON.parse(readFileSync(w.routesPath, 'utf8')) as { kind: string; name: string; queue: string }[]).map((r) => [
      `${r.kind}:${r.name}`,
      r.queue,
    ]),
  );
}, 600_000);
afterAll(async () => {
  await w?.stop();
  rmSync(project, { recursive: true, force: true });
  if (built !== undefined) rmSync(built, { recursive: true, force: true });
});

describe('the installed packages', () => {
  it('type-check under strict in a fresh project: every exported function, with the types the packages ship', async () => {
    const r = await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
    expect(r.out + r.err).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);

  it('expose only their exports map and install no dependency the user did not ask for', async () => {
    const internal = await run(process.execPath, [
      '--input-type=module',
      '-e',
      "await import('@docket/verify/types/core/pipeline/handoff-verdict.js')",
    ]);
    expect(internal.err).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
    const pub = await run(process.execPath, [
      '--input-type=module',
      '-e',
      "const v = await import('@docket/verify'); process.stdout.write(v.HANDOFF_REJECTIONS.join(','))",
    ]);
    expect(pub.out).toContain('signature-mismatch');
    for (const unasked of ['aws-cdk-lib', 'constructs', 'ajv', 'sodium-native'])
      expect(existsSync(join(project, 'node_modules', unasked)), unasked).toBe(false);
  });
});

/** The genuine handoff's bytes on `queue`, read without consuming it (visibility 0 leaves it there). */
async function peek(queue: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const r = await w.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: w.queueUrl(queue), MaxNumberOfMessages: 1, VisibilityTimeout: 0 }),
    );
    const body = r.Messages?.[0]?.Body;
    if (body !== undefined) return body;
    await sleep(100);
  }
  throw new Error(`no handoff arrived on ${queue}`);
}

interface ConsumerRun {
  records: { messageId: string; body: string }[];
  response: { batchItemFailures: { itemIdentifier: string }[] };
  handled: { handoffId: string; requestId: string; routeIndex: number }[];
  refused: { messageId: string; reason: string }[];
}

describe('a consumer built with @docket/consumer on the route queue', () => {
  it('handles a genuine handoff once across redeliveries, dead-letters a forged and a misrouted one with their reasons, and reports the records to retry', async () => {
    await io.submit(
      io.request(
        'pkg-h1',
        'triage',
        ex('requests/triage-complete-appropriate.facts.json'),
        ex('requests/triage-instance-7b.evidence.json'),
      ),
    );
    const oversight = routeQueues['human-role:Oversight']!;
    const genuine = await peek(`route-${oversight}`);
    genuineEntry = JSON.parse(genuine).entry as string;
    // A genuine handoff of the same entry for another of its routes, copied unchanged onto the oversight queue.
    const routes = (
      JSON.parse(genuineEntry) as { disposition: { handoff: { routes: { kind: string; name: string }[] } } }
    ).disposition.handoff.routes;
    const other = routes.map((r) => routeQueues[`${r.kind}:${r.name}`]).find((q) => q !== undefined && q !== oversight);
    expect(other).toBeDefined();
    const misrouted = await peek(`route-${other!}`);
    const m = JSON.parse(genuine) as Record<string, unknown>;
    const altered = genuineEntry.replace('"requestId":"pkg-h1"', '"requestId":"pkg-h2"');
    expect(altered).not.toBe(genuineEntry);
    const forged = canonicalize({
      ...m,
      entry: altered,
      handoffId: handoffId(entryHashOf(altered), m.routeIndex as number),
    })!;
    for (const body of [genuine, forged, misrouted])
      await w.sqs.send(new SendMessageCommand({ QueueUrl: w.queueUrl(`route-${oversight}`), MessageBody: body }));
    await w.dynamodb.send(
      new CreateTableCommand({
        TableName: 'pkg-seen-handoffs',
        KeySchema: [{ AttributeName: 'handoffId', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'handoffId', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    const config = {
      endpoint: w.stack.endpoint,
      region: w.stack.region,
      queueUrl: w.queueUrl(`route-${oversight}`),
      dlqUrl: w.queueUrl(`route-${oversight}-dlq`),
      policyPath: w.policyPath,
      routeQueue: { key: oversight, routeQueues },
      seenTable: 'pkg-seen-handoffs',
    };
    // 1. The downstream system is down: both copies of the genuine handoff are left to retry; refusals are not.
    const first = await script<ConsumerRun>('consume', { ...config, expect: 4, failHandle: true });
    expect(first.records).toHaveLength(4);
    const idOf = (r: ConsumerRun, body: string) => r.records.filter((x) => x.body === body).map((x) => x.messageId);
    expect(first.response.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(idOf(first, genuine).sort());
    expect(first.handled).toEqual([]);
    expect(first.refused.map((r) => [r.messageId, r.reason]).sort()).toEqual(
      [
        [idOf(first, forged)[0], 'signature-mismatch'],
        [idOf(first, misrouted)[0], 'wrong-queue'],
      ].sort(),
    );
    // 2. Redelivered: handled once, the second copy acknowledged as a repeat.
    const second = await script<ConsumerRun>('consume', { ...config, expect: 2 });
    expect(second.records.map((r) => r.body)).toEqual([genuine, genuine]);
    expect(second.response).toEqual({ batchItemFailures: [] });
    expect(second.handled).toEqual([{ handoffId: m.handoffId, requestId: 'pkg-h1', routeIndex: m.routeIndex }]);
    // 3. Re-sent once more, to another process: the DynamoDB claim makes it a repeat there too.
    await w.sqs.send(new SendMessageCommand({ QueueUrl: config.queueUrl, MessageBody: genuine }));
    const third = await script<ConsumerRun>('consume', { ...config, expect: 1 });
    expect([third.records.length, third.handled, third.response.batchItemFailures]).toEqual([1, [], []]);
    const dlq = await io.drain(config.dlqUrl, 2);
    expect(dlq.map((d) => [d.body, d.attributes.DocketReason]).sort()).toEqual(
      [
        [forged, 'signature-mismatch'],
        [misrouted, 'wrong-queue'],
      ].sort(),
    );
  }, 180_000);
});

interface RequesterRun {
  submitted: string[];
  failed: unknown[];
  results: { requestId: string; kind: string }[];
  refused: { reason: string; detail: string }[];
  again: string[];
  unknown: string;
}

describe('a requester built with @docket/client', () => {
  it('gets the verified results of what it submitted, and a forged notification for its request is reported, never yielded', async () => {
    expect(genuineEntry).toBeDefined();
    const topic = w.deliverEnv.RESULTS_TOPIC_ARN!;
    const config = {
      endpoint: w.stack.endpoint,
      region: w.stack.region,
      intakeQueueUrl: w.queueUrl('intake'),
      resultsTopicArn: topic,
      ledgerTable: w.env.LEDGER_TABLE!,
      policyPath: w.policyPath,
      pack: `sha256:${io.digests.vendor}`,
    };
    // Nothing is evaluated until the forged notification was published to the listening client.
    await w.poller.stop();
    const running = script<RequesterRun>('request', config);
    const subscribed = async (): Promise<boolean> => {
      const queues = (await w.sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'docket-pkg-wait-' }))).QueueUrls;
      const name = queues?.[0]?.split('/').at(-1);
      if (name === undefined) return false;
      const subs = await w.sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: topic }));
      return (subs.Subscriptions ?? []).some((s) => s.Endpoint?.endsWith(`:${name}`));
    };
    const started = Date.now();
    while (!(await subscribed()) && Date.now() - started < 60_000) await sleep(100);
    // A genuine entry with its request id changed to the awaited one, the signature kept.
    const edited = genuineEntry.replace('"requestId":"pkg-h1"', '"requestId":"pkg-c1"');
    await w.sns.send(
      new PublishCommand({
        TopicArn: topic,
        Message: canonicalize({ format: 'docket.result/2', notificationId: entryHashOf(edited), entry: edited })!,
        MessageAttributes: { requestId: { DataType: 'String', StringValue: 'pkg-c1' } },
      }),
    );
    await w.coldStart();
    const r = await running;
    expect(r.submitted).toEqual(['pkg-c1', 'pkg-c2', 'pkg-c3']);
    expect(r.failed).toEqual([]);
    expect(r.results.map((x) => [x.requestId, x.kind]).sort()).toEqual([
      ['pkg-c1', 'disposition'],
      ['pkg-c2', 'disposition'],
      ['pkg-c3', 'disposition'],
    ]);
    expect(r.refused).toContainEqual(expect.objectContaining({ reason: 'signature-mismatch' }));
    expect(r.again).toEqual(['pkg-c1']);
    expect(r.unknown).toBe('not-submitted-here');
    expect((await w.sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'docket-pkg-wait-' }))).QueueUrls ?? []).toEqual(
      [],
    );
  }, 240_000);

  it("fetches a receipt of its result once a checkpoint covers it, verified under the client's policy", async () => {
    const verified = await w.verify(); // checkpoints every log
    expect(verified.exitCode, verified.stderr).toBe(0);
    const r = await script<{ receipt: { ok: boolean; verdict?: { ok: boolean; findings: unknown[] } } }>('request', {
      endpoint: w.stack.endpoint,
      region: w.stack.region,
      intakeQueueUrl: w.queueUrl('intake'),
      resultsTopicArn: w.deliverEnv.RESULTS_TOPIC_ARN!,
      ledgerTable: w.env.LEDGER_TABLE!,
      policyPath: w.policyPath,
      receiptOf: 'pkg-c1',
    });
    expect(r.receipt).toMatchObject({ ok: true, verdict: { ok: true, findings: [] } });
  }, 120_000);
});
