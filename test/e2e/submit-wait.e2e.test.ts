/**
 * `docket submit --wait` over the local stack (docs/pipeline.md "Result notifications"): the command subscribes a
 * short-lived queue to the results topic, submits, prints each request's result as its notification arrives, and
 * removes its queue afterwards — on success and on timeout. A result is printed only once its signed entry verifies
 * under the stack's trust policy and records the request sent (ADR 0290): forged notifications never print.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { ListQueuesCommand } from '@aws-sdk/client-sqs';
import { ListSubscriptionsByTopicCommand, PublishCommand } from '@aws-sdk/client-sns';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as submit } from '../../cli/commands/submit.js';
import { run as evaluate } from '../../cli/commands/evaluate.js';
import { startE2e, type E2eWorld } from './harness.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

let w: E2eWorld;
let stackFlags: string[];
/** The stack flags and this stack's trust policy, under which --wait proves each result. */
let waitFlags: string[];
/** The --json line of the first test's genuine result, which the forger copies. */
let genuineLine: { entry: string } | undefined;
let triage: string;
const dir = mkdtempSync(join(tmpdir(), 'docket-wait-e2e-'));
const ex = (p: string) => join(process.cwd(), 'examples', p);
const VENDOR = 'https://packs.example.org/procurement/vendor-onboarding@2.1.0';

beforeAll(async () => {
  w = await startE2e({ stage: 'wait' });
  stackFlags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', 'wait'];
  waitFlags = [...stackFlags, '--policy', w.policyPath];
  const io = memoryIo();
  expect(
    await publish([ex('vendor-onboarding-target.json'), ex('data-request-intake-triage.json'), ...stackFlags], io),
  ).toBe(0);
  triage = /^(sha256:[0-9a-f]{64}) .*intake-triage/m.exec(io.out())![1]!;
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(cmd: (argv: string[], io: ReturnType<typeof memoryIo>) => Promise<number>, argv: string[]) {
  const io = memoryIo();
  const code = await cmd(argv, io);
  return { code, out: io.out(), err: io.err() };
}

async function waitQueues(): Promise<string[]> {
  const r = await w.sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'docket-wait-wait-' }));
  return r.QueueUrls ?? [];
}

