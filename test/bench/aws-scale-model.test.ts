/**
 * The AWS scale model's own parts must be right before its figures mean anything: the virtual clock, the latency
 * distribution, DynamoDB's unit arithmetic and per-key limits, the SDK's retry delays, the FIFO queue's group lock and
 * deduplication, the modelled SQS client the sequence function's runtime sends through, and the metered store
 * charging a known sequence of calls.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { entryItem as wireEntryItem } from '../../adapters/ledger-entry-item.js';
import { markerItem as wireMarkerItem } from '../../adapters/ledger-marker-item.js';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { readLedgerMessage } from '../../core/pipeline/ledger-message.js';
import { MAX_JOB_ENTRIES } from '../../core/pipeline/delivery-job.js';
import { sequenceMessage } from '../../core/pipeline/sequencing.js';
import { createSequenceRuntime } from '../../functions/lib/sequence-runtime.js';
import { modelledSqsClient } from '../../bench/support/aws-model/modelled-sqs-client.js';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../bench/support/aws-model/virtual-clock.js';
import { latencyMeanMs, quantileLatency } from '../../bench/support/aws-model/latency.js';
import { fixedLatency, PROFILES } from '../../bench/support/aws-model/latency-profile.js';
import { resolveConfig } from '../../infra/config.js';
import {
  itemSize,
  numberSize,
  readUnits,
  TokenBucket,
  writeUnits,
} from '../../bench/support/aws-model/dynamodb-capacity.js';
import { CapacityMeter } from '../../bench/support/aws-model/capacity-meter.js';
import {
  RetryQuota,
  SDK_STANDARD_RETRY,
  ThrottlingError,
  throttlingBackoffMs,
  withSdkRetry,
} from '../../bench/support/aws-model/sdk-retry.js';
import { DEDUPLICATION_WINDOW_MS, SimQueue, sqsEvent } from '../../bench/support/aws-model/sqs-queue.js';
import {
  entryItem,
  fromWire,
  groupItem,
  LEDGER_TABLE,
  LedgerTable,
  ModelledLedgerStore,
  type CallSite,
} from '../../bench/support/aws-model/modelled-ledger-store.js';
import {
  bareWrites,
  rateAtP99,
  simulate,
  workload,
  type ScaleOptions,
} from '../../bench/support/aws-model/scale-model.js';
import { DeliveryTally } from '../../bench/support/aws-model/delivered-once.js';
import { prng } from '../../bench/support/seeded-prng.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { handleBatch } from '../../core/pipeline/batch.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import { processRequest, type PipelineConfig } from '../../core/pipeline/process-request.js';
import { testPipelineConfig, TEST_ROUTES } from '../pipeline/pipeline-config-fixture.js';
import { deliverJob } from '../../core/pipeline/deliver-job.js';
import type { DeliveryJob } from '../../core/pipeline/delivery-job.js';

describe('the virtual clock', () => {
  it('wakes sleepers in time order and ends at the last wake-up without real waiting', async () => {
    const clock = new VirtualClock();
    const woke: string[] = [];
    void clock.sleep(30).then(() => woke.push(`b@${clock.now}`));
    void clock.sleep(10).then(async () => {
      woke.push(`a@${clock.now}`);
      await clock.sleep(50);
      woke.push(`c@${clock.now}`);
    });
    const started = Date.now();
    expect(await clock.run()).toBe(60);
    expect(woke).toEqual(['a@10', 'b@30', 'c@60']);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('wakes sleepers due at the same instant in the order they slept', async () => {
    const clock = new VirtualClock();
    const woke: number[] = [];
    for (const i of [0, 1, 2, 3]) void clock.sleep(5).then(() => woke.push(i));
    await clock.run();
    expect(woke).toEqual([0, 1, 2, 3]);
  });

  it('refuses a negative or infinite delay', () => {
    const clock = new VirtualClock();
    expect(() => clock.sleep(-1)).toThrow(RangeError);
    expect(() => clock.sleep(Infinity)).toThrow(RangeError);
  });
});

describe('a latency fixed by its median and 99th percentile', () => {
  it('has the median and 99th percentile it was given', () => {
    const draw = quantileLatency({ p50Ms: 4, p99Ms: 15 }, prng(42));
    const xs = Array.from({ length: 100_000 }, draw).sort((a, b) => a - b);
    expect(xs[50_000]).toBeGreaterThan(3.9);
    expect(xs[50_000]).toBeLessThan(4.1);
    expect(xs[99_000]).toBeGreaterThan(14.4);
    expect(xs[99_000]).toBeLessThan(15.6);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - latencyMeanMs({ p50Ms: 4, p99Ms: 15 }))).toBeLessThan(0.05);
  });

  it('draws the same sequence for the same seed', () => {
    const a = quantileLatency({ p50Ms: 4, p99Ms: 15 }, prng(7));
    const b = quantileLatency({ p50Ms: 4, p99Ms: 15 }, prng(7));
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});

describe("DynamoDB's capacity units", () => {
  it('sizes an item as attribute names plus values, numbers by significant digits', () => {
    expect(numberSize(0)).toBe(2);
    expect(numberSize(12345)).toBe(4); // 5 digits → 3 bytes + 1
    expect(numberSize(1000)).toBe(2); // trailing zeros trimmed: 1 digit
    expect(itemSize({ pk: 'req#abc', sk: 1 })).toBe(2 + 7 + 2 + 2);
    expect(itemSize({ é: 'é', b: new Uint8Array(10) })).toBe(2 + 2 + 1 + 10);
  });

  it('charges 1 WCU per started KB and 1 RCU per started 4 KB, at least one of each', () => {
    expect([writeUnits(0), writeUnits(1024), writeUnits(1025), writeUnits(3000)]).toEqual([1, 1, 2, 3]);
    expect([readUnits(0), readUnits(4096), readUnits(4097), readUnits(9000)]).toEqual([1, 1, 2, 3]);
  });

  it('throttles a key past its per-second limit and refills it at that limit, up to the burst it may save', () => {
    const b = new TokenBucket(1000, 300, 1, 0);
    expect(b.take(1000, 0)).toBe(true);
    expect(b.take(1, 0)).toBe(false);
    expect(b.take(500, 500)).toBe(true); // half a second refills 500
    expect(b.take(1, 500)).toBe(false);
    const idle = new TokenBucket(1000, 300, 0, 0);
    expect(idle.take(300_000, 400_000)).toBe(true); // 400 s idle saves only 300 s
    expect(idle.take(1, 400_000)).toBe(false);
  });

  it("meters each key's calls and refuses what the key's limit would exceed, charging nothing for it", () => {
    const meter = new CapacityMeter(true);
    expect(meter.charge('t', 'log#a', 'wcu', 999, 0)).toBe(true);
    expect(meter.charge('t', 'log#a', 'wcu', 2, 0)).toBe(false);
    expect(meter.charge('t', 'log#b', 'wcu', 2, 0)).toBe(true);
    expect(meter.charge('t', 'log#a', 'rcu', 3000, 0)).toBe(true);
    expect(meter.throttled).toBe(1);
    expect(meter.total('t', 'wcu')).toBe(1001);
    expect(meter.ofKey('t', 'log#a', 'wcu')).toBe(999);
    const open = new CapacityMeter(false);
    expect(open.charge('t', 'log#a', 'wcu', 5000, 0)).toBe(true);
    expect(open.throttled).toBe(0);
  });

  it('reads the hottest key from its busiest whole second', () => {
    const meter = new CapacityMeter(false);
    meter.charge('t', 'a', 'wcu', 100, 100);
    meter.charge('t', 'a', 'wcu', 100, 1100);
    meter.charge('t', 'a', 'wcu', 100, 1200);
    meter.charge('t', 'b', 'wcu', 150, 2500);
    expect(meter.hottest('t', 'wcu', 0, 3000)).toEqual({ table: 't', key: 'a', unitsPerSecond: 200 });
  });
});

describe("the SDK's standard retry for throttles", () => {
  it('waits full-jitter exponential delays from a 1 s base, capped at 20 s', () => {
    expect(throttlingBackoffMs(0, () => 0.5)).toBe(500);
    expect(throttlingBackoffMs(1, () => 0.5)).toBe(1000);
    expect(throttlingBackoffMs(10, () => 0.5)).toBe(10_000);
    expect(throttlingBackoffMs(0, () => 0)).toBe(0);
  });

  it('retries a throttled call after those delays on the virtual clock and gives up after 3 attempts', async () => {
    const clock = new VirtualClock();
    const attemptsAt: number[] = [];
    const quota = new RetryQuota();
    const done = withSdkRetry(
      async () => {
        attemptsAt.push(clock.now);
        throw new ThrottlingError('hot key');
      },
      { sleep: (ms) => clock.sleep(ms), rand: () => 0.5, quota },
    ).catch((e: unknown) => e);
    await clock.run();
    expect(await done).toBeInstanceOf(ThrottlingError);
    expect(SDK_STANDARD_RETRY.maxAttempts).toBe(3);
    expect(attemptsAt).toEqual([0, 500, 1500]);
    expect(quota.tokens).toBe(500 - 2 * 5);
  });

  it('returns a retried success and gives its cost back to the quota', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const quota = new RetryQuota();
    quota.tokens = 100;
    const done = withSdkRetry(
      async () => {
        if (++calls === 1) throw new ThrottlingError('hot key');
        return 'ok';
      },
      { sleep: (ms) => clock.sleep(ms), rand: () => 0, quota },
    );
    await clock.run();
    expect(await done).toBe('ok');
    expect(quota.tokens).toBe(100);
  });

  it('does not retry an error that is not a throttle', async () => {
    let calls = 0;
    const clock = new VirtualClock();
    const done = withSdkRetry(
      async () => {
        calls += 1;
        throw new Error('validation');
      },
      { sleep: (ms) => clock.sleep(ms), rand: () => 0, quota: new RetryQuota() },
    ).catch((e: unknown) => e);
    await clock.run();
    expect(((await done) as Error).message).toBe('validation');
    expect(calls).toBe(1);
  });
});

describe('the simulated SQS queues', () => {
  it('a FIFO group delivers nothing more until its in-flight batch is deleted', async () => {
    const clock = new VirtualClock();
    const q = new SimQueue(clock, 'fifo', 180_000);
    for (let i = 0; i < 12; i++) q.send(`a${i}`, 'log-a');
    q.send('b0', 'log-b');
    const first = await q.receive(10);
    expect(first.map((m) => m.body)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
    const second = await q.receive(10);
    expect(second.map((m) => m.body)).toEqual(['b0']); // log-a is locked
    let third: string[] | undefined;
    void q.receive(10).then((ms) => (third = ms.map((m) => m.body)));
    // Let every ready promise settle without advancing the clock to the visibility timeouts.
    const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
    await settle();
    expect(third).toBeUndefined();
    q.delete(first);
    await settle();
    expect(third).toEqual(['a10', 'a11']);
    expect(clock.now).toBe(0);
  });

  it('accepts a FIFO copy sent to its group within five minutes without queuing it, and queues it after', async () => {
    const clock = new VirtualClock();
    const q = new SimQueue(clock, 'fifo', 180_000);
    const first = q.send('x', 'log-a', 'd1');
    expect(q.send('x', 'log-a', 'd1')).toBe(first);
    expect(q.deduplicated).toBe(1);
    // The stack deduplicates per message group: the same id in another group is another message.
    const other = q.send('x', 'log-b', 'd1');
    expect(other).not.toBe(first);
    const later = clock.sleep(DEDUPLICATION_WINDOW_MS).then(() => q.send('x', 'log-a', 'd1'));
    await clock.run();
    expect(await later).not.toBe(first);
    expect(q.deduplicated).toBe(1);
    // Three messages queued of the four sends.
    expect((await q.receive(10)).map((m) => m.messageId)).toEqual([first, await later, other].map((m) => m.messageId));
  });

  it('redelivers a message not deleted within the visibility timeout, and counts it', async () => {
    const clock = new VirtualClock();
    const q = new SimQueue(clock, 'standard', 180_000);
    q.send('x');
    const [m] = await q.receive(10);
    let again: number | undefined;
    void q.receive(10).then(() => (again = clock.now));
    await clock.run();
    expect(m!.receiveCount).toBe(2);
    expect(again).toBe(180_000);
    expect(q.redelivered).toBe(1);
  });
});

describe('the metered ledger store', () => {
  const site = (clock: VirtualClock, meter: CapacityMeter, latency = 4): CallSite => ({
    clock,
    meter,
    latency: fixedLatency(latency),
    retry: { sleep: (ms) => clock.sleep(ms), rand: () => 0.5, quota: new RetryQuota() },
    cpuDone: () => Promise.resolve(),
  });
  /** Hex of a SHA-256 chain: raw DEFLATE stores it in about half its length, so its stored size is not trivial. */
  const noise = (chars: number): string => {
    let out = '';
    for (let h = 'seed'; out.length < chars;) out += h = createHash('sha256').update(h).digest('hex');
    return out.slice(0, chars);
  };
  const entry = (seq: number, body: string): StoredEntry => ({
    logId: 'a',
    seq,
    body,
    projection: { requestId: `r${seq}`, kind: 'disposition', entryHash: 'e'.repeat(64) },
  });
  /** A bundle member: a bundle stores no projection, so the body states it (ADR 0476). */
  const member = (seq: number, pad: string): StoredEntry => {
    const body = JSON.stringify({ kind: 'disposition', pad, requestId: `r${seq}` });
    return {
      logId: 'a',
      seq,
      body,
      projection: { requestId: `r${seq}`, kind: 'disposition', entryHash: entryHashOf(body) },
    };
  };

  it('charges a known sequence of calls the expected units and latency', async () => {
    const clock = new VirtualClock();
    const meter = new CapacityMeter(false);
    const store = new ModelledLedgerStore(new LedgerTable(), site(clock, meter));
    const big = entry(0, noise(5000)); // compressed ~2.6 KB → 3 WCU, 1 RCU
    const small = entry(0, 'y'); // a lost race for the same slot: charged at the larger (stored) item
    const done = (async () => {
      expect(await store.readHead('a')).toBeNull(); // empty Query: 1 RCU
      expect(await store.putEntryIfAbsent(big)).toBe(true);
      expect(await store.putEntryIfAbsent(small)).toBe(false);
      expect(
        await store.putClaimIfAbsent({ requestId: 'r0', logId: 'a', requestDigest: 'd'.repeat(64), headBefore: -1 }),
      ).toBe(true);
      expect((await store.readHead('a'))?.seq).toBe(0);
      const read: number[] = [];
      for await (const e of store.readEntries('a', 0)) read.push(e.seq);
      expect(read).toEqual([0]);
      return clock.now;
    })();
    await clock.run();
    expect(await done).toBe(6 * 4); // six calls, 4 ms each
    expect(writeUnits(2600)).toBe(3);
    expect(meter.ofKey(LEDGER_TABLE, 'log#a', 'wcu')).toBe(3 + 3);
    expect(meter.ofKey(LEDGER_TABLE, 'req#r0', 'wcu')).toBe(1);
    expect(meter.ofKey(LEDGER_TABLE, 'log#a', 'rcu')).toBe(1 + 1 + 1);
    expect(itemSize(entryItem(big))).toBeGreaterThan(2048);
    expect(itemSize(entryItem(big))).toBeLessThanOrEqual(3072);
  });

  it('sizes an entry item exactly as the adapter stores it: the body compressed in bodyz, no plain body', () => {
    const e = entry(7, noise(1400));
    const stored = wireEntryItem(e);
    const sized = entryItem(e);
    expect(Object.keys(sized).sort()).toEqual(['bodyz', 'entryHash', 'kind', 'pk', 'requestId', 'sk']);
    expect(sized.bodyz).toEqual(stored.bodyz!.B);
    // The compressed body is what is metered: a 1.4 KB body of hex is stored in well under 1 KB.
    expect((sized.bodyz as Uint8Array).byteLength).toBeLessThan(1000);
    expect(writeUnits(itemSize(sized))).toBe(1);
  });

  it('prices a batch marker as one PutItem of the adapter’s marker item: 1 WCU for a full job, a taken key too', async () => {
    const clock = new VirtualClock();
    const meter = new CapacityMeter(false);
    const store = new ModelledLedgerStore(new LedgerTable(), site(clock, meter));
    // A full delivery job of UUID-length ids (ADR 0498).
    const positions = Array.from({ length: 10 }, (_, i) => ({
      seq: 10 + i,
      requestId: `${noise(8)}-${i}`.padEnd(36, 'x'),
    }));
    const done = (async () => {
      expect(await store.putMarkerIfAbsent({ logId: 'a', positions })).toBe(true);
      expect(await store.putMarkerIfAbsent({ logId: 'a', positions: positions.slice(9) })).toBe(false);
      const read: number[] = [];
      for await (const m of store.readMarkers('a', 0)) read.push(m.positions.length);
      expect(read).toEqual([10]);
      return clock.now;
    })();
    await clock.run();
    expect(await done).toBe(3 * 4);
    const sized = fromWire(wireMarkerItem({ logId: 'a', positions }));
    expect(writeUnits(itemSize(sized))).toBe(1);
    expect(meter.ofKey(LEDGER_TABLE, 'mark#a', 'wcu')).toBe(2);
    expect(meter.ofKey(LEDGER_TABLE, 'mark#a', 'rcu')).toBe(1);
  });

  it('prices a group as one PutItem of its bundle item: one latency, 1 WCU per KB of the bundle, a refused one too', async () => {
    const clock = new VirtualClock();
    const meter = new CapacityMeter(false);
    const draws = [6, 4];
    const store = new ModelledLedgerStore(new LedgerTable(), {
      ...site(clock, meter),
      latency: { ...fixedLatency(0), dynamo: () => draws.shift()! },
    });
    const group = [member(0, noise(2400)), member(1, noise(100)), member(2, noise(100))];
    const bundle = itemSize(groupItem(group));
    const again = [member(0, 'y'), member(1, 'y')];
    const done = (async () => {
      // One stream for the members, no projection per member: smaller than the members as entry items.
      expect(bundle).toBeLessThan(group.reduce((n, e) => n + itemSize(entryItem(e)), 0));
      expect(bundle).toBeGreaterThan(itemSize(entryItem(group[0]!)) - 200);
      expect(await store.putEntriesIfAbsent(group)).toBe(true);
      const at = clock.now;
      expect(await store.putEntriesIfAbsent(again)).toBe(false); // a stale writer: the bundle's key is taken
      return [at, clock.now];
    })();
    await clock.run();
    expect(await done).toEqual([6, 6 + 4]);
    expect(meter.ofKey(LEDGER_TABLE, 'log#a', 'wcu')).toBe(
      writeUnits(bundle) + writeUnits(Math.max(bundle, itemSize(groupItem(again)))),
    );
    expect(writeUnits(bundle)).toBe(2); // one item under 2 KB: a transaction paid 2 WCU per member, 6
  });

  it('retries a throttled write with the SDK delays and records it as throttled', async () => {
    const clock = new VirtualClock();
    const meter = new CapacityMeter(true);
    meter.charge(LEDGER_TABLE, 'log#a', 'wcu', 1000, 0); // the key's whole second is spent
    const store = new ModelledLedgerStore(new LedgerTable(), site(clock, meter));
    const done = store.putEntryIfAbsent(entry(0, noise(5000))).then((created) => ({ created, at: clock.now }));
    await clock.run();
    // A 3-WCU write: attempt 1 reaches the table at 2 ms, when 2 WCU have refilled (throttled), and answers at 4;
    // the retry after ⌊0.5 · 1000⌋ = 500 ms reaches it at 506 ms, when 506 WCU have refilled.
    expect(await done).toEqual({ created: true, at: 4 + 500 + 4 });
    expect(meter.throttled).toBe(1);
  });
});

