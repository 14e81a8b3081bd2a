/**
 * The AWS scale model (docs/adr/0280-aws-scale-model.md; model in bench/support/aws-model/): the deployed handlers'
 * runtimes (functions/lib/evaluate-runtime.ts, functions/lib/deliver-runtime.ts) run by simulated Lambda instances on
 * a virtual clock over modelled AWS clients, every DynamoDB and SQS call costing a lognormal latency, metered per
 * partition key and (with --throttle) limited per key with the SDK's own retries. Virtual time: the figures do not
 * depend on this machine or its load, and the same flags and seed give the same figures on every run.
 *
 *   npm run build && node dist/bench/aws-scale.bench.js --instances 8 --logs 8 --appends 12000 --throttle --json
 *
 * It runs the design as shipped (intake → sequence function → SQS FIFO ledger queue, group = log: one writer per log;
 * each log's slot writes group-committed as one bundle item, ADR 0350 and ADR 0400; one delivery job per log sent
 * under the lock; a delivery stage that writes the positions and sends the handoffs and the notifications) twice:
 *   backlog — all requests on the intake at t = 0: appendsPerSecond = requests / time until the last entry is
 *             durable (the sustained rate); units per entry, hottest key, throttles and redeliveries are this run's;
 *   paced   — Poisson arrivals at --rate requests/s (default: 80 % of the sustained rate): p50/p99 are this run's, per
 *             request from its send to the intake to its entry's slot write applied at the table.
 * Both runs' chains are checked with the project's verify (all signatures, position markers) under a test policy.
 * The same-run baseline (`baseline`, `ratio`): the backlog run's entries written again as bare conditional PutItems of
 * the same items against a fresh modelled table with the same latency and limits, instances × batch size at once —
 * the physical floor of writing every entry (scale-model.ts `bareWrites`).
 *
 * Flags: --instances N (50) --logs L (8) --appends K (12000) --throttle --json --seed S (1)
 *   --p50 / --p99 ms (4 / 15: DynamoDB call latency)  --sqs-p50 / --sqs-p99 ms (default: the same as DynamoDB)
 *   --cpu-ms (1: evaluate-function CPU per record)  --sign-ms (0.1: per entry signature, under the slot lock)
 *   --visibility-timeout s (180: infra/config.ts, 6 × the 30 s function timeout)  --sequencers S (max(4, logs))
 *   --rate r (paced run's requests/s)  --batch-size b (10)
 *   --delivery-instances N (delivery-stage consumers; default --instances; infra deploys max(10, maximumConcurrency))
 *   --invoke-ms ms (the event source mapping's poll + invoke after a receive, every function; default one SQS draw)
 * It also reports the latency a requester sees, to the result notification (notifiedP50Ms, notifiedP99Ms),
 * `deliveredOnce`: every entry's handoffs and notification arrived, each id once but for redelivered requests, the
 * stage's jobs sent and delivered and its SQS calls (job send, receive, delete) per entry, and `evaluateUnderLockMs`:
 * the evaluate function's time under the FIFO lock (invoked → returned), mean ms per batch.
 *   --p99-target ms: also bisect, in seven more paced runs, the highest rate whose p99 (to durable) meets the target
 *   (`rateAtP99Target`: the rate, its p99, its share of the sustained rate, the next rate tried that missed)
 * With --json the last line is one JSON object: the figures, `baseline` (the bare writes) and `ratio` (/ baseline).
 */
import './support/node-crypto.js';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  rateAtP99,
  simulate,
  workload,
  type RateAtP99,
  type RunFigures,
  type ScaleOptions,
} from './support/aws-model/scale-model.js';
import { lognormalMeanMs } from './support/aws-model/latency.js';