describe('docket submit --wait', () => {
  it('prints the same disposition docket evaluate gives for the same files, with ledger coordinates, and removes its queue', async () => {
    const files = [
      '--facts',
      ex('requests/vendor-no-match.facts.json'),
      '--evidence',
      ex('requests/vendor-certificate.evidence.json'),
    ];
    const waited = await cli(submit, ['--pack', VENDOR, ...files, '--id', 'wait-1', '--wait', '--json', ...waitFlags]);
    expect(waited.err).toBe('');
    expect(waited.code).toBe(0);
    const lines = waited.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const got = JSON.parse(lines[0]!) as Record<string, unknown> & { entry: string };
    genuineLine = got;
    const local = await cli(evaluate, ['--pack', ex('vendor-onboarding-target.json'), ...files]);
    expect(local.code).toBe(0);
    const expected = JSON.parse(local.out) as { disposition: unknown; work: number };
    expect([got.requestId, got.kind, got.disposition, got.work]).toEqual([
      'wait-1',
      'disposition',
      expected.disposition,
      expected.work,
    ]);
    const e = await findPosition(w.store, 'wait-1');
    expect(got.ledger).toMatchObject({ logId: e!.logId, seq: e!.seq });
    expect(await waitQueues()).toEqual([]);
  }, 120_000);

  it('waits for every line of a file, printing one human line per request, errors included', async () => {
    const facts = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
    const file = join(dir, 'batch.jsonl');
    writeFileSync(
      file,
      [
        `{"requestId":"wf-1","facts":${facts},"evidence":{"tax-certificate":"present"}}`,
        `{"requestId":"wf-2","pack":"${triage}","facts":${readFileSync(ex('requests/triage-complete-appropriate.facts.json'), 'utf8').trim()},"workBudget":10}`,
        `{"requestId":"wf-3","facts":${facts},"pack":"nope@1"}`,
      ].join('\n'),
    );
    const r = await cli(submit, ['--file', file, '--pack', VENDOR, '--wait', ...waitFlags]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split('\n').sort();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^wf-1 {2}outcome onboard {2}\(wait-\d+ #\d+\)$/);
    expect(lines[1]).toMatch(/^wf-2 {2}evaluation error resource-exhaustion \(\w+\) /);
    expect(lines[2]).toMatch(/^wf-3 {2}admission refusal unknown-pack-alias /);
    expect(r.err).toContain('3/3'); // the progress bar
    expect(await waitQueues()).toEqual([]);
  }, 120_000);

  it('exits 1 naming the requests without a result when the timeout passes, and still removes its queue', async () => {
    await w.poller.stop(); // nothing is evaluated any more: no result can arrive
    const r = await cli(submit, [
      '--pack',
      VENDOR,
      '--facts',
      ex('requests/vendor-no-match.facts.json'),
      '--id',
      'wait-late',
      '--wait',
      '--timeout',
      '2',
      ...waitFlags,
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/no result within 2 s for 1 request\(s\):\n {2}wait-late\n/);
    expect(await waitQueues()).toEqual([]);
  }, 60_000);

  it('on Ctrl-C stops waiting, lists the request as without a result and removes its queue', async () => {
    // The poller is stopped (previous test): the wait would last 60 s without the interrupt.
    const before = process.listenerCount('SIGINT');
    const running = cli(submit, [
      '--pack',
      VENDOR,
      '--facts',
      ex('requests/vendor-no-match.facts.json'),
      '--id',
      'wait-interrupted',
      '--wait',
      '--timeout',
      '60',
      ...waitFlags,
    ]);
    const started = Date.now();
    while (process.listenerCount('SIGINT') === before && Date.now() - started < 20_000)
      await new Promise((r) => setTimeout(r, 50));
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    process.emit('SIGINT');
    const r = await running;
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/interrupted; removing the wait queue/);
    expect(r.err).toMatch(/interrupted before the result of 1 request\(s\):\n {2}wait-interrupted\n/);
    expect(process.listenerCount('SIGINT')).toBe(before);
    expect(await waitQueues()).toEqual([]);
  }, 60_000);

  it('never prints a forged result published for the waiting request: each is reported on stderr with its reason', async () => {
    // The poller is stopped: only the attacker's notifications can arrive. Each is copied from a genuine one.
    expect(genuineLine).toBeDefined();
    const plain = JSON.parse(genuineLine!.entry) as Record<string, unknown>;
    const reject = { kind: 'outcome', outcomeId: 'reject', reasons: [], handoff: { state: 'none' } };
    const edited = canonicalize({
      ...plain,
      requestId: 'wait-forged',
      disposition: reject,
      dispositionDigest: createHash('sha256').update(canonicalize(reject)!).digest('hex'),
    })!;
    const v2 = (entry: string) =>
      canonicalize({ format: 'docket.result/2', notificationId: entryHashOf(entry), entry })!;
    const forgeries = [
      v2(edited), // id and outcome changed, the signature kept
      v2(genuineLine!.entry), // a genuine result of another request
      canonicalize({ format: 'docket.result/1', requestId: 'wait-forged', kind: 'disposition', disposition: reject })!,
    ];
    const running = cli(submit, [
      '--pack',
      VENDOR,
      '--facts',
      ex('requests/vendor-no-match.facts.json'),
      '--id',
      'wait-forged',
      '--wait',
      '--json',
      '--timeout',
      '6',
      ...waitFlags,
    ]);
    // Publish only once the wait queue is subscribed: a publish before that reaches nobody, under any load.
    const subscribed = async (): Promise<boolean> => {
      const queues = await waitQueues();
      if (queues.length === 0) return false;
      const name = queues[0]!.split('/').at(-1)!;
      const subs = await w.sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: w.deliverEnv.RESULTS_TOPIC_ARN! }));
      return (subs.Subscriptions ?? []).some((x) => x.Endpoint?.endsWith(`:${name}`));
    };
    const started = Date.now();
    while (!(await subscribed()) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
    for (const body of forgeries)
      await w.sns.send(
        new PublishCommand({
          TopicArn: w.deliverEnv.RESULTS_TOPIC_ARN!,
          Message: body,
          MessageAttributes: {
            requestId: { DataType: 'String', StringValue: 'wait-forged' },
            kind: { DataType: 'String', StringValue: 'disposition' },
          },
        }),
      );
    const r = await running;
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/refused a result notification: signature-mismatch: .*\(request wait-forged\)/);
    expect(r.err).toMatch(/refused a result notification: entry-not-awaited: it records request wait-1/);
    expect(r.err).toMatch(/refused a result notification: unsupported-format: .*no signed entry/);
    expect(r.err).toMatch(/no result within 6 s for 1 request\(s\):\n {2}wait-forged\n/);
    expect(await waitQueues()).toEqual([]);
  }, 60_000);

  it('refuses --json or --timeout without --wait', async () => {
    const r = await cli(submit, ['--pack', VENDOR, '--facts', ex('requests/vendor-no-match.facts.json'), '--json']);
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/go with --wait/);
  });
});
