/**
 * The counts a function's observer keeps over one batch (Powertools Metrics, CloudWatch EMF), published when the batch
 * ends: one EMF line per dimension value (or one for the counts with no dimension of their own) carrying every count
 * of that value as its sum, instead of one line per record. A count's alarms and dashboard widgets read the Sum
 * statistic (infra/constructs/alarms.ts, dashboard.ts), which is the same either way; the lines are what CloudWatch
 * Logs ingests and bills (docs/adr/0502-log-volume-measured-and-cut.md).
 */
import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';

/** A metric's own dimension beside the function's `service`: name and value. */
export type CountDimension = readonly [name: string, value: string];

export interface BatchCounts {
  /** One more of `name` (under `dimension`, when given) in this batch. */
  add(name: string, dimension?: CountDimension): void;
  /** Prints the batch's counts, one EMF line per dimension value, and starts the next batch from zero. */
  publish(): void;
}

export function batchCounts(metrics: Metrics): BatchCounts {
  // Key: '' for the undimensioned counts, else JSON of the dimension; value: metric name → count.
  let groups = new Map<string, { dimension: CountDimension | undefined; counts: Map<string, number> }>();
  return {
    add(name, dimension) {
      const key = dimension === undefined ? '' : JSON.stringify(dimension);
      let g = groups.get(key);
      if (g === undefined) groups.set(key, (g = { dimension, counts: new Map() }));
      g.counts.set(name, (g.counts.get(name) ?? 0) + 1);
    },
    publish() {
      const batch = groups;
      groups = new Map();
      for (const { dimension, counts } of batch.values()) {
        if (dimension !== undefined) metrics.addDimension(dimension[0], dimension[1]);
        for (const [name, n] of counts) metrics.addMetric(name, MetricUnit.Count, n);
        // Prints one line and clears the metrics and this dimension (the service, a default dimension, stays).
        metrics.publishStoredMetrics();
      }
    },
  };
}
