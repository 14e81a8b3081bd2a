/**
 * The deliver function's runtime (functions/lib/deliver-runtime.ts) over the in-memory ledger store: a job the
 * evaluate function sent is delivered — positions written, every handoff then the notification sent — and answered
 * as done; a body that is not a job, or a job naming no entry, is dead-lettered with its reason, sends and writes
 * nothing and is never retried; a failed send, store read or dead-letter send retries exactly that job, and the retry
 * sends the same ids. The expected handoff and notification ids come from the recorded entries themselves (the
 * fan-out the stage runs, over the entry read back), never from the evaluate function. Also: the evaluate function
 * counts no `Handoffs` (the stage sends them) and never logs a duplicate as re-sending handoffs.
 */
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleBatch, type BatchOutcome, type BatchRecord } from '../../core/pipeline/batch.js';
import type { DeliveredJob } from '../../core/pipeline/deliver-job.js';
import { deliveryJobBytes, MAX_JOB_BYTES, type DeliveryJob } from '../../core/pipeline/delivery-job.js';
import type { OwedMessages } from '../../core/pipeline/fan-out.js';
import type { OutboxPorts } from '../../core/pipeline/outbox.js';
import type { OutboxHandoff } from '../../core/pipeline/ports.js';
import type { ResultMessage } from '../../core/pipeline/result-notification.js';
import {
  createDeliverRuntime,
  type DeliverObserver,
  type DeliverParts,
  type JobRecord,
} from '../../functions/lib/deliver-runtime.js';
import { powertoolsObservability } from '../../functions/lib/observability.js';
import { triage, vendor } from './example-requests-fixture.js';
import { memoryPipeline, owed, recordedAt } from './memory-pipeline-fixture.js';

const bytesOf = (job: DeliveryJob): string => {
  const b = deliveryJobBytes(job);
  if (!b.ok) throw new Error(b.error.message);
  return b.value;
};