describe("the model's sequence function", () => {
  const logs = ['scale-0', 'scale-1', 'scale-2'];
  /** The sequence runtime over the modelled client, its calls recorded; an intake batch of `bodies` sent at 1.5 s. */
  async function sequenced(bodies: readonly string[]) {
    const clock = new VirtualClock();
    const intake = new SimQueue(clock, 'standard', 180_000);
    const ledger = new SimQueue(clock, 'fifo', 180_000);
    const calls: { service: string; bytes: number }[] = [];
    const client = modelledSqsClient(new Map([['ledger-url', ledger]]), async (service, bytes, serve) => {
      calls.push({ service, bytes });
      return serve();
    });
    const runtime = createSequenceRuntime({ sqs: client, ledgerQueueUrl: 'ledger-url', logIds: logs });
    const sent = clock.sleep(1500.7).then(() => bodies.map((b) => intake.send(b)));
    await clock.run();
    const intakeIds = (await sent).map((m) => m.messageId);
    const event = sqsEvent(await intake.receive(10));
    return { client, runtime, ledger, calls, intakeIds, event };
  }

  it('runs the sequence runtime: the intake batch is one ledger message, under the group its digest selects', async () => {
    const bodies = ['{"requestId":"a"}', '{"requestId":"b"}', 'not json: an unidentified request travels too'];
    const { runtime, ledger, calls, intakeIds, event } = await sequenced(bodies);
    expect(await runtime.handle(event)).toEqual({ batchItemFailures: [] });
    const messages = await ledger.receive(10);
    expect(messages).toHaveLength(1);
    const [m] = messages;
    expect(m!.group).toBe(sequenceMessage(m!.body, logs).groupId);
    expect(logs).toContain(m!.group);
    const read = readLedgerMessage(m!.body);
    expect(read.ok && read.value).toEqual(
      bodies.map((body, i) => ({ body, intakeMessageId: intakeIds[i], intakeSentTimestamp: '1500' })),
    );
    // One SendMessageBatch to the FIFO queue, its payload the message's bytes.
    expect(calls).toEqual([{ service: 'sqs-fifo', bytes: Buffer.byteLength(m!.body, 'utf8') }]);
  });

  it('deduplicates the same intake batch sent again, as the FIFO queue does', async () => {
    const { runtime, ledger, event } = await sequenced(['{"requestId":"a"}', '{"requestId":"b"}']);
    await runtime.handle(event);
    await runtime.handle(event);
    expect(ledger.deduplicated).toBe(1);
    expect(await ledger.receive(10)).toHaveLength(1);
  });

  it('refuses a command it does not model rather than answer it blindly', async () => {
    const { client } = await sequenced(['{"requestId":"a"}']);
    const send = new SendMessageCommand({ QueueUrl: 'ledger-url', MessageBody: 'x' });
    await expect(client.send(send)).rejects.toThrow(/does not model SendMessageCommand/);
  });
});

