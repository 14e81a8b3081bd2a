/**
 * The stack's dashboard (infra/constructs/dashboard.ts; docs/deploy.md "Observe it") draws the metrics the functions
 * publish under the names `docket bench live` reads (core/metric-names.ts), and AWS's own for every queue, DLQ,
 * function and table of the stage.
 */
import { describe, expect, it } from 'vitest';
import { DOCKET_METRICS, DOCKET_SERVICES } from '../../core/metric-names.js';
import { only, resourcesOfType, template, type Cfn } from './template.js';

/** The dashboard body as the text CloudFormation joins (tokens rendered as their JSON). */
function body(t: Cfn): string {
  const [, d] = only(t, 'AWS::CloudWatch::Dashboard');
  const parts = (d.Properties.DashboardBody['Fn::Join'] as [string, unknown[]])[1];
  return parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('');
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('the stack dashboard', () => {
  const t = template({ stage: 'dev' });
  const text = body(t);

  it('is named after the stage', () => {
    const [, d] = only(t, 'AWS::CloudWatch::Dashboard');
    expect(d.Properties.DashboardName).toBe('docket-dev');
  });

  it('draws per log the batch metrics the evaluate function emits, by the names bench live reads', () => {
    for (const name of [
      DOCKET_METRICS.appends,
      DOCKET_METRICS.batchCycle,
      DOCKET_METRICS.batchRecords,
      DOCKET_METRICS.requestToEntry,
      DOCKET_METRICS.ledgerQueueWait,
    ])
      expect(text).toContain(
        `SEARCH('{${DOCKET_METRICS.namespace},logId,service} MetricName=\\"${name}\\" service=\\"${DOCKET_SERVICES.evaluate}\\"'`,
      );
    expect(text).toContain(`MetricName=\\"${DOCKET_METRICS.requestToEntry}\\"`);
    expect(text).toMatch(/RequestToEntryMs[^']*', 'p99'/);
  });

  it('draws the capacity units the functions report, per function and table', () => {
    for (const name of [DOCKET_METRICS.writeUnits, DOCKET_METRICS.readUnits])
      expect(text).toContain(`SEARCH('{${DOCKET_METRICS.namespace},service,table} MetricName=\\"${name}\\"', 'Sum'`);
  });

  it('shows every queue’s depth and oldest message, every DLQ, every function’s throttles and every table', () => {
    const queues = resourcesOfType(t, 'AWS::SQS::Queue').length;
    const dlqs = resourcesOfType(t, 'AWS::SQS::Queue').filter(([, q]) =>
      /-dlq/.test(JSON.stringify(q.Properties.QueueName)),
    ).length;
    expect(dlqs).toBeGreaterThan(3);
    // Each queue's depth once (queues and DLQs); each queue but the DLQs its oldest message.
    expect(count(text, '"AWS/SQS","ApproximateNumberOfMessagesVisible"')).toBe(queues);
    expect(count(text, '"AWS/SQS","ApproximateAgeOfOldestMessage"')).toBe(queues - dlqs);
    const functions = resourcesOfType(t, 'AWS::Lambda::Function').filter(([, f]) =>
      String(f.Properties.FunctionName).startsWith('docket-dev-'),
    ).length;
    expect(functions).toBe(4);
    expect(count(text, '"AWS/Lambda","Throttles"')).toBe(functions);
    const tables = resourcesOfType(t, 'AWS::DynamoDB::Table').length;
    for (const m of [
      'WriteThrottleEvents',
      'ReadThrottleEvents',
      'ConsumedWriteCapacityUnits',
      'ConsumedReadCapacityUnits',
    ])
      expect(count(text, `"AWS/DynamoDB","${m}"`), m).toBe(tables);
  });
});