/** An SQS event as Lambda hands it to the deliver function. */
const sqsEvent = (records: { id: string; body: string; receiveCount?: number }[]): SQSEvent => ({
  Records: records.map((r) => ({
    messageId: r.id,
    receiptHandle: `rh-${r.id}`,
    body: r.body,
    attributes: {
      ApproximateReceiveCount: String(r.receiveCount ?? 1),
      SentTimestamp: '0',
      SenderId: 'evaluate',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:delivery',
    awsRegion: 'eu-west-1',
  })),
});

/** Outbox ports recording every call in order; `failHandoff` answers a handoff as not sent. */
function recordingOutbox(failHandoff: (h: OutboxHandoff) => boolean = () => false) {
  const events: string[] = [];
  const sent: { queue: string; handoff: OutboxHandoff }[] = [];
  const published: ResultMessage[] = [];
  const ports: OutboxPorts = {
    handoffs: {
      async sendBatch(queue, list) {
        events.push(...list.map((h) => `send ${h.handoffId}`));
        sent.push(...list.map((handoff) => ({ queue, handoff })));
        return {
          failed: list.flatMap((h, index) => (failHandoff(h) ? [{ index, reason: 'throttled' }] : [])),
        };
      },
    },
    results: {
      async publishBatch(messages) {
        events.push(...messages.map((m) => `publish ${m.id}`));
        published.push(...messages);
        return { failed: [] };
      },
    },
  };
  return { events, sent, published, ports };
}

/** An observer that keeps what it was told. */
function recordingObserver() {
  const delivered: { record: JobRecord; job: DeliveryJob; result: DeliveredJob }[] = [];
  const refused: { record: JobRecord; code: string; message: string }[] = [];
  const failed: { record: JobRecord; error: unknown }[] = [];
  const observer: DeliverObserver = {
    delivered: (record, job, result) => void delivered.push({ record, job, result }),
    refused: (record, code, message) => void refused.push({ record, code, message }),
    failed: (record, error) => void failed.push({ record, error }),
    flush() {},
  };
  return { delivered, refused, failed, observer };
}

function world(logIds: string[] = ['d-0']) {
  // As shipped: the writer leaves each new entry's position to the deliver function.
  const { store, routes: config, packSource, process } = memoryPipeline({ logIds });
  /** The evaluate function under the stage: records the batch and sends one job per log; answers the jobs sent. */
  const evaluate = async (bodies: string[]) => {
    const jobs: DeliveryJob[] = [];
    const outcomes = new Map<string, BatchOutcome & { status: 'recorded' }>();
    const answer = await handleBatch(
      bodies.map((body, i) => ({ messageId: `e${i}`, body, groupId: logIds[0]! })),
      {
        process,
        deadLetter: async () => undefined,
        jobs: { send: async (list) => (jobs.push(...list), { failed: [] }) },
        observer: {
          outcome: (_r, o) => void (o.status === 'recorded' && outcomes.set(o.requestId, o)),
          failure: (_r, e) => {
            throw e;
          },
        },
      },
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    return { jobs, outcomes };
  };
  const deadLettered: { record: JobRecord; code: string; message: string }[] = [];
  const runtime = (
    outbox: OutboxPorts,
    observer: DeliverObserver,
    o: { store?: DeliverParts['ports']['store']; deadLetter?: DeliverParts['deadLetter'] } = {},
  ) =>
    createDeliverRuntime({
      config,
      ports: { store: o.store ?? store, packs: packSource, outbox },
      deadLetter: o.deadLetter ?? (async (record, code, message) => void deadLettered.push({ record, code, message })),
      observer,
    });
  /** What a recorded request's entry owes, from the entry as the ledger holds it. */
  const owedBy = async (o: BatchOutcome & { status: 'recorded' }): Promise<OwedMessages> =>
    owed(await recordedAt(store, o.logId, o.seq), packSource);
  return { store, evaluate, runtime, deadLettered, owedBy };
}

describe('the deliver runtime', () => {
  it('delivers a job the evaluate function sent: positions written, every handoff then the notification, no failure', async () => {
    const w = world();
    const { jobs, outcomes } = await w.evaluate([triage('a-1'), vendor('a-2'), triage('a-3')]);
    expect(jobs).toHaveLength(1);
    expect(w.store.markers().positions).toEqual([]); // the writer left them to the stage
    const out = recordingOutbox();
    const obs = recordingObserver();
    const store: DeliverParts['ports']['store'] = {
      readEntries: (logId, from, to) => w.store.readEntries(logId, from, to),
      readMarkers: (logId, from, to) => w.store.readMarkers(logId, from, to),
      putPositionIfAbsent: (p) => (out.events.push(`position ${p.requestId}`), w.store.putPositionIfAbsent(p)),
      putMarkerIfAbsent: (m) => (
        out.events.push(`marker ${m.positions.map((p) => p.requestId).join(' ')}`),
        w.store.putMarkerIfAbsent(m)
      ),
    };
    const answer = await w
      .runtime(out.ports, obs.observer, { store })
      .handle(sqsEvent([{ id: 'j1', body: bytesOf(jobs[0]!) }]));
    expect(answer).toEqual({ batchItemFailures: [] });
    // Every handoff each entry owes, then every notification, under the ids derived from the entry.
    const owes = await Promise.all(['a-1', 'a-2', 'a-3'].map((id) => w.owedBy(outcomes.get(id)!)));
    const planned = owes.flatMap((o) => o.handoffs.map((h) => h.handoffId));
    const notifications = owes.map((o) => o.notification.id);
    expect(planned.length).toBeGreaterThan(3);
    expect(out.sent.map((s) => s.handoff.handoffId).sort()).toEqual([...planned].sort());
    expect(out.published.map((m) => m.id)).toEqual(notifications);
    // The batch marker first (a notified requester can always get a receipt), then handoffs, then notifications.
    expect(out.events[0]).toBe('marker a-1 a-2 a-3');
    const firstPublish = out.events.findIndex((e) => e.startsWith('publish'));
    expect(firstPublish).toBe(1 + planned.length);
    expect(out.events.slice(1, firstPublish).every((e) => e.startsWith('send'))).toBe(true);
    expect(
      w.store
        .markers()
        .positions.map((p) => `${p.logId}/${p.seq} ${p.requestId}`)
        .sort(),
    ).toEqual(jobs[0]!.entries.map((e) => `d-0/${e.seq} ${e.requestId}`).sort());
    // The observer sees the job and what each of its entries fanned out.
    expect(obs.delivered).toHaveLength(1);
    expect(obs.delivered[0]!.record).toMatchObject({ messageId: 'j1', receiveCount: 1 });
    expect(obs.delivered[0]!.job).toEqual(jobs[0]);
    expect(obs.delivered[0]!.result.fannedOut.flatMap((f) => f.handoffs.map((h) => h.handoffId))).toEqual(planned);
    expect(obs.refused).toEqual([]);
    expect(obs.failed).toEqual([]);
    expect(w.deadLettered).toEqual([]);
  });

  it('dead-letters a body that is not a job as delivery-job-invalid, sends nothing, and does not retry it', async () => {
    const w = world();
    const { jobs } = await w.evaluate([triage('b-1')]);
    const good = bytesOf(jobs[0]!);
    expect(good.startsWith('{"entries":')).toBe(true);
    const entries = good.slice('{"entries":'.length, good.indexOf(',"format"'));
    // Each one otherwise names the recorded entry, so only the reader stands between it and a delivery.
    const bodies: Record<string, { body: string; why: RegExp }> = {
      malformed: { body: good.slice(0, -1), why: /not JSON/ },
      duplicate: {
        body: `{"entries":${entries},"format":"docket.delivery-job/1","logId":"d-0","logId":"d-0"}`,
        why: /duplicate member/,
      },
      extra: {
        body: `{"entries":${entries},"extra":1,"format":"docket.delivery-job/1","logId":"d-0"}`,
        why: /exactly the members/,
      },
      oversize: {
        body: good + ' '.repeat(MAX_JOB_BYTES + 1 - good.length),
        why: new RegExp(`at most ${MAX_JOB_BYTES} bytes`),
      },
    };
    const out = recordingOutbox();
    const obs = recordingObserver();
    const answer = await w
      .runtime(out.ports, obs.observer)
      .handle(sqsEvent(Object.entries(bodies).map(([id, { body }]) => ({ id, body }))));
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(out.events).toEqual([]);
    expect(w.store.markers().positions).toEqual([]);
    expect(w.deadLettered.map((d) => d.record.messageId).sort()).toEqual(Object.keys(bodies).sort());
    for (const d of w.deadLettered) {
      expect(d.code).toBe('delivery-job-invalid');
      expect(d.message).toMatch(bodies[d.record.messageId]!.why);
      expect(d.record.body).toBe(bodies[d.record.messageId]!.body); // the DLQ gets the message as it came
    }
    expect(obs.refused.map((r) => r.code)).toEqual(Array(4).fill('delivery-job-invalid'));
    expect(obs.delivered).toEqual([]);
    expect(obs.failed).toEqual([]);
  });

  it('dead-letters a job naming a seq that holds another request, or no entry, as job-names-no-entry, and writes and sends nothing', async () => {
    const w = world();
    await w.evaluate([triage('k-1'), triage('k-2')]);
    const seqOf = new Map<string, number>();
    for await (const e of w.store.readEntries('d-0', 0)) seqOf.set(e.projection.requestId, e.seq);
    const bodies = {
      other: bytesOf({ logId: 'd-0', entries: [{ seq: seqOf.get('k-1')!, requestId: 'k-2' }] }),
      // Its first entry is real: the job is refused whole, so not even that entry's position is written.
      empty: bytesOf({
        logId: 'd-0',
        entries: [
          { seq: seqOf.get('k-1')!, requestId: 'k-1' },
          { seq: 7, requestId: 'k-9' },
        ],
      }),
    };
    const out = recordingOutbox();
    const obs = recordingObserver();
    const answer = await w
      .runtime(out.ports, obs.observer)
      .handle(sqsEvent(Object.entries(bodies).map(([id, body]) => ({ id, body }))));
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(w.deadLettered.map((d) => [d.record.messageId, d.code]).sort()).toEqual([
      ['empty', 'job-names-no-entry'],
      ['other', 'job-names-no-entry'],
    ]);
    expect(out.events).toEqual([]);
    expect(w.store.markers().positions).toEqual([]);
    expect(obs.delivered).toEqual([]);
  });

  it('retries only the job whose handoff send failed, and the retry sends the same handoff and notification ids', async () => {
    const w = world();
    // Two batches, two jobs on the same log.
    const first = await w.evaluate([triage('f-1')]);
    const second = await w.evaluate([triage('f-2')]);
    const f1 = await w.owedBy(first.outcomes.get('f-1')!);
    const failing = new Set(f1.handoffs.map((h) => h.handoffId));
    expect(failing.size).toBeGreaterThan(0);
    const out = recordingOutbox((h) => failing.has(h.handoffId));
    const obs = recordingObserver();
    const answer = await w.runtime(out.ports, obs.observer).handle(
      sqsEvent([
        { id: 'job-f1', body: bytesOf(first.jobs[0]!) },
        { id: 'job-f2', body: bytesOf(second.jobs[0]!) },
      ]),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'job-f1' }] });
    expect(obs.delivered.map((d) => d.record.messageId)).toEqual(['job-f2']);
    expect(obs.failed.map((f) => f.record.messageId)).toEqual(['job-f1']);
    expect(w.deadLettered).toEqual([]);
    // f-2 went out whole; f-1's notification waits for its handoffs.
    const f2 = await w.owedBy(second.outcomes.get('f-2')!);
    expect(out.published.map((m) => m.id)).toEqual([f2.notification.id]);
    const attempted = out.sent.map((s) => s.handoff.handoffId).filter((id) => failing.has(id));
    expect(attempted.sort()).toEqual([...failing].sort());

    const again = recordingOutbox();
    const retried = await w
      .runtime(again.ports, recordingObserver().observer)
      .handle(sqsEvent([{ id: 'job-f1', body: bytesOf(first.jobs[0]!), receiveCount: 2 }]));
    expect(retried).toEqual({ batchItemFailures: [] });
    expect(again.sent.map((s) => s.handoff.handoffId).sort()).toEqual(attempted);
    expect(again.published.map((m) => m.id)).toEqual([f1.notification.id]);
    expect(w.store.markers().positions).toHaveLength(2);
  });

  it('retries a refused job whose dead-letter send throws, rather than losing it', async () => {
    const w = world();
    const { jobs } = await w.evaluate([triage('g-1')]);
    const bodies = {
      invalid: '{"not":"a job"}',
      'no-entry': bytesOf({ logId: 'd-0', entries: [{ seq: 9, requestId: 'g-9' }] }),
    };
    const event = sqsEvent([
      ...Object.entries(bodies).map(([id, body]) => ({ id, body })),
      { id: 'good', body: bytesOf(jobs[0]!) },
    ]);
    const obs = recordingObserver();
    const answer = await w
      .runtime(recordingOutbox().ports, obs.observer, {
        deadLetter: () => Promise.reject(new Error('DLQ unreachable')),
      })
      .handle(event);
    expect(answer.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['invalid', 'no-entry']);
    expect(obs.refused).toEqual([]); // not counted as refused until it is in the DLQ
    expect(obs.failed.map((f) => f.record.messageId).sort()).toEqual(['invalid', 'no-entry']);
    expect(obs.delivered.map((d) => d.record.messageId)).toEqual(['good']);
    // Redelivered with the DLQ back, they are dead-lettered and done.
    const retried = await w.runtime(recordingOutbox().ports, recordingObserver().observer).handle(event);
    expect(retried).toEqual({ batchItemFailures: [] });
    expect(w.deadLettered.map((d) => [d.record.messageId, d.code]).sort()).toEqual([
      ['invalid', 'delivery-job-invalid'],
      ['no-entry', 'job-names-no-entry'],
    ]);
  });

  it('retries a job whose entries the store cannot read, sending and dead-lettering nothing', async () => {
    const w = world();
    const { jobs } = await w.evaluate([triage('h-1')]);
    let down = true;
    const store: DeliverParts['ports']['store'] = {
      readEntries: (logId, from, to) => {
        if (down) throw new Error('ProvisionedThroughputExceededException');
        return w.store.readEntries(logId, from, to);
      },
      readMarkers: (logId, from, to) => w.store.readMarkers(logId, from, to),
      putPositionIfAbsent: (p) => w.store.putPositionIfAbsent(p),
      putMarkerIfAbsent: (m) => w.store.putMarkerIfAbsent(m),
    };
    const out = recordingOutbox();
    const obs = recordingObserver();
    const event = sqsEvent([{ id: 'h', body: bytesOf(jobs[0]!) }]);
    const runtime = w.runtime(out.ports, obs.observer, { store });
    expect(await runtime.handle(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'h' }] });
    expect(out.events).toEqual([]);
    expect(w.deadLettered).toEqual([]);
    expect(w.store.markers().positions).toEqual([]);
    expect((obs.failed[0]?.error as Error).message).toBe('ProvisionedThroughputExceededException');
    down = false;
    expect(await runtime.handle(event)).toEqual({ batchItemFailures: [] });
    expect(obs.delivered).toHaveLength(1);
    expect(w.store.markers().positions).toHaveLength(1);
  });
});

