/**
 * The delivery stage's outbox (core/pipeline/outbox.ts; docs/adr/0253-per-invocation-outbox.md): handoffs and result
 * notifications recorded while a job's entries are fanned out and delivered in batch calls after it, with per-record
 * failures. The whole stage over it: deliver-job.test.ts and deliver-runtime.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createOutbox, OutboxDeliveryError } from '../../core/pipeline/outbox.js';
import type { BatchDeliveryReport, HandoffBatchSender, ResultBatchPublisher } from '../../core/pipeline/ports.js';
import type { ResultMessage } from '../../core/pipeline/result-notification.js';

const msg = (id: string): ResultMessage => ({ id, body: `{"n":"${id}"}`, attributes: { requestId: id } });

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
  it('sends one batch per queue, in record then declaration order, and the notifications after every handoff', async () => {
    const p = recordingPorts();
    const box = createOutbox(p);
    const a = box.sinksFor('a');
    const b = box.sinksFor('b');
    // b finishes first: the order sent is still the records' order.
    await b.handoffs.send('q1', 'b1', '{}', 'r');
    await b.results!.publish(msg('nb'));
    await a.handoffs.send('q1', 'a1', '{}', 'r');
    await a.handoffs.send('q2', 'a2', '{}', 'r');
    await a.handoffs.send('q1', 'a3', '{}', 'r');
    await a.results!.publish(msg('na'));
    expect(p.calls).toEqual([]); // recorded, not sent
    expect(await box.deliver()).toEqual(new Map());
    expect(p.calls.slice(0, 2)).toEqual(
      expect.arrayContaining([
        { kind: 'handoffs', queue: 'q1', ids: ['a1', 'a3', 'b1'] },
        { kind: 'handoffs', queue: 'q2', ids: ['a2'] },
      ]),
    );
    expect(p.calls[2]).toEqual({ kind: 'results', ids: ['na', 'nb'] });
    expect(p.calls).toHaveLength(3);
  });

  it('fails exactly the records whose entries failed, and publishes no notification for them', async () => {
    const p = recordingPorts((id) => (id === 'b2' ? 'Throttled: slow down' : undefined));
    const box = createOutbox(p);
    for (const r of ['a', 'b', 'c']) {
      const s = box.sinksFor(r);
      await s.handoffs.send('q1', `${r}1`, '{}', 'r');
      await s.handoffs.send('q2', `${r}2`, '{}', 'r');
      await s.results!.publish(msg(`n${r}`));
    }
    const failed = await box.deliver();
    expect([...failed.keys()]).toEqual(['b']);
    expect(failed.get('b')).toBeInstanceOf(OutboxDeliveryError);
    expect(failed.get('b')!.reasons).toEqual(['handoff to q2: Throttled: slow down']);
    expect(failed.get('b')!.message).toBe('1 message(s) not delivered: handoff to q2: Throttled: slow down');
    expect(p.calls.at(-1)).toEqual({ kind: 'results', ids: ['na', 'nc'] });
  });

  it('fails every record that had a message in a batch call that threw, and only those', async () => {
    const p = recordingPorts();
    const box = createOutbox({
      handoffs: {
        sendBatch: (queue, list) =>
          queue === 'down' ? Promise.reject(new Error('connection reset')) : p.handoffs.sendBatch(queue, list),
      },
      results: p.results,
    });
    const a = box.sinksFor('a');
    await a.handoffs.send('down', 'a1', '{}', 'r');
    await a.handoffs.send('up', 'a2', '{}', 'r');
    await a.results!.publish(msg('na'));
    const b = box.sinksFor('b');
    await b.handoffs.send('up', 'b1', '{}', 'r');
    await b.results!.publish(msg('nb'));
    const failed = await box.deliver();
    expect([...failed.keys()]).toEqual(['a']);
    expect(failed.get('a')!.reasons).toEqual(['handoff to down: connection reset']);
    expect(p.calls.at(-1)).toEqual({ kind: 'results', ids: ['nb'] });
  });

  it('fails the records whose notification was not published', async () => {
    const p = recordingPorts((id) => (id === 'na' ? 'InternalError: try again' : undefined));
    const box = createOutbox(p);
    for (const r of ['a', 'b']) {
      const s = box.sinksFor(r);
      await s.handoffs.send('q', `${r}1`, '{}', 'r');
      await s.results!.publish(msg(`n${r}`));
    }
    const failed = await box.deliver();
    expect([...failed.keys()]).toEqual(['a']);
    expect(failed.get('a')!.reasons).toEqual(['result notification: InternalError: try again']);
  });

  it('fails every record of a call whose answer names an entry it was not given, rather than guess', async () => {
    const box = createOutbox({
      handoffs: { sendBatch: async () => ({ failed: [{ index: 7, reason: 'x' }] }) },
    });
    await box.sinksFor('a').handoffs.send('q', 'a1', '{}', 'r');
    await box.sinksFor('b').handoffs.send('q', 'b1', '{}', 'r');
    expect([...(await box.deliver()).keys()]).toEqual(['a', 'b']);
  });

  it('makes no call when nothing was recorded', async () => {
    const p = recordingPorts();
    const box = createOutbox(p);
    box.sinksFor('b');
    expect(await box.deliver()).toEqual(new Map());
    expect(p.calls).toEqual([]);
  });

  it('gives no result port to a record when the outbox has no results publisher', () => {
    const box = createOutbox({ handoffs: recordingPorts().handoffs });
    expect(box.sinksFor('a').results).toBeUndefined();
  });
});
