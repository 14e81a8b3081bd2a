/**
 * Delivery faults over the local stack (docs/pipeline.md): duplicates, a failed send after the ledger write, a poison
 * handoff. A short visibility timeout (2 s) makes redelivery quick; the deliver function's handoff sends are wrapped
 * to inject faults (docs/adr/0404-delivery-stage.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approximateDepth } from '../../adapters/sqs.js';
import { readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import type { HandoffBatchSender } from '../../core/pipeline/ports.js';
import { startE2e, type E2eWorld } from './harness.js';
import { sendToLog } from './ledger-queue.js';
import { ex, handoffs, sleep, worldIo, type WorldIo } from './world-io.js';

/** Request ids whose first handoff send "crashes" the function (after the ledger write). */
const crashOnce = new Set<string>();
/** Request ids whose every handoff send fails: a poison message. */
const alwaysFail = new Set<string>();
/** Fails the handoffs of the chosen requests in the batch call; their neighbours in the call go out. */
const faults = (s: HandoffBatchSender): HandoffBatchSender => ({
  async sendBatch(queue, batch) {
    const failed: { index: number; reason: string }[] = [];
    const pass: number[] = [];
    for (const [i, h] of batch.entries()) {
      const read = readHandoffMessage(new TextEncoder().encode(h.body));
      if (!read.ok) throw new Error(`the pipeline sent an unreadable handoff: ${read.error.message}`);
      const requestId = read.value.requestId;
      if (alwaysFail.has(requestId)) failed.push({ index: i, reason: 'injected: poison' });
      else if (crashOnce.delete(requestId)) failed.push({ index: i, reason: 'injected: died after the ledger write' });
      else pass.push(i);
    }
    if (pass.length > 0) {
      const report = await s.sendBatch(
        queue,
        pass.map((i) => batch[i]!),
      );
      failed.push(...report.failed.map((f) => ({ ...f, index: pass[f.index]! })));
    }
    return { failed };
  },
});

/**
 * Waits until the request path — intake, ledger and delivery queues — holds nothing, visible, in flight or delayed,
 * twice in a row: every delivery of what was sent has been handled and its handoffs are on their route queue.
 */
async function untilPathIsEmpty(timeoutMs = 60_000): Promise<void> {
  let quiet = 0;
  for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(250)) {
    const depths = await Promise.all(
      ['intake', 'ledger.fifo', 'delivery'].map((q) => approximateDepth(w.sqs, w.queueUrl(q))),
    );
    quiet = depths.every((d) => d.visible + d.inFlight + d.delayed === 0) ? quiet + 1 : 0;
    if (quiet === 2) return;
  }
  throw new Error('the request path did not empty');
}

let w: E2eWorld;
let request: WorldIo['request'];
let submit: WorldIo['submit'];
let entryOf: WorldIo['entryOf'];
let drain: WorldIo['drain'];

beforeAll(async () => {
  w = await startE2e({ wrapSender: faults, visibilityTimeout: 2, config: { maximumConcurrency: 2 } });
  ({ request, submit, entryOf, drain } = await worldIo(w));
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

describe('delivery faults over the local stack', () => {
  it('keeps one entry and one handoff id when the same message is delivered three times', async () => {
    const body = request(
      'thrice',
      'vendor',
      ex('requests/vendor-no-match.facts.json'),
      ex('requests/vendor-certificate.evidence.json'),
    );
    // Three copies on the intake queue are three intake messages, carried in ledger messages that name them (ADR
    // 0497); three more deliveries to the evaluate function are three ledger messages of it under one log's group.
    for (let i = 0; i < 3; i++) await submit(body);
    const logs = JSON.parse(w.env.LOG_IDS!) as string[];
    for (let i = 0; i < 3; i++) await sendToLog(w, logs[0]!, [body]);
    const first = await entryOf('thrice');
    // Once every copy has been handled, whatever handoffs they caused are on the route queue.
    await untilPathIsEmpty();
    const msgs = handoffs(await drain(w.queueUrl('route-vendor-risk'), 6, 2_000)).filter(
      (m) => m.requestId === 'thrice',
    );
    // At least once, always the same handoff id: consumers dedupe on it. (Copies that share a FIFO batch are named once
    // in its delivery job, so how many arrive depends on how SQS batched them.)
    expect(msgs.length).toBeGreaterThanOrEqual(1);
    expect(new Set(msgs.map((m) => m.handoffId)).size).toBe(1);
    expect(new Set(msgs.map((m) => m.ledger.entryHash))).toEqual(new Set([first.entryHash]));
    let count = 0;
    // Across every log: the copies sent under another log's group than its claim's are forwarded, never written there.
    for (const log of logs)
      for await (const e of w.store.readEntries(log, 0)) if (e.projection.requestId === 'thrice') count += 1;
    expect(count).toBe(1);
  });

  it('delivers the handoff once per handoff id after the function dies between the ledger write and the send', async () => {
    crashOnce.add('crash-after-write');
    await submit(
      request(
        'crash-after-write',
        'vendor',
        ex('requests/vendor-no-match.facts.json'),
        ex('requests/vendor-certificate.evidence.json'),
      ),
    );
    const e = await entryOf('crash-after-write');
    const msgs = handoffs(await drain(w.queueUrl('route-vendor-risk'), 1, 15_000)).filter(
      (m) => m.requestId === 'crash-after-write',
    );
    expect(crashOnce.has('crash-after-write')).toBe(false);
    expect(new Set(msgs.map((m) => `${m.handoffId} ${m.ledger.entryHash}`))).toEqual(
      new Set([`${msgs[0]?.handoffId} ${e.entryHash}`]),
    );
    expect(msgs.length).toBeGreaterThanOrEqual(1);
  });

  it('moves the delivery job of a handoff that fails every time to the delivery DLQ after maxReceiveCount, the entry recorded once', async () => {
    alwaysFail.add('poison');
    await submit(
      request(
        'poison',
        'vendor',
        ex('requests/vendor-no-match.facts.json'),
        ex('requests/vendor-certificate.evidence.json'),
      ),
    );
    // The request was recorded (the ledger queue's batch succeeded); its job failed on the delivery queue, whose
    // redrive moves it with the coordinates of the entry it names.
    const dead = await drain(w.queueUrl('delivery-dlq'), 1, 30_000);
    const named = dead.flatMap((m) => (JSON.parse(m.body) as { entries: { requestId: string }[] }).entries);
    expect(named.map((e) => e.requestId)).toContain('poison');
    alwaysFail.delete('poison');
    let count = 0;
    const logs = JSON.parse(w.env.LOG_IDS!) as string[];
    for (const log of logs)
      for await (const e of w.store.readEntries(log, 0)) if (e.projection.requestId === 'poison') count += 1;
    expect(count).toBe(1);
  }, 40_000);
});