/** Everything written to stdout/stderr or the console (Powertools Metrics prints EMF lines through a Console). */
function capture(): { lines: () => string[]; restore: () => void } {
  const out: string[] = [];
  const keep = (chunk: string | Uint8Array) => (out.push(String(chunk)), true);
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep),
    ...(['log', 'info', 'warn', 'error'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' ') + '\n')),
    ),
  ];
  return {
    lines: () => out.join('').split('\n').filter(Boolean),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}

afterEach(() => vi.restoreAllMocks());

describe("the evaluate function's metrics under the delivery stage", () => {
  it('counts the evaluation and no Handoffs for a recorded outcome, and logs a duplicate without claiming handoffs were re-sent', async () => {
    const w = world();
    const { outcomes } = await w.evaluate([triage('m-1')]);
    const outcome = outcomes.get('m-1')!;
    expect((await w.owedBy(outcome)).handoffs.length).toBeGreaterThan(0); // the entry does owe handoffs
    const record: BatchRecord = { messageId: 'e0', body: '{}' };
    const emitted = (o: BatchOutcome) => {
      const obs = powertoolsObservability('docket-evaluate-test', 'Docket');
      const c = capture();
      try {
        obs.outcome(record, o);
        obs.flush();
      } finally {
        c.restore();
      }
      return c.lines();
    };
    const metric = (lines: string[], name: string) =>
      lines.filter((l) => l.startsWith('{') && JSON.parse(l)[name] !== undefined);
    const recorded = emitted(outcome);
    expect(metric(recorded, 'Evaluations'), recorded.join('\n')).toHaveLength(1); // the capture works
    expect(metric(recorded, 'Handoffs')).toEqual([]);
    const duplicate = emitted({ ...outcome, created: false });
    expect(metric(duplicate, 'DuplicateDeliveries'), duplicate.join('\n')).toHaveLength(1);
    expect(metric(duplicate, 'Handoffs')).toEqual([]);
    expect(duplicate.join('\n')).not.toMatch(/re-sent/);
  });
});