const COMMAND = 'npm run build && node dist/bench/aws-scale.bench.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '50' },
    logs: { type: 'string', default: '8' },
    appends: { type: 'string', default: '12000' },
    throttle: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    p50: { type: 'string', default: '4' },
    p99: { type: 'string', default: '15' },
    'sqs-p50': { type: 'string' },
    'sqs-p99': { type: 'string' },
    'cpu-ms': { type: 'string', default: '1' },
    'sign-ms': { type: 'string', default: '0.1' },
    'visibility-timeout': { type: 'string', default: '180' },
    sequencers: { type: 'string' },
    rate: { type: 'string' },
    'batch-size': { type: 'string', default: '10' },
    'delivery-instances': { type: 'string' },
    'p99-target': { type: 'string' },
    'invoke-ms': { type: 'string' },
  },
});

function num(name: string, text: string | undefined, min: number, integer = false): number {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n < min || (integer && !Number.isSafeInteger(n)))
    throw new RangeError(`--${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, got ${text}`);
  return n;
}

const logs = num('logs', values.logs, 1, true);
const o: ScaleOptions = {
  instances: num('instances', values.instances, 1, true),
  logs,
  appends: num('appends', values.appends, 1, true),
  throttle: values.throttle,
  dynamoLatency: { p50Ms: num('p50', values.p50, 0.001), p99Ms: num('p99', values.p99, 0.001) },
  sqsLatency: {
    p50Ms: num('sqs-p50', values['sqs-p50'] ?? values.p50, 0.001),
    p99Ms: num('sqs-p99', values['sqs-p99'] ?? values.p99, 0.001),
  },
  cpuMsPerRecord: num('cpu-ms', values['cpu-ms'], 0),
  signMs: num('sign-ms', values['sign-ms'], 0),
  visibilityTimeoutSeconds: num('visibility-timeout', values['visibility-timeout'], 0),
  sequencers: num('sequencers', values.sequencers ?? String(Math.max(4, logs)), 1, true),
  batchSize: num('batch-size', values['batch-size'], 1, true),
  seed: num('seed', values.seed, 0, true),
  ...(values['delivery-instances'] !== undefined
    ? { deliveryInstances: num('delivery-instances', values['delivery-instances'], 1, true) }
    : {}),
  ...(values['invoke-ms'] !== undefined ? { invokeMs: num('invoke-ms', values['invoke-ms'], 0) } : {}),
};

const root = new URL('../../', import.meta.url);
const packBytes = new Uint8Array(readFileSync(new URL('examples/data-request-intake-triage.json', root)));
const work = workload(o.appends, packBytes, o.seed);

interface DesignFigures {
  readonly backlog: RunFigures;
  readonly paced: RunFigures;
  readonly atTarget?: RateAtP99;
}

const p99Target = values['p99-target'] !== undefined ? num('p99-target', values['p99-target'], 0.001) : undefined;

async function run(): Promise<DesignFigures> {
  const backlog = await simulate(work, o, { kind: 'backlog' });
  const perSecond = values.rate !== undefined ? num('rate', values.rate, 0.001) : 0.8 * backlog.appendsPerSecond;
  const paced = await simulate(work, o, { kind: 'poisson', perSecond });
  if (p99Target === undefined) return { backlog, paced };
  return { backlog, paced, atTarget: await rateAtP99(work, o, p99Target, backlog.appendsPerSecond) };
}

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

