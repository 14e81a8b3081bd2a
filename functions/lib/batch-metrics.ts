/**
 * What a function measures of each batch it is given, as Powertools Metrics (CloudWatch EMF lines on stdout; the
 * names: core/metric-names.ts): the figures the dashboard (infra/constructs/dashboard.ts) draws and `docket bench live` reads back
 * (cli/bench/emf-metrics.ts; docs/deploy.md "Observe it"; docs/adr/0481-live-check-reads-the-functions-own-metrics.md).
 *
 * Per log (the FIFO message group: the evaluate function, dimensions service + logId), once per invocation:
 *   BatchCycleMs       the invocation, invoked → answered: the part of a log's batch cycle spent under its FIFO lock
 *                      inside the function (SQS's poll, invoke and delete come on top of it)
 *   BatchRecords       the requests of that log in the batch (the batch fill; a ledger message carries several)
 *   LedgerQueueWaitMs  per request: its message sent to the ledger queue → invoked (the log's lock and the poll)
 *   RequestToEntryMs   per request answered: sent to the intake queue (its intakeSentTimestamp in the ledger
 *                      message) → the batch answered, its entry written and its delivery job sent
 * Per invocation and table (dimensions service, table), when a capacity meter is given (adapters/consumed-capacity.ts):
 *   ConsumedWriteUnits, ConsumedReadUnits   every DynamoDB unit the function's calls consumed since the last batch
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ledgerQueueRecords, type LedgerQueueRecord } from './ledger-queue-records.js';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { CapacityMeter } from '../../adapters/consumed-capacity.js';
import { DOCKET_METRICS as M } from '../../core/metric-names.js';

export type SqsBatchHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface BatchMetricsOptions {
  /** The `service` dimension (docket-evaluate, docket-deliver). */
  readonly serviceName: string;
  /** Emit the per-log figures (the evaluate function: its batches come from the FIFO ledger queue). */
  readonly perLog?: boolean;
  readonly meter?: CapacityMeter;
  /** Where each EMF line goes (default stdout, where Lambda's log capture and the local stack's log take it). */
  readonly write?: (line: string) => void;
  /** Epoch milliseconds (default Date.now). */
  readonly now?: () => number;
}

/** Powertools Metrics whose EMF line goes to a writer of ours (its own console is stdout only). */
class LineMetrics extends Metrics {
  publishTo(write: (line: string) => void): void {
    if (this.hasStoredMetrics() && !this.isDisabled()) write(JSON.stringify(this.serializeMetrics()));
    this.clearMetrics();
    this.clearDimensions();
  }
}

/** `handle`, measured: its answer is returned unchanged, and a batch that throws is measured for units only. */
export function measuredBatches(handle: SqsBatchHandler, o: BatchMetricsOptions): SqsBatchHandler {
  const metrics = new LineMetrics({ namespace: M.namespace, serviceName: o.serviceName });
  const write = o.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const now = o.now ?? Date.now;
  return async (event) => {
    const invoked = now();
    let answer: SQSBatchResponse | undefined;
    try {
      answer = await handle(event);
      return answer;
    } finally {
      const answered = now();
      if (o.perLog === true && answer !== undefined) {
        const failed = new Set((answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        const sentAt = new Map((event.Records ?? []).map((r) => [r.messageId, timestamp(r.attributes?.SentTimestamp)]));
        for (const [logId, records] of byLog(ledgerQueueRecords(event.Records ?? []))) {
          metrics.addDimension('logId', logId);
          metrics.addMetric(M.batchCycle, MetricUnit.Milliseconds, answered - invoked);
          metrics.addMetric(M.batchRecords, MetricUnit.Count, records.length);
          for (const r of records) {
            const sent = sentAt.get(r.messageId);
            if (sent !== undefined)
              metrics.addMetric(M.ledgerQueueWait, MetricUnit.Milliseconds, Math.max(0, invoked - sent));
            const intake = timestamp(r.intakeSentTimestamp);
            if (intake !== undefined && !failed.has(r.messageId))
              metrics.addMetric(M.requestToEntry, MetricUnit.Milliseconds, Math.max(0, answered - intake));
          }
          metrics.publishTo(write);
        }
      }
      if (o.meter !== undefined) {
        for (const [table, units] of Object.entries(o.meter.drain().tables)) {
          if (units.read === 0 && units.write === 0) continue;
          metrics.addDimension('table', table || 'unnamed');
          metrics.addMetric(M.writeUnits, MetricUnit.Count, units.write);
          metrics.addMetric(M.readUnits, MetricUnit.Count, units.read);
          metrics.publishTo(write);
        }
      }
    }
  };
}

function byLog(records: readonly LedgerQueueRecord[]): Map<string, LedgerQueueRecord[]> {
  const groups = new Map<string, LedgerQueueRecord[]>();
  for (const r of records) {
    const g = r.groupId;
    if (g === undefined || g === '') continue;
    const list = groups.get(g);
    if (list === undefined) groups.set(g, [r]);
    else list.push(r);
  }
  return groups;
}

/** An epoch-milliseconds attribute, or undefined when absent or not one (queue messages are untrusted). */
function timestamp(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}
