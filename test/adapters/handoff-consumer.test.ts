/**
 * The route-queue consumer (adapters/handoff-consumer.ts, ADR 0443) over a recording SQS client: a genuine handoff is
 * handled once however often it arrives, a forged one (entry altered, signature kept) and a genuine one copied onto
 * the wrong route queue go to the DLQ with their DocketReason and are never handled, and exactly the records that
 * could not be finished are reported in batchItemFailures. The DynamoDB claim store is exercised over the wire by the
 * tarball lane (test/packages/tarballs.stack.test.ts).
 */
import canonicalize from 'canonicalize';
import type { SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { handoffConsumer, HandoffRecordError, type SqsRecord } from '../../adapters/handoff-consumer.js';
import { memorySeenHandoffs, type SeenHandoffs } from '../../adapters/seen-handoffs.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { handoffId, handoffMessageBytes } from '../../core/pipeline/handoff-message.js';
import type { HandoffMessage } from '../../core/pipeline/handoff-message.js';
import { POLICY, ROUTED, signedDisposition } from '../pipeline/handoff-fixtures.js';

const routeQueue = { key: 'oversight', routeQueues: { 'queue:Review': 'review', 'human-role:Oversight': 'oversight' } };
const entry = signedDisposition(ROUTED).body;
const genuine = handoffMessageBytes({
  entryBody: entry,
  routeIndex: 1,
  shape: 'route',
  destination: 'configured',
  target: { kind: 'human-role', name: 'Oversight' },
}).body;
const review = handoffMessageBytes({
  entryBody: entry,
  routeIndex: 0,
  shape: 'route',
  destination: 'configured',
  target: { kind: 'queue', name: 'Review' },
}).body;
/** The genuine message with its entry's request id changed, the signature kept, the handoff id recomputed. */
const forged = (() => {
  const m = JSON.parse(genuine) as Record<string, unknown>;
  const altered = (m.entry as string).replace('"requestId":"req-1"', '"requestId":"req-forged"');
  expect(altered).not.toBe(m.entry);
  return canonicalize({ ...m, entry: altered, handoffId: handoffId(entryHashOf(altered), 1) })!;
})();

const record = (messageId: string, body: string): SqsRecord => ({ messageId, receiptHandle: `rh-${messageId}`, body });

/** An SQS client that records the DLQ sends (or fails them). */
function recordingSqs(fail = false) {
  const sent: SendMessageCommand['input'][] = [];
  return {
    sent,
    client: {
      send: async (c: SendMessageCommand) => {
        if (fail) throw new Error('SQS unavailable');
        sent.push(c.input);
        return { MessageId: `dlq-${sent.length}` };
      },
    } as never,
  };
}

function consumer(o: { handle?: (h: HandoffMessage) => unknown; seen?: SeenHandoffs; failDlq?: boolean } = {}) {
  const handled: HandoffMessage[] = [];
  const sqs = recordingSqs(o.failDlq);
  const failed: unknown[] = [];
  const handler = handoffConsumer({
    policy: POLICY,
    routeQueue,
    deadLetterQueueUrl: 'https://sqs.example/dlq',
    sqs: sqs.client,
    seen: o.seen ?? memorySeenHandoffs(),
    handle: o.handle ?? ((h) => void handled.push(h)),
    onFailed: (_id, e) => failed.push(e),
  });
  return { handler, handled, dlq: sqs.sent, failed };
}

describe('handoffConsumer', () => {
  it('handles a genuine handoff once across redeliveries and acknowledges the repeats', async () => {
    const c = consumer();
    const first = await c.handler({ Records: [record('m1', genuine), record('m2', genuine)] });
    const again = await c.handler({ Records: [record('m3', genuine)] });
    expect([first, again]).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(c.handled.map((h) => [h.requestId, h.routeIndex])).toEqual([['req-1', 1]]);
    expect(c.dlq).toEqual([]);
  });

  it('sends a forged handoff and a genuine one on the wrong route queue to the DLQ with their reasons, never handling them', async () => {
    const c = consumer();
    const r = await c.handler({ Records: [record('f1', forged), record('w1', review), record('g1', genuine)] });
    expect(r).toEqual({ batchItemFailures: [] });
    expect(c.handled.map((h) => h.routeIndex)).toEqual([1]);
    expect(c.dlq.map((m) => [m.MessageBody, m.MessageAttributes?.DocketReason?.StringValue])).toEqual([
      [forged, 'signature-mismatch'],
      [review, 'wrong-queue'],
    ]);
    expect(c.dlq[0]!.MessageAttributes?.OriginalMessageId?.StringValue).toBe('f1');
  });

  it('reports a record whose handling threw, and handles it on its redelivery', async () => {
    let calls = 0;
    const c = consumer({
      handle: () => {
        calls += 1;
        if (calls === 1) throw new Error('downstream down');
      },
    });
    expect(await c.handler({ Records: [record('g1', genuine), record('w1', review)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: 'g1' }],
    });
    expect(c.failed[0]).toBeInstanceOf(HandoffRecordError);
    expect(await c.handler({ Records: [record('g1', genuine)] })).toEqual({ batchItemFailures: [] });
    expect(calls).toBe(2);
  });

  it('reports a refused record whose DLQ send failed, so it is neither lost nor acted on', async () => {
    const c = consumer({ failDlq: true });
    expect(await c.handler({ Records: [record('f1', forged), record('g1', genuine)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: 'f1' }],
    });
    expect(c.handled).toHaveLength(1);
  });

  it('reports a handoff another invocation is handling, and acknowledges it once that one completed', async () => {
    const seen = memorySeenHandoffs();
    const id = JSON.parse(genuine).handoffId as string;
    expect(await seen.claim(id, Date.now())).toBe('new');
    const c = consumer({ seen });
    expect(await c.handler({ Records: [record('g1', genuine)] })).toEqual({
      batchItemFailures: [{ itemIdentifier: 'g1' }],
    });
    await seen.complete(id, Date.now());
    expect(await c.handler({ Records: [record('g1', genuine)] })).toEqual({ batchItemFailures: [] });
    expect(c.handled).toEqual([]);
  });

  it('refuses to start with a trust policy whose bytes do not read', () => {
    expect(() =>
      handoffConsumer({
        policy: new TextEncoder().encode('{"format":"nope"}'),
        routeQueue,
        deadLetterQueueUrl: 'q',
        handle: () => undefined,
      }),
    ).toThrow(/trust policy/);
  });
});

describe('memorySeenHandoffs', () => {
  it('lets a claim left by a crashed invocation lapse after its lease, and keeps a completed one for good', async () => {
    const seen = memorySeenHandoffs({ leaseSeconds: 10 });
    expect(await seen.claim('h', 0)).toBe('new');
    expect(await seen.claim('h', 9_999)).toBe('in-progress');
    expect(await seen.claim('h', 10_001)).toBe('new');
    await seen.complete('h', 10_002);
    expect(await seen.claim('h', 10 ** 12)).toBe('done');
    await seen.release('h');
    expect(await seen.claim('h', 10 ** 12)).toBe('done');
  });
});
