/**
 * SCRATCH (docs/adr/0496-the-next-sequencer.md; this file exists only at tag `scale-model-kinesis-scratch`): the AWS
 * scale model (bench/aws-scale.bench.ts) run with the Kinesis sequencer alternative — one shard per log,
 * parallelization factor 1, standard polling or enhanced fan-out, batch sizes given — beside the shipped FIFO ledger
 * queue on the same deployment, profile, workload and seed, in the same run (the ratio).
 *
 *   npx tsc -p tsconfig.build.json && node_modules/.bin/node dist/bench/kinesis-sequencer.bench.js \
 *     --logs 8 --appends 12000 --rate 1400 --profile published --reads polling,push --batch-sizes 100,500,1000
 *
 * Flags: --logs L (8; evaluate instances = L: FIFO's maximumConcurrency, the stream's shards) --sequencers S (32)
 *   --appends K (12000) --rate r (1400) --profile p (published) --reads polling,push --batch-sizes 100,500,1000
 *   --handler-concurrency c (default: the batch size) --fifo (true: also run the shipped design) --seed --cpu-ms
 * Last line: one JSON object, every row.
 */
import './support/node-crypto.js';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../infra/config.js';
import { simulate, workload, type RunFigures, type ScaleOptions } from './support/aws-model/scale-model.js';
import { isProfileName, PROFILES } from './support/aws-model/latency-profile.js';
import { costPerMillion } from './support/aws-model/cost-model.js';
import { batchCycle, unitsPerEvaluation, usageOf } from './support/aws-model/run-usage.js';

const { values } = parseArgs({
  options: {
    logs: { type: 'string', default: '8' },
    sequencers: { type: 'string', default: '32' },
    appends: { type: 'string', default: '12000' },
    rate: { type: 'string', default: '1400' },
    profile: { type: 'string', default: 'published' },
    reads: { type: 'string', default: 'polling,push' },
    'batch-sizes': { type: 'string', default: '100,500,1000' },
    'handler-concurrency': { type: 'string' },
    fifo: { type: 'string', default: 'true' },
    seed: { type: 'string', default: '1' },
    'cpu-ms': { type: 'string', default: '1' },
  },
});

if (!isProfileName(values.profile)) throw new RangeError('--profile must be optimistic, published or pessimistic');
const logs = Number(values.logs);
const rate = Number(values.rate);
const deployment = resolveConfig({
  logCount: logs,
  maximumConcurrency: logs,
  sequencerMaximumConcurrency: Number(values.sequencers),
});
const base: ScaleOptions = {
  deployment,
  appends: Number(values.appends),
  throttle: true,
  profile: PROFILES[values.profile],
  cpuMsPerRecord: Number(values['cpu-ms']),
  signMs: 0.1,
  seed: Number(values.seed),
};
const root = new URL('../../', import.meta.url);
const packBytes = new Uint8Array(readFileSync(new URL('examples/data-request-intake-triage.json', root)));
const work = workload(base.appends, packBytes, base.seed);

/**
 * Kinesis Data Streams, provisioned mode, us-east-1 list prices (ADR 0496 cites them): $0.015 per shard-hour,
 * $0.014 per million PUT payload units (25 KB each), enhanced fan-out $0.015 per consumer-shard-hour and $0.013 per GB
 * retrieved. Per million evaluations at `rate` requests/s the hourly charges are shared by rate × 3,600 an hour.
 */
function streamCostPerMillion(read: 'polling' | 'push', shards: number, meanRecordBytes: number) {
  const hoursPerMillion = 1e6 / (rate * 3600);
  const shardHours = shards * 0.015 * hoursPerMillion;
  const putUnits = 0.014 * Math.ceil(meanRecordBytes / 25_600);
  const efo = read === 'push' ? shards * 0.015 * hoursPerMillion + ((meanRecordBytes * 1e6) / 2 ** 30) * 0.013 : 0;
  return { shardHours, putUnits, efo, total: shardHours + putUnits + efo };
}

const meanBodyBytes = work.bodies.reduce((a, b) => a + Buffer.byteLength(b), 0) / work.bodies.length;
const r = (n: number, d = 1) => Number(n.toFixed(d));

