/**
 * The evaluate function's runtime (functions/lib/evaluate-runtime.ts) on batches of ledger messages
 * (docs/adr/0497-a-ledger-message-carries-many-requests.md), over the in-memory ledger, with its rejects and its
 * forwarder sending through an SQS client that answers as SQS does: every request of every message written once; an
 * invalid message rejected whole with reason `ledger-message-invalid`; a request the ledger cannot record rejected
 * alone, named by its own intake message; a failed request failing its message once, and FIFO's rule applied to
 * messages; a request whose claim fixes another log forwarded as a ledger message of that one request.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { DeliveryJob } from '../../core/pipeline/delivery-job.js';
import type { LedgerStore } from '../../core/ledger/store/store.js';
import { readLedgerMessage } from '../../core/pipeline/ledger-message.js';
import { forwardDeduplicationId } from '../../core/pipeline/sequencing.js';
import {
  createEvaluateRuntime,
  RECORD_CONCURRENCY,
  sqsLedgerForwarder,
  sqsRejects,
  type RuntimeParts,
} from '../../functions/lib/evaluate-runtime.js';
import { triage } from './example-requests-fixture.js';
import { fakeSqs, ledgerMessage, sqsRecord } from './ledger-queue-fixture.js';
import { memoryPipeline } from './memory-pipeline-fixture.js';

const LEDGER_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/docket-prod-ledger.fifo';
const REJECTS_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/docket-prod-rejects';

/** A ledger message of these request bodies, intake ids `<messageId>-i-<n>`. */
const pack = (messageId: string, bodies: readonly string[]): string =>
  ledgerMessage(
    bodies.map((body, n) => ({ body, intakeMessageId: `${messageId}-i-${n}`, intakeSentTimestamp: String(500 + n) })),
  );

/** A batch of the FIFO ledger queue: each message on its group. */
const batch = (messages: readonly { id: string; group: string; body: string }[]): SQSEvent => ({
  Records: messages.map((m) => sqsRecord({ messageId: m.id, body: m.body, group: m.group })),
});

/** The request ids of a log's entries, in seq order. */
async function requestIds(store: LedgerStore, logId: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.readEntries(logId, 0)) out.push(e.projection.requestId);
  return out;
}

/**
 * The runtime over logs d-0 and d-1, its rejects and forwards sent through one fake SQS client; `archive` stands in
 * for the request archive (a put that throws fails that request's record).
 */
function evaluate(o: { archive?: (body: string) => Promise<void>; concurrency?: number } = {}) {
  const p = memoryPipeline({ logIds: ['d-0', 'd-1'] });
  const sqs = fakeSqs();
  const jobs: DeliveryJob[] = [];
  const parts: RuntimeParts = {
    config: p.config,
    ports: {
      packs: p.packSource,
      archive: { put: (bytes) => (o.archive ?? (async () => undefined))(new TextDecoder().decode(bytes)) },
    },
    ledger: p.writer,
    jobs: { send: async (list) => (jobs.push(...list), { failed: [] }) },
    deadLetter: sqsRejects(sqs.client, REJECTS_URL),
    forward: sqsLedgerForwarder(sqs.client, LEDGER_URL),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
  };
  const rt = createEvaluateRuntime(parts);
  const sent = (url: string) =>
    sqs.commands.filter((c) => c.input.QueueUrl === url).map((c) => c.input as Record<string, unknown>);
  return { rt, store: p.store, jobs, rejects: () => sent(REJECTS_URL), forwards: () => sent(LEDGER_URL) };
}

/** A rejects-queue message as the evaluate function sent it: body and attributes. */
const reject = (input: Record<string, unknown>) => {
  const a = input.MessageAttributes as Record<string, { StringValue: string }>;
  return {
    body: input.MessageBody,
    ...Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v.StringValue])),
  };
};

