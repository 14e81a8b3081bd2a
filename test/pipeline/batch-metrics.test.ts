/**
 * The functions' batch metrics (functions/lib/batch-metrics.ts) as EMF lines, read back by `docket bench live`'s
 * reader (cli/bench/emf-metrics.ts): what one emits the other reads, and the reader trusts no line.
 */
import { describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { measuredBatches } from '../../functions/lib/batch-metrics.js';
import { ledgerMessage, sqsRecord } from './ledger-queue-fixture.js';
import { emfSamples } from '../../cli/bench/emf-metrics.js';
import { unitsByTable } from '../../adapters/consumed-capacity.js';

/**
 * A record of the FIFO ledger queue: a ledger message of one request per intake sent time given (`null`: the intake
 * message had none), or, given a string body, that body as SQS delivered it.
 */
function record(id: string, group: string, sent: string, intakes: readonly (string | null)[] | string = [null]) {
  const body =
    typeof intakes === 'string'
      ? intakes
      : ledgerMessage(
          intakes.map((t, i) => ({
            body: `{"n":${i}}`,
            intakeMessageId: `${id}-${i}`,
            ...(t !== null ? { intakeSentTimestamp: t } : {}),
          })),
        );
  return sqsRecord({ messageId: id, body, group, sent });
}

/** A clock that answers 1000 at the invocation and 1040 at its answer. */
function clock(): () => number {
  const ticks = [1000, 1040];
  return () => ticks.shift() ?? 9999;
}

/** The evaluate function's per-log metrics over a handler that answers every record, and the lines they print. */
function evaluateMetrics() {
  const lines: string[] = [];
  const handle = measuredBatches(async () => ({ batchItemFailures: [] }), {
    serviceName: 'docket-evaluate',
    perLog: true,
    write: (l) => lines.push(l),
    now: clock(),
  });
  return { lines, handle };
}

describe('batch metrics, emitted and read back', () => {
  it('emits per log the invocation time, the requests of the batch and, per answered request, request → entry', async () => {
    const lines: string[] = [];
    const event: SQSEvent = {
      Records: [
        record('a', 'log-0', '990', ['900', '950']),
        record('b', 'log-0', '995', ['960']),
        record('c', 'log-1', '980', ['700']),
        record('d', 'log-1', '985', ['800', '820', null]),
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
    // Requests, not messages: a ledger message carries several.
    expect(of('BatchRecords', 'log-0')).toEqual([3]);
    expect(of('BatchRecords', 'log-1')).toEqual([4]);
    // From each request's own intake sent time in its message's header, to the answer at 1040.
    expect(of('RequestToEntryMs', 'log-0')).toEqual([140, 90, 80]);
    // d failed: none of its requests has an entry yet, so no request → entry.
    expect(of('RequestToEntryMs', 'log-1')).toEqual([340]);
    // Per request, from its message's SentTimestamp on the ledger queue to the invocation at 1000.
    expect(of('LedgerQueueWaitMs', 'log-0')).toEqual([10, 10, 5]);
    expect(of('LedgerQueueWaitMs', 'log-1')).toEqual([20, 15, 15, 15]);
    expect(samples.every((s) => s.dimensions.service === 'docket-evaluate')).toBe(true);
  });

  it('counts a body that is no ledger message as one request, and an invalid ledger message as one', async () => {
    const { lines, handle } = evaluateMetrics();
    const broken = '{"format":"docket.ledger-message/1","requests":[{"bytes":9,"intakeMessageId":"x"}]}\n{}';
    await handle({ Records: [record('a', 'log-0', '990', '{"requestId":"r"}'), record('b', 'log-0', '990', broken)] });
    const samples = emfSamples(lines.join('\n'), 'Docket');
    expect(samples.filter((s) => s.name === 'BatchRecords').flatMap((s) => s.values)).toEqual([2]);
    expect(samples.filter((s) => s.name === 'RequestToEntryMs')).toEqual([]);
  });

  it('skips a sent time that is not a timestamp (queue messages are untrusted)', async () => {
    const { lines, handle } = evaluateMetrics();
    // An intake sent time the ledger message reader refuses never reaches the metrics (the header is forged here);
    // one it takes (16 digits) but no epoch-milliseconds timestamp of this era is skipped by the metrics.
    const forged =
      '{"format":"docket.ledger-message/1","requests":[{"bytes":2,"intakeMessageId":"x","intakeSentTimestamp":"-5"}]}\n{}';
    await handle({
      Records: [record('a', 'log-0', 'soon', forged), record('b', 'log-0', '1e3', ['9999999999999999'])],
    });
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
