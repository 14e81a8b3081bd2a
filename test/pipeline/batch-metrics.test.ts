/**
 * The functions' batch metrics (functions/lib/batch-metrics.ts) as EMF lines, read back by `docket bench live`'s
 * reader (cli/bench/emf-metrics.ts): what one emits the other reads, and the reader trusts no line.
 */
import { describe, expect, it } from 'vitest';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { measuredBatches } from '../../functions/lib/batch-metrics.js';
import { emfSamples } from '../../cli/bench/emf-metrics.js';
import { unitsByTable } from '../../adapters/consumed-capacity.js';

function record(id: string, group: string, sent: string, intake?: string): SQSRecord {
  return {
    messageId: id,
    receiptHandle: '',
    body: '{}',
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: sent,
      SenderId: '',
      ApproximateFirstReceiveTimestamp: '',
      MessageGroupId: group,
    },
    messageAttributes: intake === undefined ? {} : { IntakeSentTimestamp: { dataType: 'Number', stringValue: intake } },
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q.fifo',
    awsRegion: 'us-east-1',
  } as SQSRecord;
}

/** A clock that answers 1000 at the invocation and 1040 at its answer. */
function clock(): () => number {
  const ticks = [1000, 1040];
  return () => ticks.shift() ?? 9999;
}

describe('batch metrics, emitted and read back', () => {
  it('emits per log the invocation time, the batch fill and, per answered record, request → entry', async () => {
    const lines: string[] = [];
    const event: SQSEvent = {
      Records: [
        record('a', 'log-0', '990', '900'),
        record('b', 'log-0', '995', '950'),
        record('c', 'log-1', '980', '700'),
        record('d', 'log-1', '985', '800'),
      ],
    };
    const handle = measuredBatches(async () => ({ batchItemFailures: [{ itemIdentifier: 'd' }] }), {
      serviceName: 'docket-evaluate',
      perLog: true,
      write: (l) => lines.push(l),
      now: clock(),
    });
    expect(await handle(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'd' }] });
    const samples = emfSamples(lines.join('\n'), 'Docket');
    const of = (name: string, log: string) =>
      samples.filter((s) => s.name === name && s.dimensions.logId === log).flatMap((s) => s.values);
    expect(of('BatchCycleMs', 'log-0')).toEqual([40]);
    expect(of('BatchCycleMs', 'log-1')).toEqual([40]);
    expect(of('BatchRecords', 'log-0')).toEqual([2]);
    expect(of('RequestToEntryMs', 'log-0')).toEqual([140, 90]);
    // d failed: it has no entry yet, so no request → entry.
    expect(of('RequestToEntryMs', 'log-1')).toEqual([340]);
    expect(of('LedgerQueueWaitMs', 'log-1')).toEqual([20, 15]);
    expect(samples.every((s) => s.dimensions.service === 'docket-evaluate')).toBe(true);
  });

  it('skips a sent time that is not a timestamp (queue messages are untrusted)', async () => {
    const lines: string[] = [];
    const handle = measuredBatches(async () => ({ batchItemFailures: [] }), {
      serviceName: 'docket-evaluate',
      perLog: true,
      write: (l) => lines.push(l),
      now: clock(),
    });
    await handle({ Records: [record('a', 'log-0', 'soon', '-5'), record('b', 'log-0', '1e3', '12.5')] });
    const names = emfSamples(lines.join('\n'), 'Docket').map((s) => s.name);
    expect(names.sort()).toEqual(['BatchCycleMs', 'BatchRecords']);
  });

  it('drains the capacity meter once per invocation, even when the batch throws', async () => {
    const lines: string[] = [];
    let drained = 0;
    const meter = {
      drain: () => (
        drained++,
        { read: 1.5, write: 5, tables: { ledger: { read: 1.5, write: 4 }, requests: { read: 0, write: 1 } } }
      ),
    };
    const handle = measuredBatches(
      async () => {
        throw new Error('store down');
      },
      { serviceName: 'docket-deliver', meter, write: (l) => lines.push(l), now: clock() },
    );
    await expect(handle({ Records: [record('a', 'log-0', '990')] })).rejects.toThrow('store down');
    expect(drained).toBe(1);
    const samples = emfSamples(lines.join('\n'), 'Docket');
    expect(samples.map((s) => [s.name, s.values[0], s.dimensions.service, s.dimensions.table])).toEqual([
      ['ConsumedWriteUnits', 4, 'docket-deliver', 'ledger'],
      ['ConsumedReadUnits', 1.5, 'docket-deliver', 'ledger'],
      ['ConsumedWriteUnits', 1, 'docket-deliver', 'requests'],
      ['ConsumedReadUnits', 0, 'docket-deliver', 'requests'],
    ]);
  });

  it('reads only EMF objects of its namespace, with finite numbers, among any other lines', () => {
    const good = JSON.stringify({
      _aws: {
        Timestamp: 5,
        CloudWatchMetrics: [{ Namespace: 'Docket', Dimensions: [['service']], Metrics: [{ Name: 'X' }] }],
      },
      service: 'docket-evaluate',
      X: [1, 'two', null, 3],
    });
    const other = good.replace('"Docket"', '"Other"');
    const text = ['2026-12-07T00:00:00Z stack ready', good, other, '{"_aws": not json', `prefix ${good}`].join('\n');
    const samples = emfSamples(text, 'Docket');
    expect(samples).toHaveLength(2);
    expect(samples[0]).toEqual({ name: 'X', values: [1, 3], dimensions: { service: 'docket-evaluate' }, timestamp: 5 });
  });
});

describe('consumed capacity of one answer', () => {
  it('counts the units of one table or of each, preferring the read or write figure when the table gives it', () => {
    const of = (c: unknown, kind: 'read' | 'write') => Object.fromEntries(unitsByTable(c, kind));
    expect(of({ TableName: 't', CapacityUnits: 2 }, 'write')).toEqual({ t: 2 });
    expect(
      of(
        [
          { TableName: 'a', CapacityUnits: 1 },
          { TableName: 'b', CapacityUnits: 0.5 },
        ],
        'read',
      ),
    ).toEqual({
      a: 1,
      b: 0.5,
    });
    expect(of({ TableName: 't', CapacityUnits: 3, ReadCapacityUnits: 1, WriteCapacityUnits: 2 }, 'write')).toEqual({
      t: 2,
    });
    expect(of(undefined, 'read')).toEqual({});
    expect(
      of(
        [
          { TableName: 't', CapacityUnits: -1 },
          { TableName: 't', CapacityUnits: 'x' },
        ],
        'read',
      ),
    ).toEqual({});
  });
});