describe("the model's delivered-once check", () => {
  const packBytes = new Uint8Array(
    readFileSync(new URL('../../examples/data-request-intake-triage.json', import.meta.url)),
  );
  const config: PipelineConfig = testPipelineConfig(['d-0']);
  const packs = cachedPackSource({ getPack: async () => packBytes, resolveAlias: async () => null });

  /** Three triage requests recorded by the real batch handler and delivered by the real stage; the ids it sent. */
  async function recorded() {
    const store = new MemoryLedgerStore();
    const writer = ledgerWriter({
      store,
      signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(9))),
      logIds: config.logIds,
      now: () => '2026-12-04T17:00:00Z',
    });
    const sent: string[] = [];
    const jobs: DeliveryJob[] = [];
    const work = workload(3, packBytes, 11);
    await handleBatch(
      work.bodies.map((body, i) => ({ messageId: `m${i}`, body, groupId: 'd-0' })),
      {
        process: (bytes) =>
          processRequest(bytes, config, {
            packs,
            archive: { put: async () => undefined },
            ledger: writer.forLog('d-0'),
          }),
        deadLetter: async () => undefined,
        jobs: { send: async (list) => (jobs.push(...list), { failed: [] }) },
      },
    );
    for (const job of jobs)
      await deliverJob(job, TEST_ROUTES, {
        store,
        packs,
        outbox: {
          handoffs: { sendBatch: async (_q, list) => (sent.push(...list.map((h) => h.handoffId)), { failed: [] }) },
          results: { publishBatch: async (list) => (sent.push(...list.map((m) => m.id)), { failed: [] }) },
        },
      });
    return { store, sent, requestIds: work.requestIds };
  }
  const judge = (tally: DeliveryTally, store: MemoryLedgerStore) =>
    tally.verdict(store, config.logIds, TEST_ROUTES, packs);

  it('passes every id the entries owe, arriving once', async () => {
    const { store, sent } = await recorded();
    expect(sent.length).toBeGreaterThan(3); // handoffs as well as the three notifications
    const tally = new DeliveryTally();
    for (const id of sent) tally.applied(id);
    expect(await judge(tally, store)).toEqual({
      ok: true,
      missing: 0,
      repeats: 0,
      unexplainedRepeats: 0,
      unexpected: 0,
    });
  });

  it('fails a missing id, an id no entry owes, and a repeat of a request nothing redelivered', async () => {
    const { store, sent } = await recorded();
    const missing = new DeliveryTally();
    for (const id of sent.slice(1)) missing.applied(id);
    expect(await judge(missing, store)).toMatchObject({ ok: false, missing: 1 });
    const stranger = new DeliveryTally();
    for (const id of [...sent, 'x'.repeat(64)]) stranger.applied(id);
    expect(await judge(stranger, store)).toMatchObject({ ok: false, unexpected: 1 });
    const twice = new DeliveryTally();
    for (const id of [...sent, ...sent]) twice.applied(id);
    expect(await judge(twice, store)).toMatchObject({ ok: false, repeats: sent.length });
  });

  it('accepts repeats only of the requests really redelivered', async () => {
    const { store, sent, requestIds } = await recorded();
    const tally = new DeliveryTally();
    for (const id of [...sent, ...sent]) tally.applied(id);
    for (const id of requestIds.slice(1)) tally.redeliveredRequest(id);
    const partly = await judge(tally, store);
    expect(partly.ok).toBe(false);
    expect(partly.unexplainedRepeats).toBeGreaterThan(0);
    tally.redeliveredRequest(requestIds[0]!);
    expect(await judge(tally, store)).toMatchObject({ ok: true, repeats: sent.length, unexplainedRepeats: 0 });
  });
});