describe('the evaluate function on a batch of ledger messages', () => {
  it('writes every request of every message once, and names each entry in a delivery job', async () => {
    const e = evaluate();
    const answer = await e.rt.handle(
      batch([
        { id: 'm-1', group: 'd-0', body: pack('m-1', [triage('r-1'), triage('r-2'), triage('r-3')]) },
        { id: 'm-2', group: 'd-0', body: pack('m-2', [triage('r-4')]) },
        { id: 'm-3', group: 'd-1', body: pack('m-3', [triage('r-5'), triage('r-6')]) },
      ]),
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect((await requestIds(e.store, 'd-0')).sort()).toEqual(['r-1', 'r-2', 'r-3', 'r-4']);
    expect((await requestIds(e.store, 'd-1')).sort()).toEqual(['r-5', 'r-6']);
    expect(e.jobs.flatMap((j) => j.entries.map((x) => x.requestId)).sort()).toEqual(
      ['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6'].sort(),
    );
    expect(e.rejects()).toEqual([]);
  });

  it('rejects an invalid ledger message whole, with reason ledger-message-invalid, writes nothing and is done with it', async () => {
    const e = evaluate();
    const broken = pack('m-1', [triage('r-1'), triage('r-2')]).replace('"bytes":', '"bytes":1');
    const answer = await e.rt.handle(
      batch([
        { id: 'm-1', group: 'd-0', body: broken },
        { id: 'm-2', group: 'd-0', body: pack('m-2', [triage('r-3')]) },
      ]),
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(e.rejects().map(reject)).toEqual([
      {
        body: broken,
        DocketReason: 'ledger-message-invalid',
        DocketReasonMessage: expect.stringMatching(/^requests\[0\] /) as unknown,
        OriginalMessageId: 'm-1',
      },
    ]);
    expect(await requestIds(e.store, 'd-0')).toEqual(['r-3']);
  });

  it('rejects a request the ledger cannot record alone, with its own body and intake message id', async () => {
    const e = evaluate();
    const answer = await e.rt.handle(
      batch([{ id: 'm-1', group: 'd-0', body: pack('m-1', [triage('r-1'), 'not json', triage('r-2')]) }]),
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(e.rejects().map(reject)).toEqual([
      expect.objectContaining({ body: 'not json', OriginalMessageId: 'm-1-i-1' }) as unknown,
    ]);
    expect((await requestIds(e.store, 'd-0')).sort()).toEqual(['r-1', 'r-2']);
  });

  it('fails a message once when a request of it fails, and every message after it, keeping those before', async () => {
    let archiveDown = true;
    const e = evaluate({
      archive: async (body) => {
        if (archiveDown && body.includes('"r-bad"')) throw new Error('archive down');
      },
    });
    const messages = [
      { id: 'm-1', group: 'd-0', body: pack('m-1', [triage('r-1')]) },
      { id: 'm-2', group: 'd-0', body: pack('m-2', [triage('r-2'), triage('r-bad'), triage('r-3')]) },
      { id: 'm-3', group: 'd-1', body: pack('m-3', [triage('r-4')]) },
    ];
    expect(await e.rt.handle(batch(messages))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm-2' }, { itemIdentifier: 'm-3' }],
    });
    // SQS redelivers m-2 and m-3 whole: the requests already written are found, not written again.
    archiveDown = false;
    expect(await e.rt.handle(batch(messages.slice(1)))).toEqual({ batchItemFailures: [] });
    expect((await requestIds(e.store, 'd-0')).sort()).toEqual(['r-1', 'r-2', 'r-3', 'r-bad']);
    expect(await requestIds(e.store, 'd-1')).toEqual(['r-4']);
  });

  it('reads a body that is no ledger message as one request, named by its own SQS message id', async () => {
    const e = evaluate();
    const event: SQSEvent = {
      Records: [
        sqsRecord({ messageId: 'm-1', body: triage('r-1'), group: 'd-0' }),
        sqsRecord({
          messageId: 'm-2',
          body: '{"format":"docket.ledger-message/0"}',
          group: 'd-0',
          messageAttributes: { IntakeMessageId: { dataType: 'String', stringValue: 'intake-forged' } },
        }),
      ],
    };
    expect(await e.rt.handle(event)).toEqual({ batchItemFailures: [] });
    expect(await requestIds(e.store, 'd-0')).toEqual(['r-1']);
    expect(e.rejects().map(reject)).toEqual([
      expect.objectContaining({
        body: '{"format":"docket.ledger-message/0"}',
        OriginalMessageId: 'm-2',
      }) as unknown,
    ]);
  });

  it('forwards a request whose claim fixes another log as a ledger message of that one request, to that log’s group', async () => {
    const e = evaluate();
    await e.rt.handle(batch([{ id: 'm-1', group: 'd-0', body: pack('m-1', [triage('r-1')]) }]));
    const answer = await e.rt.handle(
      batch([{ id: 'm-2', group: 'd-1', body: pack('m-2', [triage('r-2'), triage('r-1')]) }]),
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(await requestIds(e.store, 'd-1')).toEqual(['r-2']);
    expect(await requestIds(e.store, 'd-0')).toEqual(['r-1']);
    const [forward, ...more] = e.forwards();
    expect(more).toEqual([]);
    const body = forward!.MessageBody as string;
    expect(readLedgerMessage(body)).toEqual({
      ok: true,
      value: [{ body: triage('r-1'), intakeMessageId: 'm-2-i-1', intakeSentTimestamp: '501' }],
    });
    expect(forward!.MessageGroupId).toBe('d-0');
    expect(forward!.MessageDeduplicationId).toBe(forwardDeduplicationId(body, 'd-0'));
    expect(forward!.MessageAttributes).toBeUndefined();
  });

  it('forwards a request that came as a bare body under the SQS message id when no intake id came with it', async () => {
    const e = evaluate();
    await e.rt.handle(batch([{ id: 'm-1', group: 'd-0', body: triage('r-1') }]));
    await e.rt.handle(batch([{ id: 'm-2', group: 'd-1', body: triage('r-1') }]));
    const [forward] = e.forwards();
    expect(readLedgerMessage(forward!.MessageBody as string)).toEqual({
      ok: true,
      value: [{ body: triage('r-1'), intakeMessageId: 'm-2' }],
    });
  });

  it(`processes up to ${RECORD_CONCURRENCY} requests of a batch at once`, async () => {
    let inFlight = 0;
    let most = 0;
    const e = evaluate({
      archive: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
      },
    });
    const ids = Array.from({ length: 80 }, (_, i) => `r-${i}`);
    const messages = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => ({
      id: `m-${k}`,
      group: 'd-0',
      body: pack(`m-${k}`, ids.slice(k * 10, k * 10 + 10).map(triage)),
    }));
    expect(await e.rt.handle(batch(messages))).toEqual({ batchItemFailures: [] });
    expect(most).toBe(RECORD_CONCURRENCY);
    expect((await requestIds(e.store, 'd-0')).length).toBe(80);
  });
});
