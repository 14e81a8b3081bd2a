/**
 * What the AWS scale model sizes from must be right before a team sizes from it: each latency profile draws the
 * quantiles it declares, the model runs only deployable configurations (refusing the rest with the configuration's
 * own error), the cost model's arithmetic matches a hand computation, and the table quota and on-demand ramp follow
 * DynamoDB's published rules (docs/adr/0470, 0471, 0472).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DocketConfigError, resolveConfig, validateConfig } from '../../infra/config.js';
import { latencyMeanMs, quantileLatency, type LatencyShape } from '../../bench/support/aws-model/latency.js';
import {
  isProfileName,
  PROFILE_NAMES,
  PROFILES,
  profileLatency,
} from '../../bench/support/aws-model/latency-profile.js';
import {
  costPerMillion,
  LOG_BYTES,
  pricedRequests,
  US_EAST_1,
  type Usage,
} from '../../bench/support/aws-model/cost-model.js';
import { tableQuota } from '../../bench/support/aws-model/table-quota.js';
import { CapacityMeter } from '../../bench/support/aws-model/capacity-meter.js';
import { batchCycle, usageOf } from '../../bench/support/aws-model/run-usage.js';
import {
  deployedShape,
  simulate,
  workload,
  type BatchBreakdown,
  type RunFigures,
  type ScaleOptions,
} from '../../bench/support/aws-model/scale-model.js';
import { prng } from '../../bench/support/seeded-prng.js';

const quantile = (sorted: readonly number[], p: number): number => sorted[Math.floor(p * sorted.length)]!;

describe('the latency profiles', () => {
  const shapes = PROFILE_NAMES.flatMap((name) => {
    const p = PROFILES[name];
    return (
      ['dynamoRead', 'dynamoWrite', 'sqsCall', 'snsPublish', 'standardToHandler', 'fifoToHandler', 'coldStart'] as const
    ).map((api) => ({ name, api, shape: p[api] }));
  });

  it.each(shapes)('$name $api draws the quantiles it declares', ({ shape }) => {
    const draw = quantileLatency(shape, prng(11));
    const xs = Array.from({ length: 100_000 }, draw).sort((a, b) => a - b);
    const declared: [number, number | undefined][] = [
      [0.1, shape.p10Ms],
      [0.5, shape.p50Ms],
      [0.9, shape.p90Ms],
      [0.99, shape.p99Ms],
    ];
    for (const [p, ms] of declared) {
      if (ms === undefined) continue;
      expect(quantile(xs, p) / ms).toBeGreaterThan(0.95);
      expect(quantile(xs, p) / ms).toBeLessThan(1.05);
    }
  });

  it('follows a measured body and tail that one lognormal cannot: SQS FIFO → Lambda as published', () => {
    const fifo = PROFILES.published.fifoToHandler;
    expect(fifo).toEqual({ p10Ms: 21.9, p50Ms: 28.1, p90Ms: 61.2, p99Ms: 645 });
    const xs = Array.from({ length: 100_000 }, quantileLatency(fifo, prng(3))).sort((a, b) => a - b);
    // A lognormal through p50 and p99 would put p90 near 158 ms; the published p90 is 61.2.
    expect(quantile(xs, 0.9)).toBeLessThan(65);
    // Draws stop at the 99.9th percentile, so the mean stays finite and the same in every run.
    expect(xs.at(-1)!).toBeLessThanOrEqual(latencyMeanMs(fifo) * 100);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean / latencyMeanMs(fifo) - 1)).toBeLessThan(0.03);
  });

  it('refuses quantiles out of order', () => {
    const bad: LatencyShape = { p50Ms: 10, p90Ms: 5, p99Ms: 20 };
    expect(() => quantileLatency(bad, prng(1))).toThrow(RangeError);
    expect(() => quantileLatency({ p50Ms: 0, p99Ms: 1 }, prng(1))).toThrow(RangeError);
  });

  it('orders the profiles: every call of optimistic is no slower than published, published no slower than pessimistic', () => {
    for (const api of ['dynamoRead', 'dynamoWrite', 'sqsCall', 'snsPublish', 'fifoToHandler', 'coldStart'] as const) {
      expect(latencyMeanMs(PROFILES.optimistic[api])).toBeLessThanOrEqual(latencyMeanMs(PROFILES.published[api]));
      expect(latencyMeanMs(PROFILES.published[api])).toBeLessThanOrEqual(latencyMeanMs(PROFILES.pessimistic[api]));
    }
    expect(isProfileName('published')).toBe(true);
    expect(isProfileName('fast')).toBe(false);
  });

  it('adds the per-KB term for what an item moves beyond its first KB, and draws reads and writes apart', () => {
    const l = profileLatency(PROFILES.published, prng(5));
    expect(l.itemMs(1024)).toBe(0);
    expect(l.itemMs(9 * 1024)).toBeCloseTo(8 * PROFILES.published.perKbMs, 9);
    const reads = Array.from({ length: 20_000 }, () => l.dynamo('read')).sort((a, b) => a - b);
    const writes = Array.from({ length: 20_000 }, () => l.dynamo('write')).sort((a, b) => a - b);
    expect(quantile(reads, 0.5)).toBeCloseTo(PROFILES.published.dynamoRead.p50Ms, 0);
    expect(quantile(writes, 0.5)).toBeCloseTo(PROFILES.published.dynamoWrite.p50Ms, 0);
  });
});

describe('only deployable shapes', () => {
  const packBytes = new Uint8Array(
    readFileSync(new URL('../../examples/data-request-intake-triage.json', import.meta.url)),
  );
  const work = workload(20, packBytes, 1);
  const options = (deployment: ScaleOptions['deployment']): ScaleOptions => ({
    deployment,
    appends: 20,
    throttle: true,
    profile: PROFILES.published,
    cpuMsPerRecord: 1,
    signMs: 0.1,
    seed: 1,
  });

  it("refuses 50 evaluate instances on 8 logs with the configuration's own error, as cdk deploy would", async () => {
    expect(() => resolveConfig({ logCount: 8, maximumConcurrency: 50 })).toThrow(DocketConfigError);
    // The same object with the refused member put back, as a caller holding a config might build it.
    const refused = { ...resolveConfig({ logCount: 8 }), maximumConcurrency: 50 };
    const problems = validateConfig(refused);
    expect(problems).toEqual(['maximumConcurrency must be an integer in [2, 8], got 50']);
    const run = simulate(work, options(refused), { kind: 'backlog' });
    await expect(run).rejects.toThrow(DocketConfigError);
    await expect(run).rejects.toMatchObject({ code: 'invalid-config', problems });
    expect(() => deployedShape(refused)).toThrow(problems[0]);
  });

  it('runs what the configuration deploys: its concurrency, batch size, sequencers, consumers and visibility timeout', () => {
    const c = resolveConfig({ logCount: 8, sequencerMaximumConcurrency: 16, functionTimeoutSeconds: 20 });
    expect(deployedShape(c)).toEqual({
      instances: 8,
      logs: 8,
      batchSize: 10,
      sequencers: 16,
      deliveryInstances: 10,
      visibilityTimeoutSeconds: 120,
    });
  });
});

describe('the cost model', () => {
  it('prices a run per million evaluations as a hand computation does', () => {
    const u: Usage = {
      evaluations: 2000,
      wru: 7800, // 3.9 per evaluation
      rru: 1600, // 0.8
      sqsStandardRequests: 4000, // 2.0
      sqsFifoRequests: 600, // 0.3
      snsPublishes: 200, // 0.1
      lambdaRequests: 600, // 0.3
      lambdaGbSeconds: 20, // 0.01 GB-s per evaluation
      logBytes: 2000 * 1024 ** 2, // 1 MiB per evaluation
    };
    const c = costPerMillion(u);
    // Per million evaluations: 3.9 × $0.625, 0.8 × $0.125, 2.0 × $0.40, 0.3 × $0.50, 0.1 × $0.50, 0.3 × $0.20,
    // 10,000 GB-s × $0.0000133334, 10⁶ MiB = 976.5625 GB × $0.50.
    expect(c.items.dynamodbWrites).toBeCloseTo(2.4375, 9);
    expect(c.items.dynamodbReads).toBeCloseTo(0.1, 9);
    expect(c.items.sqsStandard).toBeCloseTo(0.8, 9);
    expect(c.items.sqsFifo).toBeCloseTo(0.15, 9);
    expect(c.items.sns).toBeCloseTo(0.05, 9);
    expect(c.items.lambdaRequests).toBeCloseTo(0.06, 9);
    expect(c.items.lambdaDuration).toBeCloseTo(0.133334, 9);
    expect(c.items.logs).toBeCloseTo(488.28125, 6);
    expect(c.total).toBeCloseTo(2.4375 + 0.1 + 0.8 + 0.15 + 0.05 + 0.06 + 0.133334 + 488.28125, 6);
    expect(US_EAST_1.dynamodbWruPerMillion).toBe(0.625);
    expect(() => costPerMillion({ ...u, evaluations: 0 })).toThrow(RangeError);
  });

  it('prices each started 64 KB of a call’s payload as one SQS or SNS request, a call without payload as one', () => {
    expect([0, 1, 65_536, 65_537, 10 * 6_700, 262_144].map(pricedRequests)).toEqual([1, 1, 1, 2, 2, 4]);
  });

  it("reads a run's use from its figures: every table's units, the requests as priced, the requesters' sends, GB-seconds at each function's memory", () => {
    const deployment = resolveConfig({ logCount: 8 }); // evaluate 1,024 MB, sequence and deliver 512 MB
    const run = {
      appends: 100,
      unitsPerEntry: { wcu: { ledger: 2.9, requests: 1, packs: 0 }, rcu: { ledger: 0.8, requests: 0, packs: 0.1 } },
      // Calls, and the requests they are priced as: a FIFO receive of ten ledger messages is two 64 KB chunks.
      messagingCalls: { 'sqs-standard': 50, 'sqs-fifo': 24, sns: 10 },
      messagingRequests: { 'sqs-standard': 50, 'sqs-fifo': 30, sns: 10 },
      lambda: {
        invocations: { sequence: 12, evaluate: 10, deliver: 8 },
        invokedMs: { sequence: 1000, evaluate: 2000, deliver: 4000 },
        coldStarts: 3,
      },
    } as unknown as RunFigures;
    const u = usageOf(run, deployment);
    expect(u.wru).toBeCloseTo(390, 9);
    expect(u.rru).toBeCloseTo(90, 9);
    expect(u.sqsStandardRequests).toBe(150);
    expect(u.sqsFifoRequests).toBe(30);
    expect(u.snsPublishes).toBe(10);
    expect(u.lambdaRequests).toBe(30);
    expect(u.lambdaGbSeconds).toBeCloseTo(1 * 0.5 + 2 * 1 + 4 * 0.5, 9);
    // The measured log bytes: per evaluation, and per invocation of each function (test/bench/log-volume.test.ts).
    const { perEvaluation, perInvocation: i } = LOG_BYTES;
    expect(u.logBytes).toBe(100 * perEvaluation + 12 * i.sequence + 10 * i.evaluate + 8 * i.deliver);
  });

  it('adds a log’s batch cycle from its steps, in the order they hold the FIFO group', () => {
    const b = {
      batches: 10,
      recordsPerBatch: 9.5,
      messagesPerBatch: 1.9,
      groupsPerBatch: 1,
      receiveToInvokeMs: 30,
      beforeSlotsMs: 25,
      headReadMs: 8,
      claimsMs: 17,
      slotWritesMs: 10,
      slotCallsPerBatch: 1,
      afterSlotsMs: 9,
      deleteMs: 5,
      unlockToNextTakeMs: 4,
      evaluateUnderLockMs: 44,
    } satisfies BatchBreakdown;
    const c = batchCycle(b);
    expect(Object.keys(c.steps)).toEqual([
      'receiveAndInvoke',
      'headRead',
      'claimsAndArchive',
      'bundlePut',
      'jobSend',
      'delete',
      'unlockToNextTake',
    ]);
    expect(c.meanMs).toBe(30 + 8 + 17 + 10 + 9 + 5 + 4);
    expect(c.recordsPerBatch).toBe(9.5);
    expect(c.perLogCeiling).toBeCloseTo((9.5 * 1000) / 83, 9);
  });
});

describe('the table quota and the on-demand ramp', () => {
  it('finds a table over the default 40,000 units per second', () => {
    expect(tableQuota({ table: 'ledger', wcuPerSecond: 44_000, rcuPerSecond: 1_000 }).exceedsQuota).toBe(true);
    expect(tableQuota({ table: 'ledger', wcuPerSecond: 40_000, rcuPerSecond: 40_000 }).exceedsQuota).toBe(false);
    expect(tableQuota({ table: 'ledger', wcuPerSecond: 100, rcuPerSecond: 40_001 }).exceedsQuota).toBe(true);
  });

  it('counts the 30-minute doublings from a new table’s 4,000 WRU/s and 12,000 RRU/s that traffic alone needs', () => {
    const at = (wcu: number, rcu = 0) => tableQuota({ table: 't', wcuPerSecond: wcu, rcuPerSecond: rcu });
    expect(at(4_000)).toMatchObject({ exceedsNewTableWarm: false, doublings: 0, rampMinutes: 0 });
    expect(at(4_001)).toMatchObject({ exceedsNewTableWarm: true, doublings: 1, rampMinutes: 30 });
    expect(at(8_000)).toMatchObject({ doublings: 1, rampMinutes: 30 });
    expect(at(16_001)).toMatchObject({ doublings: 3, rampMinutes: 90 }); // 4k → 8k → 16k → 32k
    expect(at(44_000)).toMatchObject({ doublings: 4, rampMinutes: 120 });
    expect(at(100, 12_000)).toMatchObject({ doublings: 0 });
    expect(at(100, 24_001)).toMatchObject({ doublings: 2, rampMinutes: 60 });
  });

  it("meters a table's busiest whole second over all its keys", () => {
    const meter = new CapacityMeter(false);
    meter.charge('t', 'a', 'wcu', 600, 100);
    meter.charge('t', 'b', 'wcu', 600, 900); // the same second as a: 1,200 in all, though no key reached 1,000
    meter.charge('t', 'a', 'wcu', 700, 1500);
    meter.charge('u', 'a', 'wcu', 5000, 1500);
    expect(meter.tablePeak('t', 'wcu', 0, 3000)).toBe(1200);
    expect(meter.hottest('t', 'wcu', 0, 3000).unitsPerSecond).toBe(700);
    expect(meter.tablePeak('t', 'rcu', 0, 3000)).toBe(0);
  });
});
