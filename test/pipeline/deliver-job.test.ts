/**
 * The delivery stage's core (core/pipeline/deliver-job.ts): a job names ledger coordinates, and the stage delivers
 * exactly what those entries owe — every planned handoff and the notification, under the ids derived from the entry —
 * after writing their positions, and nothing for coordinates that hold no such entry.
 */
import { describe, expect, it } from 'vitest';
import { handleBatch } from '../../core/pipeline/batch.js';
import { deliverJob } from '../../core/pipeline/deliver-job.js';
import type { DeliveryJob } from '../../core/pipeline/delivery-job.js';
import type { OutboxPorts } from '../../core/pipeline/outbox.js';
import type { OutboxHandoff } from '../../core/pipeline/ports.js';
import type { ResultMessage } from '../../core/pipeline/result-notification.js';
import { triage, vendor } from './example-requests-fixture.js';
import { memoryPipeline, owed, recordedAt } from './memory-pipeline-fixture.js';

/** Ports that record what was sent, in call order. */
function recordingOutbox() {
  const calls: string[] = [];
  const sent: { queue: string; handoff: OutboxHandoff }[] = [];
  const published: ResultMessage[] = [];
  const ports: OutboxPorts = {
    handoffs: {
      async sendBatch(queue, list) {
        calls.push(`sendBatch ${queue}`);
        sent.push(...list.map((handoff) => ({ queue, handoff })));
        return { failed: [] };
      },
    },
    results: {
      async publishBatch(messages) {
        calls.push('publishBatch');
        published.push(...messages);
        return { failed: [] };
      },
    },
  };
  return { calls, sent, published, ports };
}

function world() {
  const { store, routes: config, packSource, process } = memoryPipeline();
  /** The evaluate function as shipped: records the batch and sends its delivery job. */
  const evaluate = async (bodies: string[]) =>
    handleBatch(
      bodies.map((body, i) => ({ messageId: `m${i}`, body, groupId: 'd-0' })),
      {
        process,
        deadLetter: async () => undefined,
        jobs: { send: async () => ({ failed: [] }) },
      },
    );
  const jobOf = async (): Promise<DeliveryJob> => {
    const entries = [];
    for await (const e of store.readEntries('d-0', 0)) entries.push({ seq: e.seq, requestId: e.projection.requestId });
    return { logId: 'd-0', entries };
  };
  return { store, config, packSource, evaluate, jobOf };
}

describe('the delivery stage', () => {
  it('delivers from the ledger exactly what the recorded entries owe, after writing the positions', async () => {
    const bodies = [triage('j-1'), vendor('j-2'), triage('j-3')];
    const w = world();
    expect(await w.evaluate(bodies)).toEqual({ batchItemFailures: [] });
    const job = await w.jobOf();
    // What each entry owes, computed from the entry alone, for reference.
    const reference = { sent: [] as { queue: string; handoff: OutboxHandoff }[], published: [] as ResultMessage[] };
    for (const e of job.entries) {
      const o = await owed(await recordedAt(w.store, job.logId, e.seq), w.packSource);
      reference.sent.push(...o.handoffs.map((handoff) => ({ queue: handoff.queue, handoff })));
      reference.published.push(o.notification);
    }
    expect(job.entries.map((e) => e.requestId)).toEqual(['j-1', 'j-2', 'j-3']);
    const out = recordingOutbox();
    const events: string[] = [];
    const store = {
      readEntries: w.store.readEntries.bind(w.store),
      readMarkers: w.store.readMarkers.bind(w.store),
      putPositionIfAbsent: w.store.putPositionIfAbsent.bind(w.store),
      putMarkerIfAbsent: async (m: Parameters<typeof w.store.putMarkerIfAbsent>[0]) => {
        events.push(`marker ${m.positions.map((p) => p.requestId).join(' ')}`);
        return w.store.putMarkerIfAbsent(m);
      },
    };
    const ports: OutboxPorts = {
      handoffs: { sendBatch: (q, l) => (events.push('send'), out.ports.handoffs.sendBatch(q, l)) },
      results: { publishBatch: (m) => (events.push('publish'), out.ports.results!.publishBatch(m)) },
    };
    const r = await deliverJob(job, w.config, { store, packs: w.packSource, outbox: ports });
    expect(r.ok && r.value.undelivered.size).toBe(0);
    // Same queues, ids and bodies as the entries owe.
    const key = (s: { queue: string; handoff: OutboxHandoff }) => `${s.queue} ${s.handoff.handoffId} ${s.handoff.body}`;
    expect(out.sent.map(key).sort()).toEqual(reference.sent.map(key).sort());
    expect(out.sent.length).toBeGreaterThan(3);
    expect(out.published.map((m) => [m.id, m.body])).toEqual(reference.published.map((m) => [m.id, m.body]));
    // One marker naming every position, before the first send; every send before the publish.
    expect(events[0]).toBe('marker j-1 j-2 j-3');
    expect(events.filter((e) => e.startsWith('marker'))).toHaveLength(1);
    expect(events.lastIndexOf('send')).toBeLessThan(events.indexOf('publish'));
    expect(
      w.store
        .markers()
        .positions.map((p) => p.requestId)
        .sort(),
    ).toEqual(['j-1', 'j-2', 'j-3']);
  });

  it('delivers nothing for a job naming a seq that holds another request, or no entry at all', async () => {
    const w = world();
    await w.evaluate([triage('k-1'), triage('k-2')]);
    for (const job of [
      { logId: 'd-0', entries: [{ seq: 0, requestId: 'k-2' }] },
      {
        logId: 'd-0',
        entries: [
          { seq: 0, requestId: 'k-1' },
          { seq: 7, requestId: 'k-9' },
        ],
      },
      { logId: 'd-9', entries: [{ seq: 0, requestId: 'k-1' }] },
    ]) {
      const out = recordingOutbox();
      const r = await deliverJob(job, w.config, { store: w.store, packs: w.packSource, outbox: out.ports });
      expect(r.ok ? 'ok' : r.error.code).toBe('job-names-no-entry');
      expect(out.calls).toEqual([]);
    }
  });

  it('delivers a job again under the same ids, so a repeated job costs duplicates that consumers drop, nothing new', async () => {
    const w = world();
    await w.evaluate([triage('r-1')]);
    const job = await w.jobOf();
    const first = recordingOutbox();
    const second = recordingOutbox();
    await deliverJob(job, w.config, { store: w.store, packs: w.packSource, outbox: first.ports });
    await deliverJob(job, w.config, { store: w.store, packs: w.packSource, outbox: second.ports });
    expect(second.sent.map((s) => s.handoff.handoffId)).toEqual(first.sent.map((s) => s.handoff.handoffId));
    expect(second.published.map((m) => m.id)).toEqual(first.published.map((m) => m.id));
    expect(w.store.markers().positions).toHaveLength(1);
  });
});
