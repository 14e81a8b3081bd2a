/**
 * A FIFO ledger queue batch opened into the requests the evaluate function handles
 * (functions/lib/ledger-queue-records.ts; docs/adr/0497-a-ledger-message-carries-many-requests.md): each ledger
 * message into its requests in order, a body that is no ledger message as one request's bytes, a message that claims
 * the format and breaks it as one record marked invalid; and a batch's failures named once per SQS message.
 */
import { describe, expect, it } from 'vitest';
import { distinctFailures, ledgerQueueRecords } from '../../functions/lib/ledger-queue-records.js';
import { ledgerMessage, sqsRecord } from './ledger-queue-fixture.js';

describe('the records of a ledger queue batch', () => {
  it('opens each ledger message into its requests, in order, each keeping its SQS message, group and receive count', () => {
    const first = ledgerMessage([
      { body: '{"requestId":"a"}', intakeMessageId: 'intake-a', intakeSentTimestamp: '100' },
      { body: '', intakeMessageId: 'intake-b' },
    ]);
    const second = ledgerMessage([{ body: 'é\n"', intakeMessageId: 'intake-c', intakeSentTimestamp: '300' }]);
    const records = ledgerQueueRecords([
      sqsRecord({ messageId: 'm-1', body: first, group: 'log-0', receiveCount: 2 }),
      sqsRecord({ messageId: 'm-2', body: second, group: 'log-1' }),
    ]);
    expect(records).toEqual([
      {
        messageId: 'm-1',
        groupId: 'log-0',
        receiveCount: 2,
        body: '{"requestId":"a"}',
        intakeMessageId: 'intake-a',
        intakeSentTimestamp: '100',
      },
      { messageId: 'm-1', groupId: 'log-0', receiveCount: 2, body: '', intakeMessageId: 'intake-b' },
      {
        messageId: 'm-2',
        groupId: 'log-1',
        receiveCount: 1,
        body: 'é\n"',
        intakeMessageId: 'intake-c',
        intakeSentTimestamp: '300',
      },
    ]);
  });

  it('opens a batch once: the evaluate runtime and its metrics, handed one event, share one opening', () => {
    const batch = [
      sqsRecord({ messageId: 'm-1', body: ledgerMessage([{ body: '{}', intakeMessageId: 'i-1' }]), group: 'log-0' }),
    ];
    const first = ledgerQueueRecords(batch);
    expect(ledgerQueueRecords(batch)).toBe(first);
    // Another event with the same messages is opened on its own.
    expect(ledgerQueueRecords([...batch])).not.toBe(first);
    expect(ledgerQueueRecords([...batch])).toEqual(first);
  });

  it('reads a body that is no ledger message as one request’s bytes, named by its own message id whatever its attributes say', () => {
    const planted = '{"format":"docket.request/1","requestId":"r-9"}';
    const attributes = { IntakeMessageId: { dataType: 'String', stringValue: 'intake-forged' } };
    expect(
      ledgerQueueRecords([
        sqsRecord({ messageId: 'm-1', body: planted, group: 'log-0', messageAttributes: attributes }),
        sqsRecord({ messageId: 'm-2', body: planted, group: 'log-0' }),
      ]),
    ).toEqual([
      { messageId: 'm-1', groupId: 'log-0', receiveCount: 1, body: planted },
      { messageId: 'm-2', groupId: 'log-0', receiveCount: 1, body: planted },
    ]);
  });

  it('reads a message that claims the format and breaks it as one record, the whole body, marked invalid with why', () => {
    const broken = ledgerMessage([{ body: 'abc', intakeMessageId: 'intake-a' }]) + 'trailing';
    const records = ledgerQueueRecords([
      sqsRecord({ messageId: 'm-1', body: broken, group: 'log-0' }),
      sqsRecord({ messageId: 'm-2', body: ledgerMessage([{ body: 'x', intakeMessageId: 'i' }]), group: 'log-0' }),
    ]);
    expect(records).toEqual([
      { messageId: 'm-1', groupId: 'log-0', receiveCount: 1, body: broken, invalid: '8 bytes follow the last request' },
      { messageId: 'm-2', groupId: 'log-0', receiveCount: 1, body: 'x', intakeMessageId: 'i' },
    ]);
  });

  it('gives a record from a queue without groups no group, so the writer refuses it', () => {
    const [r] = ledgerQueueRecords([sqsRecord({ messageId: 'm-1', body: '{}' })]);
    expect(r).toEqual({ messageId: 'm-1', receiveCount: 1, body: '{}' });
  });
});

describe('the failures of a batch of ledger messages', () => {
  it('names each failed message once, in the order of its first failed request, keeping each failure as given', () => {
    const f = (itemIdentifier: string, n: number) => ({ itemIdentifier, n });
    expect(distinctFailures([f('m-2', 1), f('m-2', 2), f('m-3', 3), f('m-2', 4), f('m-1', 5)])).toEqual([
      f('m-2', 1),
      f('m-3', 3),
      f('m-1', 5),
    ]);
    expect(distinctFailures([])).toEqual([]);
  });
});
