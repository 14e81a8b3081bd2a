/**
 * The outbox over the wire (docs/adr/0253-per-invocation-outbox.md, docs/adr/0404-delivery-stage.md; docs/pipeline.md
 * "Handoffs"): the real evaluate runtime handles a FIFO batch on the local stack and sends one delivery job; the test
 * receives that job from the delivery queue and hands it to the real deliver runtime, whose SQS and SNS clients are
 * watched at the SDK's middleware, so the calls counted are the calls made. A batch of ten requests sends nothing but
 * its job; the job sends the handoffs in SendMessageBatch calls and the notifications in one PublishBatch call, each
 * handoff once under its id, with the attributes a single send carried; a job one of whose handoffs the queue refuses
 * is retried, and its retry re-sends the same ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { openFilteredSubscription, type FilteredSubscription } from '../../adapters/sns.js';
import { receiveMessages, deleteMessages } from '../../adapters/sqs.js';
import { handoffId, readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import { requestIdFilterPolicies } from '../../core/pipeline/result-filter.js';
import { notificationAttributes, readResultNotification } from '../../core/pipeline/result-notification.js';
import { startE2e, type E2eWorld } from './harness.js';
import { enc, ex, handoffs, worldIo, type WorldIo } from './world-io.js';

let w: E2eWorld;
let io: WorldIo;
/** Calls made by the runtime's clients: command name, queue, and entry count. */
const calls: { command: string; queue?: string; entries: number }[] = [];
/** Request ids whose handoffs to a queue whose URL ends with the key are refused by "SQS" (a sender fault). */
const refuse = new Map<string, string>();

beforeAll(async () => {
  w = await startE2e({ stage: 'e2e-outbox', deliverPolling: false });
  io = await worldIo(w);
  const intake = w.queueUrl('intake');
  w.sqs.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { QueueUrl?: string; Entries?: { Id: string; MessageBody: string }[] };
      const command = context.commandName ?? '';
      if (!command.startsWith('SendMessage') || input.QueueUrl === intake) return next(args);
      calls.push({ command, queue: input.QueueUrl, entries: input.Entries?.length ?? 1 });
      if (command !== 'SendMessageBatchCommand' || input.Entries === undefined) return next(args);
      // The queue refuses chosen entries as SQS does, in a 200 answer, after accepting the others.
      const refused = input.Entries.filter((e) => {
        const h = readHandoffMessage(enc.encode(e.MessageBody));
        const suffix = h.ok ? refuse.get(h.value.requestId) : undefined;
        return suffix !== undefined && input.QueueUrl!.endsWith(suffix);
      });
      const failed = refused.map((e) => ({ Id: e.Id, Code: 'InjectedRefusal', Message: 'refused', SenderFault: true }));
      const rest = input.Entries.filter((e) => !refused.includes(e));
      if (rest.length === 0)
        return { output: { Successful: [], Failed: failed, $metadata: {} }, response: {} } as never;
      const out = (await next({ ...args, input: { ...input, Entries: rest } as never })) as {
        output: { Failed?: unknown[] };
      };
      out.output.Failed = [...(out.output.Failed ?? []), ...failed];
      return out as never;
    },
    { step: 'initialize', name: 'watchHandoffSends' },
  );
  w.sns.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { PublishBatchRequestEntries?: unknown[] };
      calls.push({ command: context.commandName ?? '', entries: input.PublishBatchRequestEntries?.length ?? 1 });
      return next(args);
    },
    { step: 'initialize', name: 'watchPublishes' },
  );
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

/**
 * An SQS event as Lambda delivers it: the runtimes read messageId, body, the receive count and, from the FIFO ledger
 * queue, the message group (the log).
 */
