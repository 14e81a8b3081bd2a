/**
 * `docket bench live` over the local stack, in process (docs/deploy.md "Observe it"): real requests through the real
 * intake at a small rate, each result proven, and the functions' own metrics — batch cycle, request → entry and the
 * capacity units the table reported (ReturnConsumedCapacity, adapters/consumed-capacity.ts) — read back from their
 * EMF lines, printed under the scale model's names.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { meterConsumedCapacity, type CapacityMeter } from '../../adapters/consumed-capacity.js';
import { memoryIo } from '../../cli/io.js';
import { run as bench } from '../../cli/commands/bench.js';
import { run as publish } from '../../cli/commands/publish.js';
import { DOCKET_SERVICES } from '../../core/metric-names.js';
import { measuredBatches } from '../../functions/lib/batch-metrics.js';
import { startE2e, stackFlags, type E2eWorld } from './harness.js';

const STAGE = 'bench';
const dir = mkdtempSync(join(tmpdir(), 'docket-bench-live-'));
const metricsLog = join(dir, 'functions.log');
let w: E2eWorld;
let functionsClient: DynamoDBClient | undefined;

beforeAll(async () => {
  let meter: CapacityMeter | undefined;
  w = await startE2e({
    stage: STAGE,
    // The functions' client, metered as functions/evaluate.ts and functions/deliver.ts meter theirs.
    functionsDynamodb: (stack) => {
      functionsClient = createDynamoDbClient({ endpoint: stack.endpoint, region: stack.region });
      meter = meterConsumedCapacity(functionsClient);
      return functionsClient;
    },
    // Measured as the handlers measure (functions/evaluate.ts, functions/deliver.ts), into a log of their own.
    wrapHandler: (fn, handle) =>
      fn === 'sequence'
        ? handle
        : measuredBatches(handle, {
            serviceName: DOCKET_SERVICES[fn],
            perLog: fn === 'evaluate',
            ...(meter !== undefined ? { meter } : {}),
            write: (line) => appendFileSync(metricsLog, `${line}\n`),
          }),
  });
  const io = memoryIo();
  expect(
    await publish([join(process.cwd(), 'examples', 'data-request-intake-triage.json'), ...stackFlags(w, STAGE)], io),
  ).toBe(0);
}, 120_000);

afterAll(async () => {
  await w?.stop();
  functionsClient?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Every figure the scale model prints that a live run can observe (bench/aws-scale.bench.ts). */
const MODEL_FIELDS = [
  'profile',
  'appendsPerSecond',
  'perLogAppendsPerSecond',
  'p50Ms',
  'p99Ms',
  'notifiedP50Ms',
  'notifiedP99Ms',
  'latencyAtRequestsPerSecond',
  'batchCycleMs',
  'requestsPerSecondAtP99Target',
  'wruPerEvaluation',
  'rruPerEvaluation',
  'costPerMillion',
];

