/**
 * The AWS scale model (docs/adr/0280-aws-scale-model.md; model in bench/support/aws-model/): the real
 * batch handler, ledger writer and append protocol run by simulated Lambda instances on a virtual clock, every
 * DynamoDB and SQS call costing a lognormal latency, metered per partition key and (with --throttle) limited per key
 * with the SDK's own retries. Virtual time: the figures do not depend on this machine or its load, and the same
 * flags and seed give the same figures on every run.
 *
 *   npm run build && node dist/bench/aws-scale.bench.js --instances 50 --logs 8 --appends 12000 --throttle --json
 *
 * It runs, on the same requests, the many-writers protocol as the baseline (intake = SQS standard read by every
 * instance, logs in turn per instance: many writers per log), the one-writer-per-log sequencing with one slot write at
 * a time per log (`one-writer-per-log-serial`, ADR 0274's protocol), the previous shipped protocol
 * (`one-writer-per-log-inline-delivery`: positions, handoffs and notifications sent under the FIFO group's lock) and
 * the design as shipped (`one-writer-per-log`: intake → sequence function → SQS FIFO ledger queue, group = log: one
 * writer per log; each log's slot writes group-committed as one bundle item, ADR 0350 and ADR 0400; then one delivery
 * job per log sent under the lock, and a delivery stage that writes the positions and sends the handoffs and the
 * notifications: core/pipeline/deliver-job.ts), each twice:
 *   backlog — all requests on the intake at t = 0: appendsPerSecond = requests / time until the last entry is
 *             durable (the sustained rate); units per entry, hottest key, throttles and redeliveries are this run's;
 *   paced   — Poisson arrivals at --rate requests/s (default: 80 % of the design's own sustained rate): p50/p99 are
 *             this run's, per request from its send to the intake to its entry's slot write applied at the table.
 * Both runs' chains are checked with the project's verify (all signatures, position markers) under a test policy.
 *
 * Flags: --instances N (50) --logs L (8) --appends K (12000) --throttle --json --seed S (1)
 *   --p50 / --p99 ms (4 / 15: DynamoDB call latency)  --sqs-p50 / --sqs-p99 ms (default: the same as DynamoDB)
 *   --cpu-ms (1: evaluate-function CPU per record)  --sign-ms (0.1: per entry signature, under the slot lock)
 *   --visibility-timeout s (180: infra/config.ts, 6 × the 30 s function timeout)  --sequencers S (max(4, logs))
 *   --rate r (paced run's requests/s)  --batch-size b (10)
 *   --designs many-writers,one-writer-per-log-serial,one-writer-per-log-inline-delivery,one-writer-per-log (all by
 *   default)  --delivery-instances N (delivery-stage consumers; default --instances; infra deploys max(10, maximumConcurrency))
 *   --free-after-slots (what-if of the inline designs, refused with the stage: handoffs, notifications and position
 *   writes cost no time under the FIFO group's lock, an upper bound on moving them out)
 * Each design also reports the latency a requester sees, to the result notification (notifiedP50Ms, notifiedP99Ms),
 * and `deliveredOnce`: every entry's handoffs and notification arrived, each id once but for redelivered requests.
 * The stage also reports its jobs sent and delivered and its SQS calls (job send, receive, delete) per entry.
 *   --p99-target ms: also bisect, in seven more paced runs per design, the highest rate whose p99 (to durable) meets
 *   the target (`rateAtP99Target`: the rate, its p99, its share of the sustained rate, the next rate tried that missed)
 * With --json the last line is one JSON object: the one-writer-per-log figures (as shipped, with the delivery stage),
 * `inlineDelivery` (one-writer-per-log-inline-delivery: the previous shipped protocol), `baseline` (many-writers),
 * `serialSlots` (one-writer-per-log-serial), `inlineRatio` (one-writer-per-log / inlineDelivery), `ratio`
 * (/ baseline) and `serialRatio` (/ serialSlots).
 */
import './support/node-crypto.js';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  DESIGNS,
  rateAtP99,
  simulate,
  workload,
  type Design,
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
    designs: { type: 'string', default: DESIGNS.join(',') },
    'free-after-slots': { type: 'boolean', default: false },
    'delivery-instances': { type: 'string' },
    'p99-target': { type: 'string' },
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
  freeAfterSlots: values['free-after-slots'],
  ...(values['delivery-instances'] !== undefined
    ? { deliveryInstances: num('delivery-instances', values['delivery-instances'], 1, true) }
    : {}),
};

const designs = values.designs.split(',') as Design[];
for (const d of designs) if (!DESIGNS.includes(d)) throw new RangeError(`unknown design ${d}`);
if (o.freeAfterSlots === true && designs.includes('one-writer-per-log'))
  throw new RangeError(
    '--free-after-slots bounds the designs that deliver under the lock: pass --designs without one-writer-per-log',
  );

const root = new URL('../../', import.meta.url);
const packBytes = new Uint8Array(readFileSync(new URL('examples/data-request-intake-triage.json', root)));
const work = workload(o.appends, packBytes, o.seed);

interface DesignFigures {
  readonly backlog: RunFigures;
  readonly paced: RunFigures;
  readonly atTarget?: RateAtP99;
}

const p99Target = values['p99-target'] !== undefined ? num('p99-target', values['p99-target'], 0.001) : undefined;

