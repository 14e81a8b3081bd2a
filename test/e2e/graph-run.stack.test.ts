/**
 * Judgment graph runs over the wire (issue "Graph runs through the pipeline", its checks; docs/graphs.md "Through
 * the pipeline"): on a local stack deployed with the judgment-graphs opt-in, RFC 0022's worked example is published
 * with `docket publish --config --graph`, submitted with `docket submit --graph … --wait --json`, and recorded once:
 * the printed run object is exactly what `docket graph evaluate` prints for the same files, the headline is the
 * RFC's, the contractor's OFAC handoff reaches the route queue of the "Sanctions Compliance Officer" with that target
 * unchanged (its instance path beside it) and verifies for the route consumer, `docket show` renders the entry,
 * `docket verify` and `docket replay` are ok. A stack without the opt-in records the typed refusal
 * graphs-not-enabled; a trust policy that does not permit the feature makes verify report it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as submit } from '../../cli/commands/submit.js';
import { run as show } from '../../cli/commands/show.js';
import { run as handoffs } from '../../cli/commands/handoffs.js';
import { run as graph } from '../../cli/commands/graph.js';
import { run as replay, stackDeps } from '../../cli/commands/replay.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { runGraphDemo } from '../../cli/graph/graph-demo.js';
import { showQueues } from '../../cli/commands/local.js';
import { createHash } from 'node:crypto';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDbGraphRegistry } from '../../adapters/dynamodb-graph-registry.js';
import { readHandoffMessage } from '../../core/pipeline/index.js';
import { GRAPH_REQUEST_FORMAT } from '../../core/admission/index.js';
import { STAGE_PRESETS } from '../../infra/config.js';
import { resolveSettings } from '../../stack/settings.js';
import { openStack } from '../../stack/clients.js';
import { verifyUnder } from './verify-under.js';
import { stackFlags, startE2e, type E2eWorld } from './harness.js';
import { sendToLog, watchLedgerQueue } from './ledger-queue.js';

/** Where `docket handoffs` remembers what it printed: a file of this test's own, never the working directory's. */
const SEEN = ['--seen', join(mkdtempSync(join(tmpdir(), 'docket-seen-')), 'handoffs-seen.json')];

const FEATURE = 'judgment-graphs';
const BUILD = 'e'.repeat(64); // the harness's evaluator build digest
const RFC = join(process.cwd(), 'examples', 'graphs', 'procurement-triage');
const CONFIG = join(RFC, 'jpack.json');
const ROOT = join(RFC, 'graphs', 'procurement-triage.graph.json');
const INPUTS = join(RFC, 'inputs.json');
const ALIAS = 'https://example.com/graphs/procurement-triage@0.1.0';
const OFFICER = { kind: 'human-role', name: 'Sanctions Compliance Officer' };
/** The RFC's headline for its worked example's inputs (graph-semantics.md B6). */
const line0Headline = {
  node: 'procurement-approval',
  disposition: { handoff: { state: 'none' }, kind: 'unresolved', reasons: ['no-match'] },
};

