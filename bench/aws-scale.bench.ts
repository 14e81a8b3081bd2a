/**
 * The AWS scale model (docs/adr/0280-aws-scale-model.md): the deployed handlers' runtimes on a virtual clock over
 * modelled AWS clients, as bench/support/aws-model/scale-model.ts describes, under a latency profile
 * (docs/adr/0470-calibrated-latency-profiles.md). Virtual time: the same flags and seed give the same figures on every
 * run, whatever this machine's load.
 *
 *   npm run build && node dist/bench/aws-scale.bench.js --logs 8 --appends 12000 --throttle --json --rate 1400
 *
 * It models a deployment: the configuration object `cdk deploy` takes (infra/config.ts `resolveConfig`; flags map onto
 * it, --config adds any other member as JSON) and refuses what synthesis refuses, with the configuration's own error
 * (docs/adr/0471-scale-model-runs-deployable-configurations.md). It runs the design as shipped twice:
 *   backlog — all requests on the intake at t = 0: appendsPerSecond = requests / time until the last entry is
 *             durable (the sustained rate); the batch cycle, hottest key, table peaks, throttles are this run's;
 *   paced   — Poisson arrivals at --rate requests/s (default: 80 % of the sustained rate): p50/p99, and the units,
 *             calls and cost per evaluation at the batch fill that rate gives, are this run's;
 * per request from its send to the intake to its entry's slot write applied at the table.
 * Both runs' chains are checked with the project's verify (all signatures, position markers) under a test policy.
 * The same-run baseline (`baseline`, `ratio`): the backlog run's entries as bare conditional PutItems (scale-model.ts
 * `bareWrites`), the physical floor of writing every entry.
 *
 * Flags (deployment: infra/config.ts's member in brackets, its default unless given):
 *   --logs L [logCount] (8)  --instances N [maximumConcurrency]  --batch-size b [batchSize]
 *   --sequencers S [sequencerMaximumConcurrency]  --delivery-instances N [deliverMaximumConcurrency]
 *   --config JSON (any other DocketConfig members, as in cdk.json's docket.<stage>)
 * Model: --appends K (12000) --throttle --json --seed S (1) --profile optimistic|published|pessimistic (published)
 *   --cpu-ms (1: evaluate-function CPU per record)  --sign-ms (0.1: per entry signature, under the slot lock)
 *   --rate r (paced run's requests/s)
 *   --p99-target ms: also bisect, in seven more paced runs, the highest rate whose p99 (to durable) meets the target
 *   (`requestsPerSecondAtP99Target`, and `rateAtP99Target`: its p99, share of the sustained rate, the next rate missed)
 * With --json the last line is one JSON object: the figures (`summary`), `baseline` (the bare writes) and `ratio`.
 */
import './support/node-crypto.js';
import { parseArgs } from 'node:util';
import { EXIT } from '../core/exit-codes.js';
import { DocketConfigError, resolveConfig, type DocketConfig } from '../infra/config.js';
import {
  rateAtP99,
  simulate,
  workload,
  type RateAtP99,
  type RunFigures,
  type ScaleOptions,
} from './support/aws-model/scale-model.js';
import { isProfileName, PROFILES } from './support/aws-model/latency-profile.js';
import { latencyMeanMs } from './support/aws-model/latency.js';
import { costPerMillion } from './support/aws-model/cost-model.js';
import { tableQuota } from './support/aws-model/table-quota.js';
import { batchCycle, unitsPerEvaluation, usageOf } from './support/aws-model/run-usage.js';
import { triagePackBytes } from './support/triage-facts.js';

const COMMAND = 'npm run build && node dist/bench/aws-scale.bench.js';

const { values } = parseArgs({
  options: {
    logs: { type: 'string', default: '8' },
    instances: { type: 'string' },
    'batch-size': { type: 'string' },
    sequencers: { type: 'string' },
    'delivery-instances': { type: 'string' },
    config: { type: 'string' },
    appends: { type: 'string', default: '12000' },
    throttle: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    profile: { type: 'string', default: 'published' },
    'cpu-ms': { type: 'string', default: '1' },
    'sign-ms': { type: 'string', default: '0.1' },
    rate: { type: 'string' },
    'p99-target': { type: 'string' },
  },
});

function num(name: string, text: string | undefined, min: number, integer = false): number {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n < min || (integer && !Number.isSafeInteger(n)))
    throw new RangeError(`--${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, got ${text}`);
  return n;
}

/** The flags as DocketConfig members: only those given, so the configuration's own defaults apply to the rest. */
function deploymentOverrides(): Partial<DocketConfig> {
  const fromJson = values.config === undefined ? {} : (JSON.parse(values.config) as Partial<DocketConfig>);
  const given = (flag: string, member: keyof DocketConfig): Partial<DocketConfig> => {
    const text = (values as Record<string, string | boolean | undefined>)[flag];
    return typeof text === 'string' ? { [member]: Number(text) } : {};
  };
  return {
    ...fromJson,
    logCount: Number(values.logs),
    ...given('instances', 'maximumConcurrency'),
    ...given('batch-size', 'batchSize'),
    ...given('sequencers', 'sequencerMaximumConcurrency'),
    ...given('delivery-instances', 'deliverMaximumConcurrency'),
  };
}

function deployment(): DocketConfig {
  try {
    return resolveConfig(deploymentOverrides());
  } catch (e) {
    if (!(e instanceof DocketConfigError)) throw e;
    console.error(`aws-scale: not a deployable configuration (${e.code}): ${e.message}`);
    process.exit(EXIT.USAGE);
  }
}