async function runDesign(design: Design): Promise<DesignFigures> {
  const backlog = await simulate(design, work, o, { kind: 'backlog' });
  const perSecond = values.rate !== undefined ? num('rate', values.rate, 0.001) : 0.8 * backlog.appendsPerSecond;
  const paced = await simulate(design, work, o, { kind: 'poisson', perSecond });
  if (p99Target === undefined) return { backlog, paced };
  return { backlog, paced, atTarget: await rateAtP99(design, work, o, p99Target, backlog.appendsPerSecond) };
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
    ...(b.delivery !== undefined
      ? {
          jobsSent: b.delivery.jobsSent,
          jobsDelivered: b.delivery.jobsDelivered,
          jobsRefused: b.delivery.jobsRefused + (f.paced.delivery?.jobsRefused ?? 0),
          deliverySqsCallsPerEntry: round(b.delivery.sqsCallsPerEntry, 3),
          deliveryInvocationsPerEntry: round(b.delivery.invocations / b.appends, 3),
          deliveryInvocationMs: round(b.delivery.invokedMs / Math.max(1, b.delivery.invocations), 1),
        }
      : {}),
    entryItemBytes: {
      stored: roundAll(b.entryItemBytes.stored),
      plain: roundAll(b.entryItemBytes.plain),
    },
    ...(b.breakdown !== undefined ? { batchBreakdownMs: roundAll(b.breakdown) } : {}),
    virtualSeconds: round(b.virtualSeconds, 1),
  };
}

function roundAll<T extends object>(x: T): Record<string, number> {
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v as number, 1)]));
}

async function main(): Promise<void> {
  const wall = process.hrtime.bigint();
  const results = new Map<Design, ReturnType<typeof summary>>();
  for (const d of designs) results.set(d, summary(await runDesign(d)));
  const wallS = Number(process.hrtime.bigint() - wall) / 1e9;

  const args = process.argv.slice(2).join(' ');
  console.log(
    `AWS scale model (virtual time; seed ${o.seed}): ${o.instances} instances × ${o.logs} logs, ${o.appends} appends, throttle ${o.throttle ? 'on' : 'off'}`,
  );
  console.log(
    `  DynamoDB latency p50 ${o.dynamoLatency.p50Ms} ms / p99 ${o.dynamoLatency.p99Ms} ms (mean ${lognormalMeanMs(o.dynamoLatency).toFixed(2)} ms), SQS p50 ${o.sqsLatency.p50Ms} / p99 ${o.sqsLatency.p99Ms} ms; CPU ${o.cpuMsPerRecord} ms/record + ${o.signMs} ms/signature; visibility timeout ${o.visibilityTimeoutSeconds} s`,
  );
  if (o.freeAfterSlots === true)
    console.log('  WHAT-IF (not a shipped design): the work after the slot writes costs no time under the lock');
  if (designs.includes('one-writer-per-log'))
    console.log(`  delivery stage: ${o.deliveryInstances ?? o.instances} consumer instances`);
  for (const s of results.values()) {
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
      `    delivered once ${s.deliveredOnce} (${s.deliveryRepeats} repeats, from redeliveries)${s.jobsSent !== undefined ? `; delivery jobs sent ${s.jobsSent}, delivered ${s.jobsDelivered}, refused ${s.jobsRefused}; job SQS calls per entry ${s.deliverySqsCallsPerEntry}; consumer invocations per entry ${s.deliveryInvocationsPerEntry}, ${s.deliveryInvocationMs} ms each` : ''}`,
    );
    if (s.batchBreakdownMs !== undefined) console.log(`    per batch (mean ms): ${JSON.stringify(s.batchBreakdownMs)}`);
  }
  const base = results.get('many-writers');
  const serial = results.get('one-writer-per-log-serial');
  const inline = results.get('one-writer-per-log-inline-delivery');
  const next = results.get('one-writer-per-log');
  const ratioOf = (a: ReturnType<typeof summary>, b: ReturnType<typeof summary>): Record<string, number> => ({
    appendsPerSecond: round(a.appendsPerSecond / b.appendsPerSecond),
    p99Ms: round(a.p99Ms / b.p99Ms),
    ledgerWcuPerEntry: round(a.ledgerWcuPerEntry / b.ledgerWcuPerEntry),
    ledgerRcuPerEntry: round(a.ledgerRcuPerEntry / b.ledgerRcuPerEntry, 4),
    hottestKeyWcuPerSecond: round(a.hottestKeyWcuPerSecond / b.hottestKeyWcuPerSecond),
  });
  let ratio: Record<string, number> | undefined;
  let serialRatio: Record<string, number> | undefined;
  let inlineRatio: Record<string, number> | undefined;
  if (inline !== undefined && next !== undefined) {
    inlineRatio = ratioOf(next, inline);
    console.log(
      `  one-writer-per-log / one-writer-per-log-inline-delivery (the previous shipped protocol, same run): ${JSON.stringify(inlineRatio)}`,
    );
  }
  if (base !== undefined && next !== undefined) {
    ratio = ratioOf(next, base);
    console.log(`  one-writer-per-log / many-writers (baseline, same run): ${JSON.stringify(ratio)}`);
  }
  if (serial !== undefined && next !== undefined) {
    serialRatio = ratioOf(next, serial);
    console.log(`  one-writer-per-log / one-writer-per-log-serial (same run): ${JSON.stringify(serialRatio)}`);
  }
  console.log(`  ${wallS.toFixed(1)} s of wall time`);
  console.log(`  command: ${COMMAND} ${args}`);
  if (values.json) {
    const head = next ?? inline ?? serial ?? base;
    console.log(
      JSON.stringify({
        ...head,
        ...(inline !== undefined && head !== inline ? { inlineDelivery: inline } : {}),
        ...(base !== undefined && head !== base ? { baseline: base } : {}),
        ...(serial !== undefined && head !== serial ? { serialSlots: serial } : {}),
        ...(inlineRatio !== undefined ? { inlineRatio } : {}),
        ...(ratio !== undefined ? { ratio } : {}),
        ...(serialRatio !== undefined ? { serialRatio } : {}),
        options: o,
        command: `${COMMAND} ${args}`,
      }),
    );
  }
}

await main();
