/**
 * A ledger message carries many requests, over the local stack (docs/adr/0497-a-ledger-message-carries-many-requests.md,
 * core/pipeline/ledger-message.ts): requests sent to the intake queue in one go reach the FIFO ledger queue as fewer
 * messages than requests, each message naming the intake message of every request it carries, and each request is
 * recorded exactly once, verify passing; an unidentifiable request packed among good ones is rejected alone, with its
 * reason and its own intake message id, while the good ones are recorded; and a message that claims the format and
 * breaks it goes whole to the rejects queue as `ledger-message-invalid`, its log going on behind it.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage, sendMessages } from '../../adapters/sqs.js';
import { LEDGER_MESSAGE_FORMAT } from '../../core/pipeline/ledger-message.js';
import { startE2e, type E2eWorld } from './harness.js';
import { requestIdOf, sendToLog, watchLedgerQueue, type HandedMessage } from './ledger-queue.js';
import { ex, worldIo, type WorldIo } from './world-io.js';

const STAGE = 'packed';
let w: E2eWorld;
let io: WorldIo;
let logs: string[];
const watch = watchLedgerQueue();
const facts = () => ex('requests/triage-complete-appropriate.facts.json');

beforeAll(async () => {
  w = await startE2e({ stage: STAGE, wrapHandler: watch.wrapHandler });
  io = await worldIo(w);
  logs = JSON.parse(w.env.LOG_IDS!) as string[];
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

/** How many entries each of `ids` has across every log. */
async function entryCounts(ids: readonly string[]): Promise<number[]> {
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const log of logs)
    for await (const e of w.store.readEntries(log, 0)) {
      const n = counts.get(e.projection.requestId);
      if (n !== undefined) counts.set(e.projection.requestId, n + 1);
    }
  return ids.map((id) => counts.get(id)!);
}

/** The request a handed message carries with exactly these bytes, and that message. */
function carrierOfBody(body: string): { message: HandedMessage; intakeMessageId: string } | undefined {
  for (const message of watch.handed) {
    const q = message.requests?.find((r) => r.body === body);
    if (q) return { message, intakeMessageId: q.intakeMessageId };
  }
  return undefined;
}

describe('ledger messages over the local stack', () => {
  it('carries 40 requests sent to the intake queue in one go in fewer ledger messages, each request recorded exactly once and verify ok', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `packed-${i}`);
    const bodies = ids.map((id) => io.request(id, 'triage', facts()));
    const sent = await sendMessages(
      w.sqs,
      w.queueUrl('intake'),
      bodies.map((body) => ({ body })),
    );
    const entries = await Promise.all(ids.map((id) => io.entryOf(id, 60_000)));
    expect(entries.map((e) => e.entry.requestId)).toEqual(ids);

    // What the evaluate function was handed: each request in a ledger message, its exact bytes, under the id of the
    // message the requester sent, in the group of the log it is recorded in.
    const carriers = ids.map((id) => watch.carriersOf(id));
    for (const [i, cs] of carriers.entries()) {
      expect(cs.length, ids[i]).toBeGreaterThan(0);
      for (const m of cs) {
        expect(m.body.startsWith(`{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[`)).toBe(true);
        expect(m.groupId).toBe(entries[i]!.logId);
        expect(m.requests!.filter((q) => requestIdOf(q.body) === ids[i])).toEqual([
          expect.objectContaining({ body: bodies[i], intakeMessageId: sent[i]!.messageId }),
        ]);
      }
    }
    const messages = new Set(carriers.flatMap((cs) => cs.map((m) => m.messageId)));
    const widest = Math.max(...carriers.flatMap((cs) => cs.map((m) => m.requests!.length)));
    process.stdout.write(
      `${ids.length} requests sent to the intake queue in one go reached the ledger queue in ${messages.size} messages (at most ${widest} requests in one)\n`,
    );
    expect(messages.size).toBeLessThan(ids.length);
    expect(widest).toBeGreaterThan(1);

    expect(await entryCounts(ids)).toEqual(ids.map(() => 1));
    const verdict = await w.verify();
    expect(verdict.exitCode, verdict.stdout + verdict.stderr).toBe(0);
  }, 120_000);

  it('records the good requests of a ledger message and rejects the unidentifiable one among them with its reason and its intake message id', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `packed-good-${i}`);
    const bad = '{"facts": {}, "oops": ';
    const bodies = ids.map((id) => io.request(id, 'triage', facts()));
    bodies.splice(4, 0, bad);
    // One SendMessageBatch call: the sequence function receives the nine together and packs them into one message.
    const sent = await sendMessages(
      w.sqs,
      w.queueUrl('intake'),
      bodies.map((body) => ({ body })),
    );
    await Promise.all(ids.map((id) => io.entryOf(id, 60_000)));
    const rejects = await io.drain(w.queueUrl('rejects'), 1, 30_000);
    expect(rejects.filter((m) => m.body === bad).map((m) => m.attributes)).toEqual([
      {
        DocketReason: 'request-not-json',
        DocketReasonMessage: expect.any(String),
        OriginalMessageId: sent[4]!.messageId,
      },
    ]);
    // It travelled among good ones: the message that carried it carried others, and they are recorded once each.
    const carrier = carrierOfBody(bad);
    expect(carrier?.intakeMessageId).toBe(sent[4]!.messageId);
    const together = (carrier?.message.requests ?? []).map((q) => requestIdOf(q.body)).filter((id) => id);
    expect(together.length).toBeGreaterThan(0);
    expect(ids).toEqual(expect.arrayContaining(together));
    expect(await entryCounts(ids)).toEqual(ids.map(() => 1));
  }, 120_000);

  it('rejects a planted message that claims the ledger message format and breaks it whole, as ledger-message-invalid, and its log goes on', async () => {
    const log = logs[0]!;
    // The header promises 99 bytes of request and 2 follow: the reader refuses it, nothing in it is a request.
    const corrupt = `{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[{"bytes":99,"intakeMessageId":"planted-1"}]}\n{}`;
    // Sent as a principal the queue admits (the evaluate function's forwarder may send to it).
    const planted = await sendMessage(w.sqs, w.queueUrl('ledger.fifo'), {
      body: corrupt,
      groupId: log,
      deduplicationId: createHash('sha256').update(corrupt).digest('hex'),
    });
    await sendToLog(w, log, [io.request('packed-after-corrupt', 'triage', facts())]);
    expect((await io.entryOf('packed-after-corrupt', 60_000)).logId).toBe(log);
    const rejects = await io.drain(w.queueUrl('rejects'), 1, 30_000);
    expect(rejects.filter((m) => m.body === corrupt).map((m) => m.attributes)).toEqual([
      {
        DocketReason: 'ledger-message-invalid',
        DocketReasonMessage: 'requests[0] runs past the end of the message',
        // No intake message id can be read from it: the reject names the ledger queue message itself.
        OriginalMessageId: planted,
      },
    ]);
    // Nothing of it became an entry or an open omission.
    const verdict = await w.verify();
    expect(verdict.exitCode, verdict.stdout + verdict.stderr).toBe(0);
  }, 120_000);
});