/** The headline object of one design: the backlog run's rate, units and load; the paced run's latency. */
function summary(f: DesignFigures) {
  const b = f.backlog;
  return {
    design: b.design,
    appendsPerSecond: round(b.appendsPerSecond, 0),
    p50Ms: round(f.paced.p50Ms, 1),
    p99Ms: round(f.paced.p99Ms, 1),
    notifiedP50Ms: round(f.paced.notifiedP50Ms, 1),
    notifiedP99Ms: round(f.paced.notifiedP99Ms, 1),
    notified: f.paced.notified,
    latencyAtRequestsPerSecond: round(f.paced.arrivals.kind === 'poisson' ? f.paced.arrivals.perSecond : 0, 0),
    ...(f.atTarget !== undefined
      ? {
          rateAtP99Target: {
            targetMs: f.atTarget.targetMs,
            requestsPerSecond: round(f.atTarget.requestsPerSecond, 0),
            p99Ms: f.atTarget.p99Ms === undefined ? null : round(f.atTarget.p99Ms, 1),
            shareOfSustained: round(f.atTarget.requestsPerSecond / b.appendsPerSecond),
            missedAtRequestsPerSecond: round(f.atTarget.missedAtRequestsPerSecond, 0),
          },
        }
      : {}),
    ledgerWcuPerEntry: round(b.ledgerWcuPerEntry, 3),
    ledgerRcuPerEntry: round(b.ledgerRcuPerEntry, 3),
    archiveWcuPerEntry: round(b.archiveWcuPerEntry, 3),
    hottestKey: b.hottestKey,
    hottestKeyWcuPerSecond: round(b.hottestKeyWcuPerSecond, 0),
    hottestReadKey: b.hottestReadKey,
    hottestKeyRcuPerSecond: round(b.hottestKeyRcuPerSecond, 0),
    throttled: b.throttled + f.paced.throttled,
    redelivered: b.redelivered + f.paced.redelivered,
    lostSlots: b.lostSlots + f.paced.lostSlots,
    messagingCallsPerRequest: round(b.messagingCallsPerRequest, 3),
    chainValid: b.chainValid && f.paced.chainValid,
    oneEntryPerRequest: b.oneEntryPerRequest && f.paced.oneEntryPerRequest,
    verifyFindings: [...new Set([...b.verifyFindings, ...f.paced.verifyFindings])],
    deliveredOnce: b.deliveredOnce && f.paced.deliveredOnce,
    deliveryRepeats: b.deliveries.repeats + f.paced.deliveries.repeats,
    jobsSent: b.delivery.jobsSent,
    jobsDelivered: b.delivery.jobsDelivered,
    jobsRefused: b.delivery.jobsRefused + f.paced.delivery.jobsRefused,
    deliverySqsCallsPerEntry: round(b.delivery.sqsCallsPerEntry, 3),
    deliveryInvocationsPerEntry: round(b.delivery.invocations / b.appends, 3),
    deliveryInvocationMs: round(b.delivery.invokedMs / Math.max(1, b.delivery.invocations), 1),
    entryItemBytes: {
      stored: roundAll(b.entryItemBytes.stored),
      plain: roundAll(b.entryItemBytes.plain),
    },
    batchBreakdownMs: roundAll(b.breakdown),
    // The evaluate function's time under the FIFO lock (backlog run; the paced run's beside it).
    evaluateUnderLockMs: round(b.breakdown.evaluateUnderLockMs, 1),
    pacedEvaluateUnderLockMs: round(f.paced.breakdown.evaluateUnderLockMs, 1),
    virtualSeconds: round(b.virtualSeconds, 1),
  };
}

/** The same-run baseline: the backlog run's entries as bare conditional PutItems (scale-model.ts `bareWrites`). */
function baselineOf(f: DesignFigures) {
  const w = f.backlog.bareWrites;
  return {
    design: 'bare-conditional-put-items',
    writes: w.writes,
    concurrency: w.concurrency,
    appendsPerSecond: round(w.writesPerSecond, 0),
    p50Ms: round(w.p50Ms, 1),
    p99Ms: round(w.p99Ms, 1),
    ledgerWcuPerEntry: round(w.wcuPerWrite, 3),
    throttled: w.throttled,
    virtualSeconds: round(w.virtualSeconds, 1),
  };
}

function roundAll<T extends object>(x: T): Record<string, number> {
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v as number, 1)]));
}

