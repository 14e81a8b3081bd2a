/**
 * Delivery faults over the local stack (docs/pipeline.md): duplicates, a crash after the ledger write, a poison
 * message. A short visibility timeout (2 s) makes redelivery quick; handoff sends are wrapped to inject faults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import type { HandoffBatchSender } from '../../core/pipeline/ports.js';
import { sendMessage } from '../../adapters/sqs.js';
import { selectLog } from '../../core/ledger/write/log-selection.js';
import { startE2e, type E2eWorld } from './harness.js';
import { ex, handoffs, worldIo, type WorldIo } from './world-io.js';

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
    // Three copies on the intake queue are one FIFO message (the sequencer's deduplication id is the body's digest,
    // ADR 0270); three deliveries to the evaluate function are three ledger-queue messages with their own ids.
    for (let i = 0; i < 3; i++) await submit(body);
    const logs = JSON.parse(w.env.LOG_IDS!) as string[];
    for (let i = 0; i < 3; i++)
      await sendMessage(w.sqs, w.queueUrl('ledger.fifo'), {
        body,
        groupId: selectLog('thrice', logs),
        deduplicationId: `thrice-delivery-${i}`,
      });
    const first = await entryOf('thrice');
    const msgs = handoffs(await drain(w.queueUrl('route-vendor-risk'), 4, 20_000)).filter(
      (m) => m.requestId === 'thrice',
    );
    // At least once per delivery (one from the intake copies, three direct), always the same handoff id: consumers
    // dedupe on it.
    expect(msgs.length).toBeGreaterThanOrEqual(4);
    expect(new Set(msgs.map((m) => m.handoffId)).size).toBe(1);
    let count = 0;
    for await (const e of w.store.readEntries(first.logId, 0)) if (e.projection.requestId === 'thrice') count += 1;
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

  it('moves a message that fails every time to the FIFO ledger queue’s DLQ after maxReceiveCount', async () => {
    alwaysFail.add('poison');
    await submit(
      request(
        'poison',
        'vendor',
        ex('requests/vendor-no-match.facts.json'),
        ex('requests/vendor-certificate.evidence.json'),
      ),
    );
    // It failed on the FIFO ledger queue (the sequencer forwarded it), so that queue's redrive moves it.
    const dead = await drain(w.queueUrl('ledger-dlq.fifo'), 1, 30_000);
    expect(dead.map((m) => (JSON.parse(m.body) as { requestId: string }).requestId)).toEqual(['poison']);
    alwaysFail.delete('poison');
  }, 40_000);
});