function row(name: string, backlog: RunFigures, paced: RunFigures, read?: 'polling' | 'push') {
  const cycle = batchCycle(backlog.breakdown);
  const cost = costPerMillion(usageOf(paced, deployment));
  const stream = read === undefined ? undefined : streamCostPerMillion(read, logs, meanBodyBytes);
  return {
    design: name,
    appendsPerSecond: r(backlog.appendsPerSecond, 0),
    perLog: r(backlog.appendsPerSecond / logs, 0),
    p50Ms: r(paced.p50Ms),
    p99Ms: r(paced.p99Ms),
    laterHalfP50Ms: r(paced.laterHalfP50Ms),
    laterHalfP99Ms: r(paced.laterHalfP99Ms),
    cycleMs: r(cycle.meanMs),
    recordsPerBatch: r(cycle.recordsPerBatch),
    perLogCeiling: r(cycle.perLogCeiling, 0),
    steps: Object.fromEntries(Object.entries(cycle.steps).map(([k, v]) => [k, r(v)])),
    pacedRecordsPerBatch: r(paced.breakdown.recordsPerBatch),
    pacedCycleMs: r(batchCycle(paced.breakdown).meanMs),
    wru: Object.fromEntries(Object.entries(unitsPerEvaluation(paced.unitsPerEntry.wcu)).map(([k, v]) => [k, r(v, 3)])),
    rru: Object.fromEntries(Object.entries(unitsPerEvaluation(paced.unitsPerEntry.rcu)).map(([k, v]) => [k, r(v, 3)])),
    costPerMillion: r(cost.total + (stream?.total ?? 0), 2),
    costItems: {
      ...Object.fromEntries(Object.entries(cost.items).map(([k, v]) => [k, r(v, 3)])),
      ...(stream
        ? {
            kinesisShardHours: r(stream.shardHours, 3),
            kinesisPut: r(stream.putUnits, 3),
            kinesisEfo: r(stream.efo, 3),
          }
        : {}),
    },
    peakShardRecordsPerSecond: backlog.stream?.peakShardRecordsPerSecond ?? null,
    ledgerPeakWru: r(backlog.tablePeaks.find((t) => t.table === 'ledger')?.wcuPerSecond ?? 0, 0),
    hottestKeyWcuPerSecond: r(backlog.hottestKeyWcuPerSecond, 0),
    throttled: backlog.throttled + paced.throttled,
    chainValid: backlog.chainValid && paced.chainValid,
    oneEntryPerRequest: backlog.oneEntryPerRequest && paced.oneEntryPerRequest,
    deliveredOnce: backlog.deliveredOnce && paced.deliveredOnce,
    notifiedP99Ms: r(paced.notifiedP99Ms),
  };
}

const rows: ReturnType<typeof row>[] = [];
const poisson = { kind: 'poisson', perSecond: rate } as const;
if (values.fifo === 'true') {
  const backlog = await simulate(work, base, { kind: 'backlog' });
  rows.push(row('fifo (shipped)', backlog, await simulate(work, base, poisson)));
  console.log(JSON.stringify(rows.at(-1)));
}
for (const read of values.reads.split(',') as ('polling' | 'push')[])
  for (const batchSize of values['batch-sizes'].split(',').map(Number)) {
    const concurrency = values['handler-concurrency'] !== undefined ? Number(values['handler-concurrency']) : batchSize;
    const o: ScaleOptions = { ...base, stream: { read, batchSize, handlerConcurrency: concurrency } };
    const backlog = await simulate(work, o, { kind: 'backlog' });
    rows.push(
      row(
        `kinesis ${read === 'push' ? 'efo' : 'polling'} B=${batchSize} c=${concurrency}`,
        backlog,
        await simulate(work, o, poisson),
        read,
      ),
    );
    console.log(JSON.stringify(rows.at(-1)));
  }
const fifo = rows.find((x) => x.design.startsWith('fifo'));
console.log(
  `profile ${values.profile}, ${logs} logs × ${logs} instances (shards), ${values.sequencers} sequence instances, ${base.appends} appends, rate ${rate}/s, seed ${base.seed}`,
);
console.log(
  '| design | appends/s (per log) | ratio to FIFO | cycle ms (records) | p50 / p99 ms at rate (later half) | paced batch | WRU / RRU | $/M | peak shard rec/s |',
);
for (const x of rows)
  console.log(
    `| ${x.design} | ${x.appendsPerSecond} (${x.perLog}) | ${fifo ? r(x.appendsPerSecond / fifo.appendsPerSecond, 2) : '-'} | ${x.cycleMs} (${x.recordsPerBatch}) | ${x.p50Ms} / ${x.p99Ms} (${x.laterHalfP50Ms} / ${x.laterHalfP99Ms}) | ${x.pacedRecordsPerBatch} | ${x.wru.total} / ${x.rru.total} | ${x.costPerMillion} | ${x.peakShardRecordsPerSecond ?? '-'} |`,
  );
console.log(JSON.stringify({ options: { ...values }, rows }));
