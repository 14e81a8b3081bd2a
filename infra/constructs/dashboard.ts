/**
 * The stack's CloudWatch dashboard (docs/deploy.md "Observe it"): what the pipeline does, not only whether an alarm
 * fired. Per log, the figures the functions publish about their batches (core/metric-names.ts; emitted by
 * functions/lib/batch-metrics.ts and functions/lib/observability.ts) — appends/s, the batch cycle, the batch fill,
 * request → entry p50/p99 — the same names `docket bench live` reads back; then every queue's depth and oldest
 * message, the DLQs, throttles and the capacity units consumed, from AWS's own metrics.
 *
 * Per-log widgets are SEARCH expressions over the `logId` dimension, so a log added by configuration (logCount)
 * appears without a change here.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DOCKET_METRICS as M, DOCKET_SERVICES } from '../../core/metric-names.js';

export interface DashboardProps {
  readonly dashboardName: string;
  /** The queues a request and its handoffs pass through, in order (intake, ledger FIFO, delivery, routes). */
  readonly queues: ReadonlyArray<{ readonly label: string; readonly queue: sqs.IQueue }>;
  readonly dlqs: ReadonlyArray<{ readonly label: string; readonly queue: sqs.IQueue }>;
  readonly functions: ReadonlyArray<{ readonly label: string; readonly fn: lambda.IFunction }>;
  readonly tables: ReadonlyArray<{ readonly label: string; readonly table: dynamodb.ITable }>;
}

const PERIOD = Duration.minutes(1);
const SECONDS = PERIOD.toSeconds();

/** One series per log: the Docket metric `name` of the evaluate function under `stat`. */
function perLog(name: string, stat: string, label: string, scale = ''): cloudwatch.MathExpression {
  const search = `SEARCH('{${M.namespace},logId,service} MetricName="${name}" service="${DOCKET_SERVICES.evaluate}"', '${stat}', ${SECONDS})`;
  return new cloudwatch.MathExpression({ expression: `${search}${scale}`, label, period: PERIOD, usingMetrics: {} });
}

function tableMetric(table: dynamodb.ITable, label: string, name: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/DynamoDB',
    metricName: name,
    dimensionsMap: { TableName: table.tableName },
    period: PERIOD,
    statistic: 'Sum',
    label: `${label} ${name}`,
  });
}

export class Dashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const graph = (title: string, left: cloudwatch.IMetric[], unit = '') =>
      new cloudwatch.GraphWidget({
        title,
        left,
        width: 12,
        height: 6,
        period: PERIOD,
        ...(unit ? { leftYAxis: { label: unit, showUnits: false } } : {}),
      });
    const visible = (queues: DashboardProps['queues']) =>
      queues.map((q) =>
        q.queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: q.label }),
      );
    // Per function and table, as the functions report them (dimensions service, table).
    const units = [M.writeUnits, M.readUnits].map(
      (name) =>
        new cloudwatch.MathExpression({
          expression: `SEARCH('{${M.namespace},service,table} MetricName="${name}"', 'Sum', ${SECONDS})`,
          label: name,
          period: PERIOD,
          usingMetrics: {},
        }),
    );
    this.dashboard = new cloudwatch.Dashboard(this, 'Resource', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          graph('Appends per second, per log', [perLog(M.appends, 'Sum', 'appends/s', `/${SECONDS}`)], 'appends/s'),
          graph(
            'Batch cycle under the FIFO lock, per log (invoked → answered; mean and p99)',
            [perLog(M.batchCycle, 'Average', 'mean'), perLog(M.batchCycle, 'p99', 'p99')],
            'ms',
          ),
        ],
        [
          graph(
            'Request → entry, per log (intake sent → batch answered; p50 and p99)',
            [perLog(M.requestToEntry, 'p50', 'p50'), perLog(M.requestToEntry, 'p99', 'p99')],
            'ms',
          ),
          graph('Batch fill and wait for the lock, per log', [
            perLog(M.batchRecords, 'Average', 'records per batch'),
            perLog(M.ledgerQueueWait, 'p99', 'queue wait p99 ms'),
          ]),
        ],
        [
          graph('Queue depth (visible messages)', visible(props.queues)),
          graph(
            'Age of the oldest message',
            props.queues.map((q) =>
              q.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum', label: q.label }),
            ),
            's',
          ),
        ],
        [
          graph('Dead-letter queue depth', visible(props.dlqs)),
          graph('Throttles', [
            ...props.functions.map((f) => f.fn.metricThrottles({ period: PERIOD, statistic: 'Sum', label: f.label })),
            ...props.tables.flatMap((t) => [
              tableMetric(t.table, t.label, 'WriteThrottleEvents'),
              tableMetric(t.table, t.label, 'ReadThrottleEvents'),
            ]),
          ]),
        ],
        [
          graph('Capacity units the functions consumed (ReturnConsumedCapacity)', units, 'units'),
          graph(
            'Capacity units consumed, per table',
            props.tables.flatMap((t) => [
              tableMetric(t.table, t.label, 'ConsumedWriteCapacityUnits'),
              tableMetric(t.table, t.label, 'ConsumedReadCapacityUnits'),
            ]),
            'units',
          ),
        ],
      ],
    });
  }
}
