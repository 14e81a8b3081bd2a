/**
 * The function host runs several instances of the function (ADR 0259), over the stack process `npm start` runs: each
 * a worker thread with its own module state, its own log stream and its share of the event source's
 * MaximumConcurrency; a stop drains them all; an instance that dies is replaced while the others keep polling.
 * The handler here records, per invocation, which instance ran it (a module-level id, the thread id and the log
 * stream) and how many invocations that instance had in flight.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqsClient } from '../../adapters/aws-clients.js';
import { sendMessages } from '../../adapters/sqs.js';
import {
  LocalStackStartError,
  readStackState,
  startDaemon,
  stopDaemon,
  type StackState,
} from '../../localstack/daemon.js';
import { buildServeEntry } from './build-serve.js';

let entry: string;
let work: string;
let handlerFile: string;

const HANDLER = `import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { threadId } from 'node:worker_threads';
const moduleId = randomUUID(); // module state: one per instance
let inFlight = 0;
export const handler = async (event, context) => {
  inFlight += 1;
  const bodies = event.Records.map((r) => r.body);
  const line = (kind) => appendFileSync(process.env.RECORD_FILE, JSON.stringify({ kind, bodies, moduleId, threadId,
    stream: process.env.AWS_LAMBDA_LOG_STREAM_NAME, contextStream: context.logStreamName, inFlight, at: Date.now() }) + '\\n');
  line('start');
  if (bodies.includes('die') && !existsSync(process.env.DIE_MARKER)) {
    writeFileSync(process.env.DIE_MARKER, process.env.AWS_LAMBDA_LOG_STREAM_NAME);
    process.exit(70); // this instance's thread ends here, mid-invocation
  }
  await new Promise((r) => setTimeout(r, Number(process.env.HOLD_MS ?? '0')));
  line('end');
  inFlight -= 1;
  return { batchItemFailures: [] };
};
`;

interface Line {
  kind: 'start' | 'end';
  bodies: string[];
  moduleId: string;
  threadId: number;
  stream: string;
  contextStream: string;
  inFlight: number;
  at: number;
}

beforeAll(async () => {
  entry = await buildServeEntry();
  work = mkdtempSync(join(tmpdir(), 'docket-fnhost-'));
  handlerFile = join(work, 'handler.mjs');
  writeFileSync(handlerFile, HANDLER);
}, 120_000);

afterAll(async () => {
  for (const dir of ['share', 'drain', 'die', 'refuse'])
    await stopDaemon({ stateDir: join(work, dir) }).catch(() => undefined);
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const records = (name: string): Line[] => {
  const file = join(work, `${name}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);
};

const ended = (lines: Line[]): Set<string> => new Set(lines.filter((l) => l.kind === 'end').flatMap((l) => l.bodies));

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function start(name: string, holdMs: number, visibilityTimeoutSeconds?: number): Promise<StackState> {
  return startDaemon({
    stateDir: join(work, name),
    port: 0,
    dataDir: null,
    stage: `fh${name}`,
    entry,
    functionInstances: 2,
    handlers: [{ module: handlerFile, ...(visibilityTimeoutSeconds ? { visibilityTimeoutSeconds } : {}) }],
    env: { RECORD_FILE: join(work, `${name}.jsonl`), HOLD_MS: String(holdMs), DIE_MARKER: join(work, `${name}.died`) },
  });
}

async function send(state: StackState, bodies: string[]): Promise<void> {
  const sqs = createSqsClient({ endpoint: state.endpoint });
  try {
    await sendMessages(
      sqs,
      state.queues[`docket-${state.stage}-intake`]!,
      bodies.map((body) => ({ body })),
    );
  } finally {
    sqs.destroy();
  }
}

describe('the function host with two instances', () => {
  it('runs each instance with its own module state and log stream, each takes invocations, and together they stay within the template concurrency', async () => {
    const state = await start('share', 600);
    expect(state.functionInstances).toBe(2);
    const bodies = Array.from({ length: 300 }, (_, i) => `m${i}`);
    await send(state, bodies);
    await waitFor(() => ended(records('share')).size === bodies.length, 90_000);
    await stopDaemon({ stateDir: join(work, 'share') });

    const lines = records('share');
    const byInstance = new Map<string, Line[]>();
    for (const l of lines) byInstance.set(l.moduleId, [...(byInstance.get(l.moduleId) ?? []), l]);
    // Two instances: two module states, two threads, two log streams, and each one received invocations.
    expect(byInstance.size).toBe(2);
    expect(new Set(lines.map((l) => l.threadId)).size).toBe(2);
    expect(new Set(lines.map((l) => l.stream))).toEqual(new Set(['local/instance-1.1', 'local/instance-2.1']));
    for (const l of lines) expect(l.contextStream).toBe(l.stream);
    for (const own of byInstance.values()) {
      expect(new Set(own.map((l) => l.stream)).size).toBe(1);
      expect(own.filter((l) => l.kind === 'start').length).toBeGreaterThan(0);
      // Each takes half of the template's MaximumConcurrency (20): never more than 10 invocations in flight.
      expect(Math.max(...own.map((l) => l.inFlight))).toBeLessThanOrEqual(10);
    }
    // They really ran side by side: both had several invocations in flight.
    for (const own of byInstance.values()) expect(Math.max(...own.map((l) => l.inFlight))).toBeGreaterThan(1);
    // Every record handled once (all within the visibility timeout), none lost.
    const handled = lines.filter((l) => l.kind === 'end').flatMap((l) => l.bodies);
    expect(handled.length).toBe(bodies.length);
    expect(new Set(handled)).toEqual(new Set(bodies));
  }, 150_000);

  it('drains every instance on stop: in-flight invocations of both finish, and what was not taken stays on the queue', async () => {
    const state = await start('drain', 1_500);
    const bodies = Array.from({ length: 400 }, (_, i) => `d${i}`);
    await send(state, bodies);
    await waitFor(() => new Set(records('drain').map((l) => l.stream)).size === 2, 30_000);
    const stopped = await stopDaemon({ stateDir: join(work, 'drain') });

    expect(stopped).toMatchObject({ stopped: true, killed: false, report: { drained: true } });
    const lines = records('drain');
    const starts = lines.filter((l) => l.kind === 'start');
    const ends = lines.filter((l) => l.kind === 'end');
    // Every invocation begun, in either instance, finished before the stack went away.
    expect(new Set(starts.map((l) => l.stream))).toEqual(new Set(['local/instance-1.1', 'local/instance-2.1']));
    expect(ends.map((l) => l.bodies.join()).sort()).toEqual(starts.map((l) => l.bodies.join()).sort());
    // Finished batches were deleted; the rest is still on the queue for the next start.
    const intake = stopped.stopped
      ? stopped.report?.queues.find((q) => q.queue === 'docket-fhdrain-intake')
      : undefined;
    expect(ended(lines).size).toBeLessThan(bodies.length);
    expect((intake?.waiting ?? 0) + (intake?.inFlight ?? 0)).toBe(bodies.length - ended(lines).size);
  }, 120_000);

  it('replaces an instance whose thread exits mid-invocation while the other keeps polling, and the dead batch is redelivered', async () => {
    const state = await start('die', 0, 2);
    await send(state, ['die']);
    const marker = join(work, 'die.died');
    await waitFor(() => existsSync(marker), 30_000);
    const deadStream = readFileSync(marker, 'utf8');
    const slot = /^local\/instance-([12])\.1$/.exec(deadStream)?.[1];
    expect(slot).toBeDefined();
    const other = slot === '1' ? '2' : '1';
    const diedAt = records('die').find((l) => l.kind === 'start' && l.bodies.includes('die'))!.at;
    // Right after the death, before any replacement is up: the other instance takes these.
    const after = Array.from({ length: 20 }, (_, i) => `a${i}`);
    await send(state, after);
    await waitFor(() => after.every((b) => ended(records('die')).has(b)), 30_000);
    // The replacement comes up (a new execution environment: next generation of the slot's log stream), and the
    // batch the dead instance never answered comes back after its visibility timeout and is handled.
    const until = Date.now() + 30_000;
    for (let n = 0; Date.now() < until; n++) {
      if (records('die').some((l) => l.stream === `local/instance-${slot}.2`)) break;
      await send(state, [`r${n}`]);
      await new Promise((r) => setTimeout(r, 300));
    }
    await waitFor(() => ended(records('die')).has('die'), 30_000);
    const lines = records('die');
    const log = readFileSync(join(work, 'die', 'stack.log'), 'utf8');
    await stopDaemon({ stateDir: join(work, 'die') });

    expect(log).toContain(`function instance ${slot}/2 exited (code 70); starting a new one`);
    const survivor = lines.filter((l) => l.stream === `local/instance-${other}.1`);
    expect(survivor.some((l) => l.kind === 'end' && l.at > diedAt)).toBe(true);
    const replacement = lines.filter((l) => l.stream === `local/instance-${slot}.2`);
    expect(replacement.length).toBeGreaterThan(0);
    const dead = lines.filter((l) => l.stream === deadStream);
    expect(dead.every((l) => l.kind === 'start')).toBe(true);
    expect(new Set(replacement.map((l) => l.moduleId))).not.toContain(dead[0]!.moduleId);
    expect(new Set(replacement.map((l) => l.threadId))).not.toContain(dead[0]!.threadId);
  }, 150_000);

  it('fails the start with the reason when one instance cannot start, and leaves no stack behind', async () => {
    const refusing = join(work, 'refusing.mjs');
    writeFileSync(
      refusing,
      `if (process.env.AWS_LAMBDA_LOG_STREAM_NAME === 'local/instance-2.1') throw new Error('instance two refuses');
       export const handler = async () => ({ batchItemFailures: [] });\n`,
    );
    const error = await startDaemon({
      stateDir: join(work, 'refuse'),
      port: 0,
      dataDir: null,
      stage: 'fhrefuse',
      entry,
      functionInstances: 2,
      handlers: [{ module: refusing }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalStackStartError);
    expect((error as Error).message).toMatch(/instance two refuses/);
    expect(readStackState(join(work, 'refuse'))).toBeNull();
  }, 60_000);

  it('refuses an instance count that is not a whole number with an error naming the variable, before anything runs', async () => {
    const error = await startDaemon({
      stateDir: join(work, 'refuse'),
      port: 0,
      dataDir: null,
      stage: 'fhrefuse',
      entry,
      handlers: [{ module: handlerFile }],
      env: { DOCKET_FUNCTION_INSTANCES: 'many' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalStackStartError);
    expect((error as Error).message).toMatch(/DOCKET_FUNCTION_INSTANCES must be a whole number/);
    expect(readStackState(join(work, 'refuse'))).toBeNull();
  }, 60_000);
});