describe('docket bench live', () => {
  it('sends rate × duration requests, accounts for every one and prints the model figures it observed', async () => {
    const io = memoryIo();
    const code = await bench(
      [
        'live',
        '--rate',
        '20',
        '--duration',
        '5',
        '--timeout',
        '60',
        ...stackFlags(w, STAGE),
        '--policy',
        w.policyPath,
        '--metrics-log',
        metricsLog,
      ],
      io,
    );
    expect(code, io.err()).toBe(0);
    const f = JSON.parse(io.out().trim().split('\n').at(-1)!) as Record<string, unknown> & {
      appendsPerLog: Record<string, number>;
      batchCycleMs: { mean: number; batches: number; recordsPerBatch: number; p50: number; p99: number };
    };
    for (const field of MODEL_FIELDS) expect(f, field).toHaveProperty(field);
    expect(f.profile).toBe('live');
    // Every request accounted for: sent, and one proven entry each.
    expect([f.requests, f.sent, f.recorded, f.missing]).toEqual([100, 100, 100, 0]);
    const logs = JSON.parse(w.env.LOG_IDS!) as string[];
    expect(Object.keys(f.appendsPerLog).sort()).toEqual([...logs].sort());
    expect(Object.values(f.appendsPerLog).reduce((a, b) => a + b, 0)).toBe(100);
    // Offered 20/s: the appends over first send → last result cannot outrun the sends by more than a tick.
    const aps = f.appendsPerSecond as number;
    expect(aps).toBeGreaterThan(0);
    expect(aps).toBeLessThanOrEqual(25);
    expect(f.perLogAppendsPerSecond as number).toBeCloseTo(aps / logs.length, 0);
    const [p50, p99, n50, n99] = [f.p50Ms, f.p99Ms, f.notifiedP50Ms, f.notifiedP99Ms] as number[];
    expect(p50).toBeGreaterThan(0);
    expect(p50).toBeLessThanOrEqual(p99!);
    expect(n50).toBeLessThanOrEqual(n99!);
    // A request's notification follows its entry, and its send precedes the queue's sent time.
    expect(n50).toBeGreaterThanOrEqual(p50!);
    expect(n99).toBeGreaterThanOrEqual(p99!);
    const cycle = f.batchCycleMs;
    expect(cycle.mean).toBeGreaterThan(0);
    // A batch is at most 10 ledger messages of at most 10 intake requests each (docs/pipeline.md), and the batches'
    // requests are the 100 recorded (the mean is rounded to 2 decimals).
    expect(cycle.recordsPerBatch).toBeGreaterThanOrEqual(1);
    expect(cycle.recordsPerBatch).toBeLessThanOrEqual(100);
    expect(Math.abs(cycle.batches * cycle.recordsPerBatch - 100)).toBeLessThanOrEqual(cycle.batches * 0.005 + 1e-9);
    expect(cycle.p50).toBeLessThanOrEqual(cycle.p99);
    // Each evaluation writes its claim (1), its bundle share and its job's batch marker share (ADR 0498) to the ledger,
    // and its request to the archive: per table, as the model prints them.
    const wru = f.wruPerEvaluation as Record<string, number>;
    const rru = f.rruPerEvaluation as Record<string, number>;
    expect(wru.ledger).toBeGreaterThan(1);
    expect(wru.requests).toBeGreaterThanOrEqual(1);
    expect(wru.total).toBeCloseTo(
      Object.entries(wru).reduce((a, [k, v]) => a + (k === 'total' ? 0 : v), 0),
      2,
    );
    expect(wru.total).toBeLessThan(20);
    expect(rru.total).toBeGreaterThan(0);
    expect(f.requestsPerSecondAtP99Target).toBeNull();
    expect(f.costPerMillion).toBeNull();
    expect(f.latencyAtRequestsPerSecond).toBe(20);
  }, 180_000);

  it('meters the units the table answers with: a 1.5 KB put is 2 write units, its consistent read 1 read unit', async () => {
    const client = createDynamoDbClient({ endpoint: w.stack.endpoint, region: w.stack.region });
    try {
      const meter = meterConsumedCapacity(client);
      const key = { pk: { S: 'meter-test' }, sk: { S: 'item' } };
      await client.send(
        new PutItemCommand({ TableName: w.env.PACKS_TABLE!, Item: { ...key, blob: { S: 'x'.repeat(1500) } } }),
      );
      const table = w.env.PACKS_TABLE!;
      expect(meter.drain()).toEqual({ read: 0, write: 2, tables: { [table]: { read: 0, write: 2 } } });
      await client.send(new GetItemCommand({ TableName: w.env.PACKS_TABLE!, Key: key, ConsistentRead: true }));
      expect(meter.drain()).toEqual({ read: 1, write: 0, tables: { [table]: { read: 1, write: 0 } } });
    } finally {
      client.destroy();
    }
  });
});