function event(records: { messageId: string; body: string; receiveCount?: number; group?: string }[]): SQSEvent {
  return {
    Records: records.map((r) => ({
      messageId: r.messageId,
      receiptHandle: `rh-${r.messageId}`,
      body: r.body,
      attributes: {
        ApproximateReceiveCount: String(r.receiveCount ?? 1),
        ...(r.group !== undefined ? { MessageGroupId: r.group } : {}),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${w.stack.region}:000000000000:docket-e2e-outbox-intake`,
      awsRegion: w.stack.region,
    })),
  } as unknown as SQSEvent;
}

const vendor = (id: string): string =>
  io.request(id, 'vendor', ex('requests/vendor-no-match.facts.json'), ex('requests/vendor-certificate.evidence.json'));
const triage = (id: string): string =>
  io.request(
    id,
    'triage',
    ex('requests/triage-complete-appropriate.facts.json'),
    ex('requests/triage-instance-7b.evidence.json'),
  );

/** A raw-delivery subscription to the results topic for the given request ids. */
async function listen(name: string, requestIds: string[]): Promise<FilteredSubscription> {
  return openFilteredSubscription(w.sns, w.sqs, {
    topicArn: w.deliverEnv.RESULTS_TOPIC_ARN!,
    queueName: name,
    filterPolicies: requestIdFilterPolicies(requestIds),
  });
}

async function notifications(url: string, atLeast: number) {
  const out: { requestId: string; id: string; attributes: Record<string, string>; expected: Record<string, string> }[] =
    [];
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const got = await receiveMessages(w.sqs, url, { waitTimeSeconds: out.length >= atLeast ? 0 : 1 });
    if (got.length === 0 && out.length >= atLeast) break;
    for (const m of got) {
      const n = readResultNotification(enc.encode(m.Body!));
      if (!n.ok || n.value.entry === null) throw new Error(n.ok ? 'entry omitted' : n.error.message);
      const attributes = Object.fromEntries(
        Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue ?? '']),
      );
      out.push({
        requestId: n.value.entry.entry.requestId,
        id: n.value.notificationId,
        attributes,
        expected: notificationAttributes(n.value.entry.entry) as Record<string, string>,
      });
    }
    if (got.length > 0)
      await deleteMessages(
        w.sqs,
        url,
        got.map((m) => m.ReceiptHandle!),
      );
  }
  return out;
}

/** The delivery jobs the evaluate runtime sent, taken off the delivery queue as the deliver function's event. */
async function jobs(expected: number, receiveCount = 1): Promise<SQSEvent> {
  const url = w.queueUrl('delivery');
  const got: { messageId: string; body: string; receiveCount: number }[] = [];
  const until = Date.now() + 10_000;
  while (got.length < expected && Date.now() < until)
    for (const m of await receiveMessages(w.sqs, url, { waitTimeSeconds: 1 })) {
      got.push({ messageId: m.MessageId!, body: m.Body!, receiveCount });
      await deleteMessages(w.sqs, url, [m.ReceiptHandle!]);
    }
  expect(got).toHaveLength(expected);
  return event(got);
}

const LOG = (): string => (JSON.parse(w.env.LOG_IDS!) as string[])[0]!;

describe('the outbox over the local stack', () => {
  it('sends the handoffs of a batch of ten in at most two SendMessageBatch calls and the notifications in one PublishBatch', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `batch-${i}`);
    const sub = await listen('outbox-batch-listener', ids);
    try {
      calls.length = 0;
      const batch = ids.map((id, i) => ({ messageId: `m-${i}`, body: vendor(id), group: LOG() }));
      expect(await w.runtime.handle(event(batch))).toEqual({ batchItemFailures: [] });
      // Under the log's lock the batch sends its one job, and nothing else.
      expect(calls).toEqual([{ command: 'SendMessageBatchCommand', queue: w.queueUrl('delivery'), entries: 1 }]);
      calls.length = 0;
      expect(await w.deliverRuntime.handle(await jobs(1))).toEqual({ batchItemFailures: [] });

      const sends = calls.filter((c) => c.command.startsWith('SendMessage'));
      expect(sends.every((c) => c.command === 'SendMessageBatchCommand')).toBe(true);
      expect(sends.length).toBeGreaterThanOrEqual(1);
      expect(sends.length).toBeLessThanOrEqual(2);
      expect(sends.reduce((n, c) => n + c.entries, 0)).toBe(10);
      expect(calls.filter((c) => c.command.startsWith('Publish'))).toEqual([
        { command: 'PublishBatchCommand', entries: 10 },
      ]);

      // Every handoff on its queue exactly once, under the id of its entry, with the attributes a single send carried.
      const drained = await io.drain(w.queueUrl('route-vendor-risk'), 10);
      const got = handoffs(drained);
      expect(got.map((h) => h.requestId).sort()).toEqual([...ids].sort());
      for (const [i, h] of got.entries()) {
        const e = await io.entryOf(h.requestId);
        expect(h.handoffId).toBe(handoffId(e.entryHash, 0));
        expect(drained[i]!.attributes).toEqual({ HandoffId: h.handoffId, Route: 'queue:Vendor Risk' });
      }

      // Every notification once, its id the entry hash and its attributes those of a single Publish.
      const notes = await notifications(sub.queueUrl, 10);
      expect(notes.map((n) => n.requestId).sort()).toEqual([...ids].sort());
      for (const n of notes) {
        const e = await io.entryOf(n.requestId);
        expect(n.id).toBe(e.entryHash);
        expect(n.attributes).toEqual(n.expected);
        expect(n.attributes.requestId).toBe(n.requestId);
      }
    } finally {
      await sub.close();
    }
  });

  it('retries the job whose handoff the queue refused, publishes that entry’s notification only on the retry, and re-sends the same ids', async () => {
    const ids = ['pf-a', 'pf-b', 'pf-c'];
    const sub = await listen('outbox-partial-listener', ids);
    try {
      refuse.set('pf-b', '-route-oversight');
      const records = ids.map((id) => ({ messageId: `msg-${id}`, body: triage(id), group: LOG() }));
      // The batch is recorded and acknowledged whole: delivery is the stage's, not the log's lock's.
      expect(await w.runtime.handle(event(records))).toEqual({ batchItemFailures: [] });
      const job = await jobs(1);
      const jobId = job.Records[0]!.messageId;
      expect(await w.deliverRuntime.handle(job)).toEqual({ batchItemFailures: [{ itemIdentifier: jobId }] });
      expect((await notifications(sub.queueUrl, 2)).map((n) => n.requestId).sort()).toEqual(['pf-a', 'pf-c']);

      // SQS redelivers the failed job; this time the queue takes the handoff. Every entry of the job is delivered
      // again under the same ids: pf-a's and pf-c's notifications repeat, pf-b's comes for the first time.
      refuse.delete('pf-b');
      const retry = event([{ messageId: jobId, body: job.Records[0]!.body, receiveCount: 2 }]);
      expect(await w.deliverRuntime.handle(retry)).toEqual({ batchItemFailures: [] });
      const notes = await notifications(sub.queueUrl, 3);
      const entry = await io.entryOf('pf-b');
      expect(notes.map((n) => n.requestId).sort()).toEqual(['pf-a', 'pf-b', 'pf-c']);
      expect(notes.find((n) => n.requestId === 'pf-b')?.id).toBe(entry.entryHash);

      // pf-b's three handoffs: the two the queues took the first time arrive twice, byte for byte the same; the
      // refused one once; all under the ids of its one entry.
      const routed = [];
      for (const q of ['route-intake-desk', 'route-oversight', 'route-data-steward'])
        routed.push(...(await io.drain(w.queueUrl(q), 1)));
      const mine = routed.filter((m) => handoffs([m])[0]!.requestId === 'pf-b');
      const byId = new Map<string, string[]>();
      for (const m of mine)
        byId.set(handoffs([m])[0]!.handoffId, [...(byId.get(handoffs([m])[0]!.handoffId) ?? []), m.body]);
      expect(new Set(byId.keys())).toEqual(new Set([0, 1, 2].map((i) => handoffId(entry.entryHash, i))));
      expect([...byId.values()].map((bodies) => bodies.length).sort()).toEqual([1, 2, 2]);
      for (const bodies of byId.values()) expect(new Set(bodies).size).toBe(1);
      let count = 0;
      for await (const e of w.store.readEntries(entry.logId, 0)) if (e.projection.requestId === 'pf-b') count += 1;
      expect(count).toBe(1);
    } finally {
      await sub.close();
    }
  });
});
