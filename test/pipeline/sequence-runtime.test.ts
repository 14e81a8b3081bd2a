/**
 * The sequence function's runtime (functions/lib/sequence-runtime.ts; docs/adr/0497-a-ledger-message-carries-many-
 * requests.md) against an SQS client that answers as SQS does: an intake batch is packed into ledger messages, each
 * sent to the FIFO ledger queue under the group and deduplication id sequenceMessage gives it, with no message
 * attributes; the partial batch response names exactly the intake messages of the ledger messages not sent, and an
 * intake message too large for any ledger message fails alone.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { LEDGER_MESSAGE_FILL_BYTES, MAX_LEDGER_MESSAGE_BYTES } from '../../core/pipeline/ledger-message.js';
import { readLedgerMessage } from '../../core/pipeline/ledger-message.js';
import { sequenceMessage } from '../../core/pipeline/sequencing.js';
import { createSequenceRuntime } from '../../functions/lib/sequence-runtime.js';
import { fakeSqs, sqsRecord, type SentCommand } from './ledger-queue-fixture.js';

const LOGS = ['prod-0', 'prod-1', 'prod-2'];
const URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/docket-prod-ledger.fifo';

/** An intake batch of these bodies: message ids intake-0…, SentTimestamps 1000, 1001, … */
const intake = (bodies: readonly string[]): SQSEvent => ({
  Records: bodies.map((body, i) => sqsRecord({ messageId: `intake-${i}`, body, sent: String(1000 + i) })),
});

/** Every entry the runtime sent to the ledger queue, in order. */
const entries = (commands: readonly SentCommand[]) =>
  commands.flatMap((c) => c.input.Entries as Record<string, unknown>[]);

function runtime(sqs: ReturnType<typeof fakeSqs>) {
  const failed: [string, string][] = [];
  const rt = createSequenceRuntime({
    sqs: sqs.client,
    ledgerQueueUrl: URL,
    logIds: LOGS,
    observer: { failed: (id, reason) => failed.push([id, reason]) },
  });
  return { rt, failed };
}

describe('the sequence function', () => {
  it('sends an intake batch as one ledger message carrying every body verbatim, in order, with its intake ids and times', async () => {
    const sqs = fakeSqs();
    const { rt, failed } = runtime(sqs);
    const bodies = ['{"requestId":"a"}', 'not json', '{"requestId":"ü-😀"}\n', ''];
    expect(await rt.handle(intake(bodies))).toEqual({ batchItemFailures: [] });
    expect(failed).toEqual([]);
    expect(sqs.commands.map((c) => [c.name, c.input.QueueUrl])).toEqual([['SendMessageBatchCommand', URL]]);
    const [entry] = entries(sqs.commands);
    const body = entry!.MessageBody as string;
    expect(readLedgerMessage(body)).toEqual({
      ok: true,
      value: bodies.map((b, i) => ({ body: b, intakeMessageId: `intake-${i}`, intakeSentTimestamp: String(1000 + i) })),
    });
    const s = sequenceMessage(body, LOGS);
    expect(entry!.MessageGroupId).toBe(s.groupId);
    expect(entry!.MessageDeduplicationId).toBe(s.deduplicationId);
    expect(entry!.MessageAttributes).toBeUndefined();
  });

  it('leaves out the sent time of an intake message that has none', async () => {
    const sqs = fakeSqs();
    const event = intake(['{}']);
    delete (event.Records[0]!.attributes as { SentTimestamp?: string }).SentTimestamp;
    await runtime(sqs).rt.handle(event);
    expect(readLedgerMessage(entries(sqs.commands)[0]!.MessageBody as string)).toEqual({
      ok: true,
      value: [{ body: '{}', intakeMessageId: 'intake-0' }],
    });
  });

  it('packs a batch too large for one message into several, and a failed send fails exactly that message’s intake messages', async () => {
    const big = (c: string) => c.repeat(100 * 1024);
    const bodies = ['a', 'b', 'c', 'd', 'e'].map(big); // two per message: [0, 1], [2, 3], [4]
    const sqs = fakeSqs({ fail: (e) => e.Id === '1' });
    const { rt, failed } = runtime(sqs);
    expect(await rt.handle(intake(bodies))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'intake-2' }, { itemIdentifier: 'intake-3' }],
    });
    expect(failed.map(([id]) => id)).toEqual(['intake-2', 'intake-3']);
    expect(failed[0]![1]).toBe('InvalidParameterValue: refused');
    const sent = entries(sqs.commands).map((e) => readLedgerMessage(e.MessageBody as string));
    expect(sent.map((r) => (r.ok ? r.value.map((q) => q.intakeMessageId) : r.error.message))).toEqual([
      ['intake-0', 'intake-1'],
      ['intake-2', 'intake-3'],
      ['intake-4'],
    ]);
    for (const e of entries(sqs.commands))
      expect(Buffer.byteLength(e.MessageBody as string)).toBeLessThanOrEqual(LEDGER_MESSAGE_FILL_BYTES);
  });

  it('fails an intake message too large for any ledger message alone, with why, and sends the others', async () => {
    const sqs = fakeSqs();
    const { rt, failed } = runtime(sqs);
    const huge = 'h'.repeat(MAX_LEDGER_MESSAGE_BYTES - 50);
    expect(await rt.handle(intake(['{"requestId":"a"}', huge, '{"requestId":"c"}']))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'intake-1' }],
    });
    expect(failed).toHaveLength(1);
    expect(failed[0]![1]).toMatch(/^a ledger message is at most 1048576 bytes, these requests make \d+$/);
    const sent = entries(sqs.commands).map((e) => readLedgerMessage(e.MessageBody as string));
    expect(sent.map((r) => (r.ok ? r.value.map((q) => q.intakeMessageId) : r.error.message))).toEqual([
      ['intake-0'],
      ['intake-2'],
    ]);
  });

  it('answers the intake messages in batch order when both sends and the packing fail', async () => {
    const huge = 'h'.repeat(MAX_LEDGER_MESSAGE_BYTES);
    // The messages sent are the packs of intake-0 and intake-2 (entries 0 and 1): intake-1 has none.
    const sqs = fakeSqs({ fail: () => true });
    expect(await runtime(sqs).rt.handle(intake(['{"a":0}', huge, '{"a":2}']))).toEqual({
      batchItemFailures: [
        { itemIdentifier: 'intake-0' },
        { itemIdentifier: 'intake-1' },
        { itemIdentifier: 'intake-2' },
      ],
    });
    expect(entries(sqs.commands)).toHaveLength(2);
  });

  it('throws when SQS gives no answer at all, so the whole batch is redelivered and packed to the same bytes', async () => {
    const down = fakeSqs({ throws: new Error('socket hang up') });
    await expect(runtime(down).rt.handle(intake(['{"a":1}', '{"a":2}']))).rejects.toThrow('socket hang up');
    const up = fakeSqs();
    await runtime(up).rt.handle(intake(['{"a":1}', '{"a":2}']));
    expect(entries(up.commands).map((e) => e.MessageDeduplicationId)).toEqual(
      entries(down.commands).map((e) => e.MessageDeduplicationId),
    );
  });

  it('sends nothing for an empty batch', async () => {
    const sqs = fakeSqs();
    expect(await runtime(sqs).rt.handle({ Records: [] })).toEqual({ batchItemFailures: [] });
    expect(sqs.commands).toEqual([]);
  });
});