async function main(): Promise<void> {
  const wall = process.hrtime.bigint();
  const figures = await run();
  const s = summary(figures);
  const base = baselineOf(figures);
  const wallS = Number(process.hrtime.bigint() - wall) / 1e9;

  const args = process.argv.slice(2).join(' ');
  console.log(
    `AWS scale model (virtual time; seed ${o.seed}): ${o.instances} instances × ${o.logs} logs, ${o.appends} appends, throttle ${o.throttle ? 'on' : 'off'}`,
  );
  console.log(
    `  DynamoDB latency p50 ${o.dynamoLatency.p50Ms} ms / p99 ${o.dynamoLatency.p99Ms} ms (mean ${lognormalMeanMs(o.dynamoLatency).toFixed(2)} ms), SQS p50 ${o.sqsLatency.p50Ms} / p99 ${o.sqsLatency.p99Ms} ms; CPU ${o.cpuMsPerRecord} ms/record + ${o.signMs} ms/signature; visibility timeout ${o.visibilityTimeoutSeconds} s`,
  );
  console.log(`  delivery stage: ${o.deliveryInstances ?? o.instances} consumer instances`);
  console.log(`  ${s.design}:`);
  console.log(
    `    ${s.appendsPerSecond} appends/s sustained; p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms at ${s.latencyAtRequestsPerSecond} requests/s`,
  );
  console.log(
    `    to the result notification: p50 ${s.notifiedP50Ms} ms, p99 ${s.notifiedP99Ms} ms (${s.notified} of ${o.appends} requests)`,
  );
  if (s.rateAtP99Target !== undefined) {
    const t = s.rateAtP99Target;
    console.log(
      `    p99 ≤ ${t.targetMs} ms up to ${t.requestsPerSecond} requests/s (${Math.round(t.shareOfSustained * 100)} % of sustained; p99 ${t.p99Ms ?? '-'} ms there, missed at ${t.missedAtRequestsPerSecond})`,
    );
  }
  console.log(
    `    ledger ${s.ledgerWcuPerEntry} WCU + ${s.ledgerRcuPerEntry} RCU per entry (request archive ${s.archiveWcuPerEntry} WCU); hottest key ${s.hottestKey} ${s.hottestKeyWcuPerSecond} WCU/s, ${s.hottestReadKey || '-'} ${s.hottestKeyRcuPerSecond} RCU/s`,
  );
  console.log(
    `    throttled ${s.throttled}, redelivered ${s.redelivered}, lost slots ${s.lostSlots}, SQS/SNS calls per request ${s.messagingCallsPerRequest}; chain valid ${s.chainValid}, one entry per request ${s.oneEntryPerRequest}${s.verifyFindings.length > 0 ? ` (findings: ${s.verifyFindings.join(', ')})` : ''}`,
  );
  console.log(
    `    delivered once ${s.deliveredOnce} (${s.deliveryRepeats} repeats, from redeliveries); delivery jobs sent ${s.jobsSent}, delivered ${s.jobsDelivered}, refused ${s.jobsRefused}; job SQS calls per entry ${s.deliverySqsCallsPerEntry}; consumer invocations per entry ${s.deliveryInvocationsPerEntry}, ${s.deliveryInvocationMs} ms each`,
  );
  console.log(
    `    evaluate function under the FIFO lock: ${s.evaluateUnderLockMs} ms per batch (paced run ${s.pacedEvaluateUnderLockMs} ms)`,
  );
  console.log(`    per batch (mean ms): ${JSON.stringify(s.batchBreakdownMs)}`);
  console.log(
    `  baseline, same run: ${base.writes} bare conditional PutItems of the same entry items, ${base.concurrency} at once: ${base.appendsPerSecond} writes/s; p50 ${base.p50Ms} ms, p99 ${base.p99Ms} ms per write; ${base.ledgerWcuPerEntry} WCU each; throttled ${base.throttled}`,
  );
  const ratio = {
    appendsPerSecond: round(s.appendsPerSecond / base.appendsPerSecond),
    ledgerWcuPerEntry: round(s.ledgerWcuPerEntry / base.ledgerWcuPerEntry),
  };
  console.log(`  pipeline / bare writes (same run): ${JSON.stringify(ratio)}`);
  console.log(`  ${wallS.toFixed(1)} s of wall time`);
  console.log(`  command: ${COMMAND} ${args}`);
  if (values.json)
    console.log(JSON.stringify({ ...s, baseline: base, ratio, options: o, command: `${COMMAND} ${args}` }));
}

await main();
