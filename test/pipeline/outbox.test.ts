/**
 * The delivery stage's outbox (core/pipeline/outbox.ts; docs/adr/0253-per-invocation-outbox.md): the handoffs and
 * result notifications a job's entries owe, delivered in batch calls, with per-entry failures. The whole stage over
 * it: deliver-job.test.ts and deliver-runtime.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { OwedHandoff, OwedMessages } from '../../core/pipeline/fan-out.js';
import { deliverOwed, OutboxDeliveryError } from '../../core/pipeline/outbox.js';
import type { BatchDeliveryReport, HandoffBatchSender, ResultBatchPublisher } from '../../core/pipeline/ports.js';
import type { ResultMessage } from '../../core/pipeline/result-notification.js';

const msg = (id: string): ResultMessage => ({ id, body: `{"n":"${id}"}`, attributes: { requestId: id } });
const handoff = (queue: string, handoffId: string): OwedHandoff => ({
  routeIndex: 0,
  shape: 'no-destination',
  destination: 'no-destination',
  queue,
  handoffId,
  body: '{}',
  routeKey: 'unrouted',
});
/** What entry `id` owes: one handoff per queue named (ids `<id>1`, `<id>2`, …) and the notification `n<id>`. */
const entry = (id: string, queues: string[]): OwedMessages => ({
  handoffs: queues.map((q, i) => handoff(q, `${id}${i + 1}`)),
  notification: msg(`n${id}`),
});

/** Batch ports that record every call in one shared log and fail the entries `failIf` names. */
function recordingPorts(failIf: (what: string) => string | undefined = () => undefined) {
  const calls: { kind: 'handoffs' | 'results'; queue?: string; ids: string[] }[] = [];
  const answer = (ids: string[]): BatchDeliveryReport => ({
    failed: ids.flatMap((id, index) => {
      const reason = failIf(id);
      return reason === undefined ? [] : [{ index, reason }];
    }),
  });
  const handoffs: HandoffBatchSender = {
    async sendBatch(queue, list) {
      const ids = list.map((x) => x.handoffId);
      calls.push({ kind: 'handoffs', queue, ids });
      return answer(ids);
    },
  };
  const results: ResultBatchPublisher = {
    async publishBatch(messages) {
      const ids = messages.map((m) => m.id);
      calls.push({ kind: 'results', ids });
      return answer(ids);
    },
  };
  return { calls, handoffs, results };
}

describe('the outbox on its own', () => {
  it('sends one batch per queue, in entry then declaration order, and the notifications after every handoff', async () => {
    const p = recordingPorts();
    expect(await deliverOwed([entry('a', ['q1', 'q2', 'q1']), entry('b', ['q1'])], p)).toEqual(new Map());
    expect(p.calls.slice(0, 2)).toEqual(
      expect.arrayContaining([
        { kind: 'handoffs', queue: 'q1', ids: ['a1', 'a3', 'b1'] },
        { kind: 'handoffs', queue: 'q2', ids: ['a2'] },
      ]),
    );
    expect(p.calls[2]).toEqual({ kind: 'results', ids: ['na', 'nb'] });
    expect(p.calls).toHaveLength(3);
  });

  it('fails exactly the entries whose messages failed, and publishes no notification for them', async () => {
    const p = recordingPorts((id) => (id === 'b2' ? 'Throttled: slow down' : undefined));
    const failed = await deliverOwed(
      ['a', 'b', 'c'].map((r) => entry(r, ['q1', 'q2'])),
      p,
    );
    expect([...failed.keys()]).toEqual([1]);
    expect(failed.get(1)).toBeInstanceOf(OutboxDeliveryError);
    expect(failed.get(1)!.reasons).toEqual(['handoff to q2: Throttled: slow down']);
    expect(failed.get(1)!.message).toBe('1 message(s) not delivered: handoff to q2: Throttled: slow down');
    expect(p.calls.at(-1)).toEqual({ kind: 'results', ids: ['na', 'nc'] });
  });

  it('fails every entry that had a message in a batch call that threw, and only those', async () => {
    const p = recordingPorts();
    const failed = await deliverOwed([entry('a', ['down', 'up']), entry('b', ['up'])], {
      handoffs: {
        sendBatch: (queue, list) =>
          queue === 'down' ? Promise.reject(new Error('connection reset')) : p.handoffs.sendBatch(queue, list),
      },
      results: p.results,
    });
    expect([...failed.keys()]).toEqual([0]);
    expect(failed.get(0)!.reasons).toEqual(['handoff to down: connection reset']);
    expect(p.calls.at(-1)).toEqual({ kind: 'results', ids: ['nb'] });
  });

  it('fails the entries whose notification was not published', async () => {
    const p = recordingPorts((id) => (id === 'na' ? 'InternalError: try again' : undefined));
    const failed = await deliverOwed([entry('a', ['q']), entry('b', ['q'])], p);
    expect([...failed.keys()]).toEqual([0]);
    expect(failed.get(0)!.reasons).toEqual(['result notification: InternalError: try again']);
  });

  it('fails every entry of a call whose answer names an entry it was not given, rather than guess', async () => {
    const failed = await deliverOwed([entry('a', ['q']), entry('b', ['q'])], {
      handoffs: { sendBatch: async () => ({ failed: [{ index: 7, reason: 'x' }] }) },
      results: recordingPorts().results,
    });
    expect([...failed.keys()]).toEqual([0, 1]);
  });

  it('makes no call when nothing is owed', async () => {
    const p = recordingPorts();
    expect(await deliverOwed([], p)).toEqual(new Map());
    expect(p.calls).toEqual([]);
  });
});