let on: E2eWorld;
const watch = watchLedgerQueue();
let off: E2eWorld;
const dir = mkdtempSync(join(tmpdir(), 'docket-graph-run-e2e-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A trust policy for `w` that permits judgment graphs on every log (docket.trust-policy/3, ADR 0222). */
function permitting(w: E2eWorld, stage: string): string {
  return trustPolicyDocument({
    keys: w.keys,
    checkpointKey: w.checkpointKeys,
    logIds: JSON.parse(w.env.LOG_IDS!) as string[],
    environment: stage,
    table: w.env.LEDGER_TABLE!,
    evaluatorBuilds: [BUILD],
    draftFeatures: [FEATURE],
  });
}

async function cli(cmd: (argv: string[], io: ReturnType<typeof memoryIo>) => Promise<number>, argv: string[]) {
  const io = memoryIo();
  const code = await cmd(argv, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  [on, off] = await Promise.all([
    startE2e({ stage: 'graphs', config: { draftFeatures: [FEATURE] }, wrapHandler: watch.wrapHandler }),
    startE2e({ stage: 'nographs' }),
  ]);
  writeFileSync(join(dir, 'permitting.json'), permitting(on, 'graphs'));
  for (const [w, stage] of [
    [on, 'graphs'],
    [off, 'nographs'],
  ] as const) {
    const p = await cli(publish, ['--config', CONFIG, '--graph', ROOT, ...stackFlags(w, stage)]);
    expect(p.err).toBe('');
    expect(p.code).toBe(0);
  }
}, 180_000);
afterAll(async () => {
  await Promise.all([on?.stop(), off?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('a graph run through the pipeline, on a stack that enables judgment graphs', () => {
  let line: { requestId: string; kind: string; run: Record<string, unknown>; entry: string };

  it("prints, from the verified notification, the run object docket graph evaluate prints, with the RFC's headline", async () => {
    const s = await cli(submit, [
      '--graph',
      ALIAS,
      '--inputs',
      INPUTS,
      '--id',
      'rfc0022-1',
      '--wait',
      '--json',
      '--timeout',
      '60',
      '--policy',
      join(dir, 'permitting.json'),
      ...stackFlags(on, 'graphs'),
    ]);
    expect(s.err).toBe('');
    expect(s.code).toBe(0);
    expect(s.out.trimEnd().split('\n')).toHaveLength(1);
    line = JSON.parse(s.out) as typeof line;
    expect([line.requestId, line.kind]).toEqual(['rfc0022-1', 'graph-run']);
    const local = await cli(graph, ['evaluate', '--config', CONFIG, '--graph', ROOT, '--inputs', INPUTS]);
    expect(local.code).toBe(0);
    // Byte for byte: the line carries the run object exactly as the command prints it.
    expect(s.out).toContain(`"run":${local.out.trimEnd()}`);
    expect(line.run.headline).toEqual({
      node: 'procurement-approval',
      disposition: { handoff: { state: 'none' }, kind: 'unresolved', reasons: ['no-match'] },
    });
  });

  it('puts the subgraph’s handoff on the Sanctions Compliance Officer’s route queue, target unchanged, and it verifies', async () => {
    let received = '';
    for (let i = 0; i < 20 && !received.includes('rfc0022-1'); i++)
      received += (
        await cli(handoffs, [
          '--route',
          'sanctions',
          '--json',
          ...SEEN,
          '--policy',
          join(dir, 'permitting.json'),
          '--routes',
          on.routesPath,
          ...stackFlags(on, 'graphs'),
        ])
      ).out;
    const mine = received
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter(
        (m) =>
          (m.message as { requestId?: string } | undefined)?.requestId === 'rfc0022-1' || m.requestId === 'rfc0022-1',
      );
    expect(mine).toHaveLength(1);
    expect(received).toContain('"verified":true');
    expect(received).toContain(JSON.stringify(OFFICER).slice(1, -1));
    expect(received).toContain('/contractor-sanctions/ofac-check');
  });

  it('docket show renders the headline, every leaf with its instance path and kind, the handoffs and the console link', async () => {
    const r = await cli(show, ['rfc0022-1', ...stackFlags(on, 'graphs')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^headline +procurement-approval +unresolved +no-match$/m);
    expect(r.out).toMatch(/\/contractor-sanctions\/ofac-check +unresolved +missing-required-evidence/);
    expect(r.out).toMatch(/\/vendor-sanctions\/composite-risk +outcome +cleared/);
    expect(r.out).toContain('/contractor-sanctions/ofac-check → human-role:Sanctions Compliance Officer');
    expect(r.out).toContain('http://127.0.0.1:4600/entry/rfc0022-1');
  });

  it('docket replay re-runs the whole graph and matches byte for byte', async () => {
    const io = memoryIo();
    const code = await replay(
      [
        ...stackFlags(on, 'graphs'),
        '--requests-table',
        on.env.REQUESTS_TABLE!,
        '--policy',
        join(dir, 'permitting.json'),
        '--request',
        'rfc0022-1',
      ],
      io,
      { ...stackDeps, buildDigest: () => BUILD },
    );
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    expect(io.out()).toContain('"result":"replay-match"');
  });

  it('docket verify is ok under a policy that permits judgment graphs, and reports it under one that does not', async () => {
    const ok = await verifyUnder(on, {
      stage: 'graphs',
      dir,
      checkpointPolicy: permitting(on, 'graphs'),
      policy: permitting(on, 'graphs'),
    });
    expect(ok).toMatchObject({ exitCode: 0, verdict: { ok: true, findings: [] } });
    // The harness's own policy (docket.trust-policy/2) permits no draft feature.
    const forbidding = await verifyUnder(on, {
      stage: 'graphs',
      dir,
      checkpointPolicy: permitting(on, 'graphs'),
      policy: on.policyText,
    });
    expect(forbidding.exitCode).toBe(1);
    expect(forbidding.verdict.findings.map((f) => f.code)).toContain('draft-features-not-allowed');
  });
});

describe('docket submit --file with graph request lines beside evaluation lines', () => {
  it('sends both kinds from one batch and waits for each: a graph-run and an evaluation, in one --wait --json run', async () => {
    const pack = JSON.parse(readFileSync(join(RFC, 'packs', 'ofac-screening.json'), 'utf8')) as {
      id: string;
      version: string;
    };
    const inputs = readFileSync(INPUTS, 'utf8').trim();
    const batch = join(dir, 'mixed.jsonl');
    writeFileSync(
      batch,
      [
        `{"requestId":"mixed-graph","graph":"${ALIAS}","inputs":${inputs.replace(/\n\s*/g, '')}}`,
        `{"requestId":"mixed-eval","pack":"${pack.id}@${pack.version}","facts":{}}`,
        '',
      ].join('\n'),
    );
    const s = await cli(submit, [
      '--file',
      batch,
      '--wait',
      '--json',
      '--timeout',
      '60',
      '--policy',
      join(dir, 'permitting.json'),
      ...stackFlags(on, 'graphs'),
    ]);
    expect(s.code).toBe(0);
    const lines = s.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { requestId: string; kind?: string; run?: { headline?: unknown } });
    expect(lines.map((l) => l.requestId).sort()).toEqual(['mixed-eval', 'mixed-graph']);
    const g = lines.find((l) => l.requestId === 'mixed-graph')!;
    expect(g.kind).toBe('graph-run');
    expect(g.run?.headline).toEqual(line0Headline);
  });
});

describe('the main job with --graphs (docket local start --graphs, npm start -- --graphs)', () => {
  it('publishes vendor-onboarding, runs one graph request and shows its entry, its handoffs on their queues and the console link', async () => {
    const stack = openStack(
      resolveSettings({ endpoint: on.stack.endpoint, region: on.stack.region, stage: 'graphs' }, {}),
    );
    const io = memoryIo();
    try {
      expect(await runGraphDemo(stack, 'test', STAGE_PRESETS.local!.routes!, io)).toBe(true);
    } finally {
      stack.close();
    }
    const out = io.out();
    const id = 'graph-test-vendor-onboarding-owner-report-missing';
    expect(out).toContain(
      `submitted graph request ${id} (graph https://graphs.example.org/procurement/vendor-onboarding@2.0.0`,
    );
    expect(out).toMatch(/^headline +onboarding +unresolved +missing-required-evidence$/m);
    expect(out).toMatch(
      /^docket-graphs-route-sanctions +human-role:Sanctions Compliance Officer +from \/owner-screening\/watchlist$/m,
    );
    expect(out).toMatch(/^docket-graphs-route-vendor-risk +queue:Vendor Risk +from onboarding$/m);
    expect(out).toContain(`== see it drawn: docket console, then http://127.0.0.1:4600/entry/${id}`);
  });
});

describe('local start reads the route queues by their attributes only', () => {
  it('leaves every genuine handoff on its route queue unreceived however many times the queues are shown', async () => {
    const stack = openStack(
      resolveSettings({ endpoint: on.stack.endpoint, region: on.stack.region, stage: 'graphs' }, {}),
    );
    const queues = Object.fromEntries(on.stack.resources.queues.map((q) => [q.name, q.url]));
    const io = memoryIo();
    try {
      // As three `docket local start`s after the demo above put its handoffs there.
      for (let i = 0; i < 3; i++) await showQueues(stack, queues, io);
    } finally {
      stack.close();
    }
    expect(io.out()).toMatch(/^docket-graphs-route-sanctions +[1-9]\d* messages?/m);
    const id = 'graph-test-vendor-onboarding-owner-report-missing';
    const counts: string[] = [];
    for (const name of ['docket-graphs-route-sanctions', 'docket-graphs-route-vendor-risk']) {
      const got = await on.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queues[name],
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ['ApproximateReceiveCount'],
        }),
      );
      for (const m of got.Messages ?? []) {
        const h = readHandoffMessage(new TextEncoder().encode(m.Body ?? ''));
        if (h.ok && h.value.requestId === id) counts.push(m.Attributes?.ApproximateReceiveCount ?? '?');
      }
    }
    // This receive is the first any of them has had: none was spent by a start.
    expect(counts).toEqual(['1', '1']);
  });
});

describe('graph requests whose inputs are not strict JSON, through the intake queue (ADR 0362, 0459)', () => {
  it.each([
    ['a duplicate member inside inputs', 'dup-inputs-1', '{"caller":{"facts":{},"facts":{}}}'],
    ['a lone surrogate inside inputs', 'surrogate-inputs-1', '{"caller":{"facts":{"name":"\\udc00"}}}'],
  ])('records %s as its graph run under its request id, never a dead letter', async (_n, id, inputs) => {
    const body = `{"format":"${GRAPH_REQUEST_FORMAT}","requestId":"${id}","graph":"${ALIAS}","inputs":${inputs}}`;
    await on.sqs.send(new SendMessageCommand({ QueueUrl: on.queueUrl('intake'), MessageBody: body }));
    let shown = { code: 1, out: '', err: '' };
    for (let i = 0; i < 150 && shown.code !== 0; i++) {
      shown = await cli(show, [id, '--json', ...stackFlags(on, 'graphs')]);
      if (shown.code !== 0) await sleep(200);
    }
    expect(shown.code, shown.err).toBe(0);
    const entry = (JSON.parse(shown.out) as { entry: { kind: string; requestId: string; inputsDigest: string } }).entry;
    expect([entry.kind, entry.requestId]).toEqual(['graph-run', id]);
    // The run judged the exact bytes the requester wrote (graph-semantics.md A10).
    expect(entry.inputsDigest).toBe(createHash('sha256').update(inputs, 'utf8').digest('hex'));
  });
});

describe('a poison graph in the registry (ADR 0456)', () => {
  it('is recorded at once as graph-unreadable, and a request behind it in its log is recorded within one visibility timeout', async () => {
    // The demo above published vendor-onboarding; a registry writer re-puts its closure record non-canonically.
    const graphs = new DynamoDbGraphRegistry({ client: on.dynamodb, tableName: on.env.PACKS_TABLE! });
    const digest = (await graphs.resolveGraphAlias('https://graphs.example.org/procurement/vendor-onboarding@2.0.0'))!;
    const key = { pk: { S: `graph-closure#${digest}` }, sk: { S: 'graph-closure' } };
    const item = await on.dynamodb.send(new GetItemCommand({ TableName: on.env.PACKS_TABLE!, Key: key }));
    const closure = JSON.parse(new TextDecoder().decode(item.Item!.bytes!.B!)) as unknown;
    await on.dynamodb.send(
      new PutItemCommand({
        TableName: on.env.PACKS_TABLE!,
        Item: { ...key, bytes: { B: new TextEncoder().encode(JSON.stringify(closure, null, 1)) } },
      }),
    );
    await on.coldStart(); // no warm cache holds the graph as it was
    const log = (JSON.parse(on.env.LOG_IDS!) as string[])[0]!;
    const poison = 'poison-graph-1';
    const behind = 'behind-poison-graph-1';
    const inputs = readFileSync(INPUTS, 'utf8').trim();
    // Each in a ledger message under one log's group (ADR 0497): the one behind is sent once the poison's message has
    // been handed to the evaluate function, so FIFO holds it back for as long as that message is in flight.
    const send = (id: string, graphRef: string) =>
      sendToLog(on, log, [
        `{"format":"${GRAPH_REQUEST_FORMAT}","requestId":"${id}","graph":"${graphRef}","inputs":${inputs}}`,
      ]);
    await send(poison, `sha256:${digest}`);
    while (watch.carriersOf(poison).length === 0) await sleep(20);
    const sent = Date.now();
    await send(behind, ALIAS);
    const entryOf = async (id: string) => {
      for (;;) {
        const shown = await cli(show, [id, '--json', ...stackFlags(on, 'graphs')]);
        if (shown.code === 0) return (JSON.parse(shown.out) as { entry: Record<string, unknown> }).entry;
        await sleep(100);
      }
    };
    const [refused, next] = await Promise.all([entryOf(poison), entryOf(behind)]);
    const waitedMs = Date.now() - sent;
    expect(refused).toMatchObject({
      kind: 'admission-refusal',
      refusal: { code: 'graph-unreadable', message: expect.stringContaining(`graph sha256:${digest}`) },
    });
    expect(next).toMatchObject({ kind: 'graph-run', requestId: behind, logId: refused.logId });
    const visibility = Number(
      (
        await on.sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: on.queueUrl('ledger.fifo'),
            AttributeNames: ['VisibilityTimeout'],
          }),
        )
      ).Attributes!.VisibilityTimeout,
    );
    process.stdout.write(
      `a request behind a poison graph was recorded ${waitedMs} ms after it was sent (visibility timeout ${visibility} s)\n`,
    );
    expect(waitedMs).toBeLessThan(visibility * 1000);
  }, 120_000);

  it('records a request by a graph alias whose item holds no valid digest at once as alias-unreadable (ADR 0485)', async () => {
    const alias = 'https://graphs.example.org/procurement/vendor-onboarding@2.0.0';
    await on.dynamodb.send(
      new PutItemCommand({
        TableName: on.env.PACKS_TABLE!,
        Item: { pk: { S: `graph-alias#${alias}` }, sk: { S: 'graph-alias' }, digest: { S: 'not a digest' } },
      }),
    );
    const inputs = readFileSync(INPUTS, 'utf8').trim();
    await on.sqs.send(
      new SendMessageCommand({
        QueueUrl: on.queueUrl('intake'),
        MessageBody: `{"format":"${GRAPH_REQUEST_FORMAT}","requestId":"poison-graph-alias-1","graph":"${alias}","inputs":${inputs}}`,
      }),
    );
    let shown = { code: 1, out: '', err: '' };
    for (let i = 0; i < 150 && shown.code !== 0; i++) {
      shown = await cli(show, ['poison-graph-alias-1', '--json', ...stackFlags(on, 'graphs')]);
      if (shown.code !== 0) await sleep(200);
    }
    expect(shown.code, shown.err).toBe(0);
    expect((JSON.parse(shown.out) as { entry: unknown }).entry).toMatchObject({
      kind: 'admission-refusal',
      refusal: { code: 'alias-unreadable', message: expect.stringContaining(`graph alias ${alias}`) },
    });
  }, 60_000);
});

describe('a graph request on a stack without the opt-in', () => {
  it('is recorded as the typed admission refusal graphs-not-enabled', async () => {
    const s = await cli(submit, [
      '--graph',
      ALIAS,
      '--inputs',
      INPUTS,
      '--id',
      'nographs-1',
      ...stackFlags(off, 'nographs'),
    ]);
    expect([s.code, s.out]).toEqual([0, 'nographs-1\n']);
    let shown = { code: 1, out: '', err: '' };
    for (let i = 0; i < 100 && shown.code !== 0; i++) {
      shown = await cli(show, ['nographs-1', '--json', ...stackFlags(off, 'nographs')]);
      if (shown.code !== 0) await sleep(200);
    }
    const entry = (JSON.parse(shown.out) as { entry: { kind: string; refusal: { code: string } } }).entry;
    expect([entry.kind, entry.refusal.code]).toEqual(['admission-refusal', 'graphs-not-enabled']);
  });
});
