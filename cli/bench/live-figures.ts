/**
 * The figures of a live check (`docket bench live`), under the names the scale model prints
 * (bench/aws-scale.bench.ts; docs/deploy.md "Observe it"; docs/adr/0481-live-check-reads-the-functions-own-metrics.md),
 * from what the run observed: the requester's clock for send → verified notification, and the functions' own metrics
 * (EMF samples, core/metric-names.ts) for request → entry, the batch cycle and the capacity units. A figure with no
 * observation behind it is null, never a guess; `sources` says where each one came from.
 */
import { DOCKET_METRICS as M, DOCKET_SERVICES } from '../../core/metric-names.js';
import type { MetricSample } from './emf-metrics.js';

export interface LiveRun {
  /** Offered requests per second and the seconds they were sent over. */
  readonly rate: number;
  readonly durationSeconds: number;
  /** Requests built: sent plus those SQS refused. */
  readonly requests: number;
  /** Epoch ms each sent request was handed to SQS, by request id. */
  readonly sentAt: ReadonlyMap<string, number>;
  /** Epoch ms each proven result arrived, with its entry's log, by request id (one per request). */
  readonly results: ReadonlyMap<string, { readonly at: number; readonly logId: string; readonly seq: number }>;
  /** The logs the stack writes (the trust policy's). */
  readonly logs: readonly string[];
  /** The model's name of each table (ledger, requests, packs) by its physical name; others keep theirs. */
  readonly tableKeys: ReadonlyMap<string, string>;
  /** The functions' samples seen during the run; undefined when no metrics source could be read. */
  readonly samples: readonly MetricSample[] | undefined;
  readonly sources: Readonly<Record<string, string>>;
}

/** Nearest-rank percentile of sorted values, as the scale model computes it (bench/support/aws-model/scale-model.ts). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (n: number | null, digits = 1): number | null => (n === null ? null : Number(n.toFixed(digits)));
const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

function valuesOf(samples: readonly MetricSample[], name: string, service?: string): number[] {
  return samples
    .filter((s) => s.name === name && (service === undefined || s.dimensions.service === service))
    .flatMap((s) => s.values);
}

export function liveFigures(run: LiveRun) {
  const sent = run.sentAt.size;
  const recorded = run.results.size;
  const firstSend = Math.min(...run.sentAt.values());
  const lastResult = Math.max(...[...run.results.values()].map((r) => r.at));
  const windowSeconds = recorded > 0 ? Math.max(0.001, (lastResult - firstSend) / 1000) : null;
  const appendsPerSecond = windowSeconds === null ? null : recorded / windowSeconds;
  const perLog = new Map<string, number>(run.logs.map((l) => [l, 0]));
  for (const r of run.results.values()) perLog.set(r.logId, (perLog.get(r.logId) ?? 0) + 1);
  const notified = [...run.results.entries()]
    .map(([id, r]) => r.at - (run.sentAt.get(id) ?? r.at))
    .sort((a, b) => a - b);

  const s = run.samples;
  const evaluate = DOCKET_SERVICES.evaluate;
  const toEntry = s === undefined ? [] : valuesOf(s, M.requestToEntry, evaluate).sort((a, b) => a - b);
  const cycles = s === undefined ? [] : valuesOf(s, M.batchCycle, evaluate).sort((a, b) => a - b);
  const fill = s === undefined ? [] : valuesOf(s, M.batchRecords, evaluate);
  const queueWait = s === undefined ? [] : valuesOf(s, M.ledgerQueueWait, evaluate);
  const perEvaluation = (name: string): Record<string, number> | null => {
    const of = (s ?? []).filter((x) => x.name === name);
    if (of.length === 0 || recorded === 0) return null;
    const byTable: Record<string, number> = {};
    for (const x of of) {
      const key = run.tableKeys.get(x.dimensions.table ?? '') ?? x.dimensions.table ?? 'unnamed';
      byTable[key] = (byTable[key] ?? 0) + sum(x.values);
    }
    const out = Object.fromEntries(Object.entries(byTable).map(([k, v]) => [k, round(v / recorded, 3)!]));
    return { ...out, total: round(sum(Object.values(byTable)) / recorded, 3)! };
  };
  return {
    profile: 'live' as const,
    requests: run.requests,
    sent,
    recorded,
    missing: sent - recorded,
    appendsPerSecond: round(appendsPerSecond, 0),
    perLogAppendsPerSecond: round(
      appendsPerSecond === null ? null : appendsPerSecond / Math.max(1, run.logs.length),
      1,
    ),
    appendsPerLog: Object.fromEntries([...perLog.entries()].sort(([a], [b]) => (a < b ? -1 : 1))),
    logs: run.logs.length,
    // Request → entry, from the evaluate function's RequestToEntryMs (sent to the intake → its batch answered).
    p50Ms: round(percentile(toEntry, 50)),
    p99Ms: round(percentile(toEntry, 99)),
    // Send → verified result notification, on the requester's clock.
    notifiedP50Ms: round(percentile(notified, 50)),
    notifiedP99Ms: round(percentile(notified, 99)),
    notified: recorded,
    latencyAtRequestsPerSecond: run.rate,
    durationSeconds: run.durationSeconds,
    // As the model's batchCycleMs: the mean, the batch fill and the steps seen — from inside the function, invoked →
    // answered (SQS's receive, invoke and delete around it are not seen there) — with this run's spread.
    batchCycleMs: {
      mean: round(mean(cycles)),
      recordsPerBatch: round(mean(fill), 2),
      steps: { invokedToAnswered: round(mean(cycles)) },
      batches: cycles.length,
      p50: round(percentile(cycles, 50)),
      p99: round(percentile(cycles, 99)),
    },
    // Sent to the ledger queue → invoked: the wait for the log's lock and the poll (mean).
    ledgerQueueWaitMs: round(mean(queueWait)),
    // Not measured by a run at one rate: a bisection over rates is the model's (--p99-target).
    requestsPerSecondAtP99Target: null,
    // Per table and in total, as the model prints them: the units the table answered (ReturnConsumedCapacity).
    wruPerEvaluation: perEvaluation(M.writeUnits),
    rruPerEvaluation: perEvaluation(M.readUnits),
    // A bill is not observable from a run: the model's cost table prices the units above.
    costPerMillion: null,
    sources: run.sources,
  };
}

export type LiveFigures = ReturnType<typeof liveFigures>;
