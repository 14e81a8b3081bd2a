/**
 * The per-invocation outbox (core/pipeline/outbox.ts; docs/adr/0253-per-invocation-outbox.md): handoffs and result
 * notifications recorded while a batch is processed and delivered in batch calls after it, with per-record failures.
 */
import { describe, expect, it } from 'vitest';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { handleBatch, type BatchRecord } from '../../core/pipeline/batch.js';
import { handoffId, readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import { createOutbox, OutboxDeliveryError } from '../../core/pipeline/outbox.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import type {
  BatchDeliveryReport,
  HandoffBatchSender,
  OutboxHandoff,
  ResultBatchPublisher,
} from '../../core/pipeline/ports.js';
import { processRequest, type ProcessOutcome } from '../../core/pipeline/process-request.js';
import type { ResultMessage } from '../../core/pipeline/result-notification.js';
import { testPipelineConfig } from './pipeline-config-fixture.js';
import { TRIAGE, VENDOR, hex, triage, vendor } from './example-requests-fixture.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';

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

  it('sends nothing for a discarded record, and makes no call when nothing was recorded', async () => {
    const p = recordingPorts();
    const box = createOutbox(p);
    const a = box.sinksFor('a');
    await a.handoffs.send('q', 'a1', '{}', 'r');
    await a.results!.publish(msg('na'));
    box.discard('a');
    box.sinksFor('b');
    expect(await box.deliver()).toEqual(new Map());
    expect(p.calls).toEqual([]);
  });

  it('gives no result port to a record when the outbox has no results publisher', () => {
    const box = createOutbox({ handoffs: recordingPorts().handoffs });
    expect(box.sinksFor('a').results).toBeUndefined();
  });
});

// ---- a whole batch through handleBatch and processRequest, on in-memory ports ----

function world() {
  const packs = new Map([VENDOR, TRIAGE].map((t) => [hex(t), new TextEncoder().encode(t)]));
  const store = new MemoryLedgerStore();
  const events: string[] = [];
  const config = testPipelineConfig(['o-0', 'o-1']);
  const writer = ledgerWriter({
    store,
    signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(5))),
    logIds: config.logIds,
    now: () => '2026-12-03T19:00:00Z',
  });
  const ports = {
    packs: cachedPackSource({
      getPack: async (d: string) => packs.get(d) ?? null,
      resolveAlias: async () => null,
    }),
    archive: { put: async () => undefined },
    ledger: {
      append: async (draft: Parameters<typeof writer.append>[0]) => {
        const r = await writer.append(draft);
        events.push(`append ${draft.requestId}`);
        return r;
      },
    },
  };
  const sent: { queue: string; handoff: OutboxHandoff }[] = [];
  const published: ResultMessage[] = [];
  let failHandoff: (h: OutboxHandoff) => boolean = () => false;
  const delivery = {
    handoffs: {
      async sendBatch(queue: string, list: readonly OutboxHandoff[]) {
        events.push(`sendBatch ${queue} ${list.length}`);
        const failed: { index: number; reason: string }[] = [];
        for (const [index, x] of list.entries())
          if (failHandoff(x)) failed.push({ index, reason: 'injected' });
          else sent.push({ queue, handoff: x });
        return { failed };
      },
    },
    results: {
      async publishBatch(messages: readonly ResultMessage[]) {
        events.push(`publishBatch ${messages.length}`);
        published.push(...messages);
        return { failed: [] };
      },
    },
  };
  const reported: { messageId: string; status: string }[] = [];
  const run = (records: BatchRecord[]) =>
    handleBatch(records, {
      process: (bytes, _r, sinks) => processRequest(bytes, config, { ...ports, ...sinks! }),
      deadLetter: async (r) => void events.push(`deadLetter ${r.messageId}`),
      outbox: delivery,
      observer: {
        outcome: (r: BatchRecord, o: ProcessOutcome) => {
          events.push(`outcome ${r.messageId}`);
          reported.push({ messageId: r.messageId, status: o.status });
        },
        failure: (r: BatchRecord, e: unknown) => {
          events.push(`failure ${r.messageId}`);
          reported.push({ messageId: r.messageId, status: e instanceof OutboxDeliveryError ? 'undelivered' : 'threw' });
        },
      },
    });
  return {
    store,
    events,
    sent,
    published,
    reported,
    run,
    failHandoffs: (f: (h: OutboxHandoff) => boolean) => (failHandoff = f),
  };
}

const requestIdOf = (x: OutboxHandoff) => {
  const r = readHandoffMessage(new TextEncoder().encode(x.body));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.requestId;
};