if (!isProfileName(values.profile)) throw new RangeError(`--profile must be optimistic, published or pessimistic`);
const o: ScaleOptions = {
  deployment: deployment(),
  appends: num('appends', values.appends, 1, true),
  throttle: values.throttle,
  profile: PROFILES[values.profile],
  cpuMsPerRecord: num('cpu-ms', values['cpu-ms'], 0),
  signMs: num('sign-ms', values['sign-ms'], 0),
  seed: num('seed', values.seed, 0, true),
};
const d = o.deployment;

const work = workload(o.appends, triagePackBytes(), o.seed);

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
  const cycle = batchCycle(b.breakdown);
  const cost = costPerMillion(usageOf(f.paced, d));
  return {
    design: b.design,
    profile: o.profile.name,
    logs: d.logCount,
    maximumConcurrency: d.maximumConcurrency,
    appendsPerSecond: round(b.appendsPerSecond, 0),
    perLogAppendsPerSecond: round(b.appendsPerSecond / d.logCount, 0),
    p50Ms: round(f.paced.p50Ms, 1),
    p99Ms: round(f.paced.p99Ms, 1),
    notifiedP50Ms: round(f.paced.notifiedP50Ms, 1),
    notifiedP99Ms: round(f.paced.notifiedP99Ms, 1),
    notified: f.paced.notified,
    latencyAtRequestsPerSecond: round(f.paced.arrivals.kind === 'poisson' ? f.paced.arrivals.perSecond : 0, 0),
    // A log's batch cycle in the backlog run (full batches): requests per batch (what its ledger messages carry) ÷ the cycle bounds the log's rate.
    batchCycleMs: {
      mean: round(cycle.meanMs, 1),
      recordsPerBatch: round(cycle.recordsPerBatch, 1),
      perLogCeiling: round(cycle.perLogCeiling, 0),
      steps: roundAll(cycle.steps),
    },
    requestsPerSecondAtP99Target: f.atTarget === undefined ? null : round(f.atTarget.requestsPerSecond, 0),
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
    // Units, calls and cost per evaluation at the paced run's batch fill (at --rate).
    wruPerEvaluation: roundAll(unitsPerEvaluation(f.paced.unitsPerEntry.wcu), 3),
    rruPerEvaluation: roundAll(unitsPerEvaluation(f.paced.unitsPerEntry.rcu), 3),
    costPerMillion: round(cost.total),
    costItemsPerMillion: roundAll(cost.items, 3),
    pacedRecordsPerBatch: round(f.paced.breakdown.recordsPerBatch, 1),
    tableQuota: b.tablePeaks.map((t) => {
      const q = tableQuota(t);
      return { ...q, peakWruPerSecond: round(q.peakWruPerSecond, 0), peakRruPerSecond: round(q.peakRruPerSecond, 0) };
    }),
    coldStarts: b.lambda.coldStarts,
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

function roundAll<T extends object>(x: T, digits = 1): Record<string, number> {
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v as number, digits)]));
}

async function main(): Promise<void> {
  const wall = process.hrtime.bigint();
  const figures = await run();
  const s = summary(figures);
  const base = baselineOf(figures);
  const wallS = Number(process.hrtime.bigint() - wall) / 1e9;

  const args = process.argv.slice(2).join(' ');
  const p = o.profile;
  const mean = (shape: Parameters<typeof latencyMeanMs>[0]) => latencyMeanMs(shape).toFixed(1);
  console.log(
    `AWS scale model (virtual time; seed ${o.seed}; profile ${p.name}): logCount ${d.logCount}, maximumConcurrency ${d.maximumConcurrency}, sequencers ${d.sequencerMaximumConcurrency}, deliver ${d.deliverMaximumConcurrency}, batch ${d.batchSize}; ${o.appends} appends, throttle ${o.throttle ? 'on' : 'off'}`,
  );
  console.log(
    `  mean ms: DynamoDB read ${mean(p.dynamoRead)}, write ${mean(p.dynamoWrite)} (+${p.perKbMs}/KB), SQS ${mean(p.sqsCall)}, SNS ${mean(p.snsPublish)}, standard → handler ${mean(p.standardToHandler)}, FIFO → handler ${mean(p.fifoToHandler)}, cold start ${mean(p.coldStart)}; CPU ${o.cpuMsPerRecord} ms/record + ${o.signMs} ms/signature`,
  );
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
    `    batch cycle ${s.batchCycleMs.mean} ms for ${s.batchCycleMs.recordsPerBatch} requests (${s.perLogAppendsPerSecond} appends/s per log sustained, ${s.batchCycleMs.perLogCeiling} at this cycle): ${JSON.stringify(s.batchCycleMs.steps)}`,
  );
  console.log(
    `    per evaluation at ${s.latencyAtRequestsPerSecond} requests/s (${s.pacedRecordsPerBatch} requests a batch): WRU ${JSON.stringify(s.wruPerEvaluation)}, RRU ${JSON.stringify(s.rruPerEvaluation)}; $${s.costPerMillion} per million ${JSON.stringify(s.costItemsPerMillion)}`,
  );
  for (const q of s.tableQuota)
    console.log(
      `    table ${q.table}: peak ${q.peakWruPerSecond} WRU/s, ${q.peakRruPerSecond} RRU/s; over the 40,000 quota ${q.exceedsQuota}; over a new on-demand table's warm throughput ${q.exceedsNewTableWarm} (${q.doublings} doublings, ${q.rampMinutes} min by traffic alone)`,
    );
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