describe('the scale model end to end', () => {
  const packBytes = new Uint8Array(
    readFileSync(new URL('../../examples/data-request-intake-triage.json', import.meta.url)),
  );
  // The smallest deployable shape with two logs: one evaluate instance per log (ADR 0273), AWS's minimum of 2 elsewhere.
  const deployment = resolveConfig({ logCount: 2, sequencerMaximumConcurrency: 2, deliverMaximumConcurrency: 2 });
  const o: ScaleOptions = {
    deployment,
    appends: 60,
    throttle: true,
    profile: PROFILES.optimistic,
    cpuMsPerRecord: 1,
    signMs: 0.1,
    seed: 5,
  };
  const work = workload(o.appends, packBytes, o.seed);

  it('records and delivers every request once in valid chains, and repeats its figures for the same seed', async () => {
    const a = await simulate(work, o, { kind: 'backlog' });
    expect(a.chainValid).toBe(true);
    expect(a.oneEntryPerRequest).toBe(true);
    expect(a.deliveredOnce).toBe(true);
    expect(a.verifyFindings).toEqual([]);
    const b = await simulate(work, o, { kind: 'backlog' });
    expect(b).toEqual(a);
  });

  it('counts requests per batch, carried several to a ledger message: every request once in a run without redeliveries', async () => {
    const run = await simulate(work, o, { kind: 'backlog' });
    const b = run.breakdown;
    expect(run.redelivered).toBe(0);
    // Each batch's requests as the runtime opened them: together, every request of the run exactly once.
    expect(b.recordsPerBatch * b.batches).toBeCloseTo(o.appends, 6);
    expect(b.messagesPerBatch).toBeLessThanOrEqual(deployment.batchSize);
    // A backlog fills the sequence function's intake batches (10), so each ledger message carries several requests.
    expect(b.recordsPerBatch).toBeGreaterThan(2 * b.messagesPerBatch);
    expect(b.recordsPerBatch).toBeLessThanOrEqual(deployment.batchSize * b.messagesPerBatch);
    // A FIFO receive holds at most ten messages, so at least a tenth as many messages as requests came through.
    expect(b.messagesPerBatch * b.batches).toBeGreaterThanOrEqual(o.appends / deployment.batchSize);
  });

  it('loses no slot and reads its entries back once, a head per log per batch besides', async () => {
    const run = await simulate(work, o, { kind: 'backlog' });
    expect(run.lostSlots).toBe(0);
    // The heads (≤ one read per log per batch) and the stage's read back of each job's entries.
    expect(run.ledgerRcuPerEntry).toBeLessThan(1.5);
    expect(run.breakdown.batches).toBeGreaterThan(0);
    expect(run.breakdown.groupsPerBatch).toBeGreaterThanOrEqual(1);
    expect(run.breakdown.groupsPerBatch).toBeLessThanOrEqual(deployment.logCount);
  });

  it("reports when each request's result notification is published, never before its entry is durable", async () => {
    const run = await simulate(work, o, { kind: 'backlog' });
    expect(run.notified).toBe(o.appends);
    // Each request is notified no earlier than its entry is durable, so every percentile is at least as late.
    expect(run.notifiedP50Ms).toBeGreaterThan(run.p50Ms);
    expect(run.notifiedP99Ms).toBeGreaterThanOrEqual(run.p99Ms);
  });

  it('leaves under the lock only the job send after the slot writes, and reports the time the evaluate function holds the lock', async () => {
    const run = await simulate(work, o, { kind: 'backlog' });
    const b = run.breakdown;
    expect(b.afterSlotsMs).toBeGreaterThan(0);
    // One SQS round trip (p99 15 ms) per job send: far less than a position write and the fan-out would take.
    expect(b.afterSlotsMs).toBeLessThan(15);
    // Invoked → returned covers everything before, during and after the slot writes, and nothing else.
    expect(b.evaluateUnderLockMs).toBeCloseTo(b.beforeSlotsMs + b.slotWritesMs + b.afterSlotsMs, 0);
    // The claim's 1 WCU, the bundle's share (its members one compressed stream, ADR 0476) and the job's one batch
    // marker shared by the job's entries (ADR 0498): no unit per entry for its position.
    expect(run.ledgerWcuPerEntry).toBeGreaterThan(1);
    expect(run.ledgerWcuPerEntry).toBeLessThan(2);
  });

  it(`sends the delivery jobs of each log of each batch, ${MAX_JOB_ENTRIES} entries a job at most, and each job is delivered once in a run without redeliveries`, async () => {
    const stage = await simulate(work, o, { kind: 'backlog' });
    expect(stage.redelivered).toBe(0);
    const b = stage.breakdown;
    const { jobsSent } = stage.delivery;
    // Per batch and log ⌈entries / MAX_JOB_ENTRIES⌉ jobs: at least one per log of each batch and one per
    // MAX_JOB_ENTRIES entries, and at most one per log of each batch plus one per MAX_JOB_ENTRIES beyond the first.
    const logBatches = Math.round(b.batches * b.groupsPerBatch);
    expect(jobsSent).toBeGreaterThanOrEqual(Math.max(logBatches, Math.ceil(o.appends / MAX_JOB_ENTRIES)));
    expect(jobsSent).toBeLessThanOrEqual(logBatches + (o.appends - logBatches) / MAX_JOB_ENTRIES);
    // A log's share of a backlog's batch is one bundle: well over ten entries a job.
    expect(o.appends / jobsSent).toBeGreaterThan(10);
    expect(stage.delivery.jobsDelivered).toBe(jobsSent);
    expect(stage.delivery.jobsRefused).toBe(0);
    expect(stage.deliveries).toMatchObject({ missing: 0, repeats: 0, unexpected: 0 });
    // A SendMessageBatch per ten jobs of a batch, one receive and one delete per consumer invocation (≤ 10 jobs).
    const sends = { least: b.batches, most: b.batches + jobsSent / 10 };
    expect(stage.delivery.sqsCalls).toBeGreaterThanOrEqual(sends.least + 2 * Math.ceil(jobsSent / 10));
    expect(stage.delivery.sqsCalls).toBeLessThanOrEqual(sends.most + 2 * jobsSent);
    expect(stage.delivery.sqsCallsPerEntry).toBeCloseTo(stage.delivery.sqsCalls / o.appends, 9);
  });

  it("runs as many delivery consumers as the deployment's deliverMaximumConcurrency", async () => {
    // Jobs arriving faster than two consumers take them, in small groups: eight logs' batches of a paced stream (a
    // backlog fills each batch with up to 100 requests, whose jobs arrive ten to a send and are taken together).
    const eight = resolveConfig({ ...deployment, logCount: 8 });
    const light: ScaleOptions = { ...o, deployment: eight, appends: 400, throttle: false };
    const more = workload(light.appends, packBytes, light.seed);
    const stream = { kind: 'poisson', perSecond: 400 } as const;
    const two = await simulate(more, light, stream);
    const many = await simulate(
      more,
      { ...light, deployment: resolveConfig({ ...eight, deliverMaximumConcurrency: 12 }) },
      stream,
    );
    expect(two.deliveredOnce && many.deliveredOnce).toBe(true);
    expect(many.lambda.invocations.deliver).not.toBe(two.lambda.invocations.deliver);
    // Two consumers deliver every job, one invocation each at a time: more of them take smaller batches of jobs.
    expect(many.lambda.invocations.deliver).toBeGreaterThan(two.lambda.invocations.deliver);
  });

  it('measures its baseline as bare conditional PutItems of the same entry items, faster than the pipeline', async () => {
    const run = await simulate(work, o, { kind: 'backlog' });
    const bare = run.bareWrites;
    expect(bare.writes).toBe(o.appends);
    expect(bare.concurrency).toBe(deployment.maximumConcurrency * deployment.batchSize);
    // Each bare write is one entry item of about a KB: 1 WCU, where the pipeline also claims and places.
    expect(bare.wcuPerWrite).toBeCloseTo(1, 1);
    expect(bare.writesPerSecond).toBeGreaterThan(run.appendsPerSecond);
    expect(bare.p99Ms).toBeLessThan(run.p99Ms);
  });

  it("writes every entry in its baseline even when its writers, all on one log's key, outlast the SDK's retries", async () => {
    // 80 writers (8 instances × 10) on one key of 1,000 WCU/s: three attempts are not always enough.
    const eight: ScaleOptions = { ...o, deployment: resolveConfig({ logCount: 8 }) };
    const entries: StoredEntry[] = Array.from({ length: 3000 }, (_, seq) => ({
      logId: 'scale-0',
      seq,
      body: `{"n":${seq}}`,
      projection: { requestId: `r${seq}`, kind: 'disposition', entryHash: 'e'.repeat(64) },
    }));
    const bare = await bareWrites(entries, eight);
    expect(bare.writes).toBe(3000);
    expect(bare.concurrency).toBe(80);
    expect(bare.throttled).toBeGreaterThan(0);
    expect(bare.wcuPerWrite).toBe(1);
  });

  it('finds by bisection a rate whose p99 meets a target, with the next rate tried above it missing', async () => {
    const sustained = (await simulate(work, o, { kind: 'backlog' })).appendsPerSecond;
    // Below the sustained rate a packed batch absorbs the load and p99 barely moves with the rate (cold starts set it
    // in so short a run); above it the intake backs up. The bisection's first rate is half the ceiling: the sustained
    // rate, whose p99 is the target, met by construction.
    const ceiling = 2 * sustained;
    const paced = await simulate(work, o, { kind: 'poisson', perSecond: sustained });
    const target = paced.p99Ms;
    const found = await rateAtP99(work, o, target, ceiling, 4);
    expect(found.requestsPerSecond).toBeGreaterThanOrEqual(sustained);
    expect(found.p99Ms).toBeLessThanOrEqual(target);
    expect(found.missedAtRequestsPerSecond).toBeGreaterThan(found.requestsPerSecond);
    expect(found.missedAtRequestsPerSecond).toBeLessThan(ceiling); // a rate tried, not the ceiling left untried
    expect(found.missedAtRequestsPerSecond - found.requestsPerSecond).toBeCloseTo(ceiling / 16, 6);
    const missed = await simulate(work, o, {
      kind: 'poisson',
      perSecond: found.missedAtRequestsPerSecond,
    });
    expect(missed.p99Ms).toBeGreaterThan(target);
    // A target no run can meet finds no rate.
    const none = await rateAtP99(work, o, 1, ceiling, 3);
    expect(none).toMatchObject({ requestsPerSecond: 0, p99Ms: undefined });
  });
});