describe('a batch with the outbox', () => {
  it('writes every entry first, then sends each queue its handoffs in one call, then one publish for the batch', async () => {
    const w = world();
    const records = Array.from({ length: 10 }, (_, i) => ({
      messageId: `m${i}`,
      body: i % 2 === 0 ? triage(`t-${i}`) : vendor(`v-${i}`),
    }));
    expect(await w.run(records)).toEqual({ batchItemFailures: [] });
    const firstSend = w.events.findIndex((e) => e.startsWith('sendBatch'));
    const firstPublish = w.events.findIndex((e) => e.startsWith('publishBatch'));
    expect(w.events.slice(0, firstSend).filter((e) => e.startsWith('append'))).toHaveLength(10);
    const sends = w.events.filter((e) => e.startsWith('sendBatch'));
    // Five triage records route to three queues, five vendor records to one: four calls, whatever the record count.
    expect(sends.sort()).toEqual([
      'sendBatch q-intake 5',
      'sendBatch q-oversight 5',
      'sendBatch q-steward 5',
      'sendBatch q-vendor 5',
    ]);
    expect(w.events.filter((e) => e.startsWith('publishBatch'))).toEqual(['publishBatch 10']);
    const lastSend = w.events.reduce((last, e, i) => (e.startsWith('sendBatch') ? i : last), -1);
    expect(lastSend).toBeLessThan(firstPublish);
    // Outcomes are reported after delivery, in record order.
    expect(w.events.slice(firstPublish + 1)).toEqual(records.map((r) => `outcome ${r.messageId}`));
    // Each handoff once, under the id of its entry and route index; each queue's messages in record order.
    const ids = w.sent.map((s) => s.handoff.handoffId);
    expect(new Set(ids).size).toBe(20);
    for (const s of w.sent) {
      const m = readHandoffMessage(new TextEncoder().encode(s.handoff.body));
      if (!m.ok) throw new Error(m.error.message);
      expect(s.handoff.handoffId).toBe(handoffId(m.value.ledger.entryHash, m.value.routeIndex));
    }
    const vendorOrder = w.sent.filter((s) => s.queue === 'q-vendor').map((s) => requestIdOf(s.handoff));
    expect(vendorOrder).toEqual(['v-1', 'v-3', 'v-5', 'v-7', 'v-9']);
  });

  it('fails exactly the record whose handoff failed, withholds its notification, and re-sends the same ids on redelivery', async () => {
    const w = world();
    const records = ['a', 'b', 'c'].map((x) => ({ messageId: x, body: triage(`p-${x}`) }));
    w.failHandoffs((h) => requestIdOf(h) === 'p-b' && h.routeKey.startsWith('human-role:Oversight'));
    expect(await w.run(records)).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
    expect(w.reported).toEqual([
      { messageId: 'a', status: 'recorded' },
      { messageId: 'b', status: 'undelivered' },
      { messageId: 'c', status: 'recorded' },
    ]);
    const notified = w.published.map((m) => m.attributes.requestId);
    expect(notified).toEqual(['p-a', 'p-c']);
    const firstIds = w.sent.filter((s) => requestIdOf(s.handoff) === 'p-b').map((s) => s.handoff.handoffId);
    expect(firstIds).toHaveLength(2); // the two routes that did not fail went out

    // SQS redelivers b alone: the append returns the same entry; the same three ids go out, then its notification.
    w.failHandoffs(() => false);
    w.sent.length = 0;
    expect(await w.run([records[1]!])).toEqual({ batchItemFailures: [] });
    const again = w.sent.map((s) => s.handoff.handoffId);
    expect(again).toHaveLength(3);
    expect(again).toEqual(expect.arrayContaining(firstIds));
    expect(w.published.map((m) => m.attributes.requestId)).toEqual(['p-a', 'p-c', 'p-b']);
    let entries = 0;
    for (const log of await w.store.listLogs()) for await (const _ of w.store.readEntries(log, 0)) entries += 1;
    expect(entries).toBe(3);
  });

  it('sends nothing for a dead-lettered record and only the notification for a refused one, as before', async () => {
    const w = world();
    const records = [
      { messageId: 'dead', body: 'not json' },
      {
        messageId: 'refused',
        body: `{"format":"${REQUEST_FORMAT}","requestId":"r-1","pack":"sha256:${'0'.repeat(64)}","facts":{}}`,
      },
      { messageId: 'ok', body: vendor('v-ok') },
    ];
    expect(await w.run(records)).toEqual({ batchItemFailures: [] });
    expect(w.events.filter((e) => e.startsWith('deadLetter'))).toEqual(['deadLetter dead']);
    expect(w.sent.map((s) => requestIdOf(s.handoff))).toEqual(['v-ok']);
    expect(w.published.map((m) => m.attributes.kind)).toEqual(['admission-refusal', 'disposition']);
    expect(w.reported.map((r) => r.messageId)).toEqual(['dead', 'refused', 'ok']);
  });

  it('sends nothing for a record whose processing threw or that was dead-lettered, and delivers its neighbours', async () => {
    const sent: string[] = [];
    const recorded = { status: 'recorded', handoffs: [] } as unknown as ProcessOutcome;
    const res = await handleBatch(
      ['x', 'y', 'z'].map((messageId) => ({ messageId, body: '{}' })),
      {
        process: async (_bytes, record, sinks) => {
          await sinks!.handoffs.send('q', `${record.messageId}-1`, '{}', 'r');
          if (record.messageId === 'x') throw new Error('store unavailable');
          if (record.messageId === 'y') return { status: 'dead-letter', code: 'c', message: 'm' };
          return recorded;
        },
        deadLetter: async () => undefined,
        outbox: {
          handoffs: {
            async sendBatch(_q, list) {
              sent.push(...list.map((x) => x.handoffId));
              return { failed: [] };
            },
          },
        },
      },
    );
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'x' }] });
    expect(sent).toEqual(['z-1']);
  });
});
