/**
 * One writer per log over the local stack (docs/adr/0270-one-writer-per-log.md): the real sequence runtime packs
 * intake messages into ledger messages, each under the message group of a log (docs/adr/0497-a-ledger-message-carries-
 * many-requests.md), the real evaluate runtime writes each group to its log only, forwards a claim naming another log,
 * and refuses a log whose head moved backwards.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteEntryItemAt } from '../adapters/entry-item-at.js';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { entriesOfItem } from '../../adapters/ledger-entry-item.js';
import { sendMessage, sendMessages } from '../../adapters/sqs.js';
import { sequenceMessage } from '../../core/pipeline/index.js';
import { startE2e, type E2eWorld } from './harness.js';
import { ledgerMessageOf, sendToLog, watchLedgerQueue } from './ledger-queue.js';
import { ex, sleep, worldIo, type WorldIo } from './world-io.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

let w: E2eWorld;
let io: WorldIo;
let logs: string[];
const facts = () => ex('requests/triage-complete-appropriate.facts.json');
const watch = watchLedgerQueue();

beforeAll(async () => {
  w = await startE2e({ stage: 'fifo', visibilityTimeout: 2, wrapHandler: watch.wrapHandler });
  io = await worldIo(w);
  logs = JSON.parse(w.env.LOG_IDS!) as string[];
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

describe('one writer per log over the local stack', () => {
  it('provisions the ledger queue from the template as a FIFO queue without content-based deduplication', async () => {
    const a = await w.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: w.queueUrl('ledger.fifo'), AttributeNames: ['All'] }),
    );
    expect(a.Attributes?.FifoQueue).toBe('true');
    expect(a.Attributes?.ContentBasedDeduplication ?? 'false').toBe('false');
  });

  it('records each request sent to the intake queue in the log its message group names', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `fifo-route-${i}`);
    for (const id of ids) await io.submit(io.request(id, 'triage', facts()));
    for (const id of ids) {
      const { logId } = await io.entryOf(id, 30_000);
      const carriers = watch.carriersOf(id);
      expect(carriers.length).toBeGreaterThan(0);
      // Every delivery of it came in the group of the log it is recorded in, the group the sequence function gives
      // the ledger message that carries it (its digest's log: any log is correct, the claim fixes it, ADR 0160).
      for (const m of carriers) expect([m.groupId, sequenceMessage(m.body, logs).groupId]).toEqual([logId, logId]);
    }
  }, 60_000);

  it('writes a FIFO batch of one log as one bundle item, which every reader reads as its entries', async () => {
    const log = logs[3]!;
    const ids = Array.from({ length: 10 }, (_, i) => `fifo-bundle-${i}`);
    // Ten ledger messages of one group put on the ledger queue in one call: its consumer takes them as one batch.
    await sendMessages(
      w.sqs,
      w.queueUrl('ledger.fifo'),
      ids.map((id) => {
        const { message } = ledgerMessageOf([io.request(id, 'triage', facts())]);
        return { body: message, groupId: log, deduplicationId: sequenceMessage(message, [log]).deduplicationId };
      }),
    );
    const entries = await Promise.all(ids.map((id) => io.entryOf(id, 30_000)));
    const items = await w.dynamodb.send(
      new QueryCommand({
        TableName: w.env.LEDGER_TABLE!,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: `log#${log}` } },
        ConsistentRead: true,
      }),
    );
    // A bundle in the layout written since ADR 0476: its members as one compressed stream.
    const bundles = (items.Items ?? []).filter((i) => i.entriesz?.B !== undefined);
    expect(bundles.length).toBeGreaterThan(0);
    const held = bundles.flatMap(entriesOfItem).map((e) => e.projection.requestId);
    expect(held.some((id) => ids.includes(id))).toBe(true);
    // Each request's position names its entry, read back alone from inside the bundle; verify judges them all.
    expect(entries.map((e) => e.entry.requestId)).toEqual(ids);
    expect(new Set(entries.map((e) => e.seq)).size).toBe(ids.length);
    const verdict = await w.verify();
    expect(verdict.exitCode, verdict.stdout + verdict.stderr).toBe(0);
  }, 60_000);

  it('rejects a body with no readable request id to the rejects queue, naming the message the requester sent', async () => {
    const messageId = await sendMessage(w.sqs, w.queueUrl('intake'), { body: 'not a request at all' });
    const dead = await io.drain(w.queueUrl('rejects'), 1, 20_000);
    const mine = dead.find((d) => d.body === 'not a request at all');
    expect(mine?.attributes.OriginalMessageId).toBe(messageId);
    expect(mine?.attributes.DocketReason).toBeTruthy();
  }, 30_000);

  it('forwards a request whose claim names another log to that log, and records it there once', async () => {
    const [home, claimed] = [logs[0]!, logs[1]!];
    const id = 'fifo-moved';
    const body = io.request(id, 'triage', facts());
    const head = await w.store.readHead(claimed);
    // A claim left by a first delivery under another log configuration, which died before its slot.
    await w.store.putClaimIfAbsent({
      requestId: id,
      logId: claimed,
      requestDigest: createHash('sha256').update(body, 'utf8').digest('hex'),
      headBefore: head === null ? -1 : head.seq,
    });
    // Sent, as the sequence function may, in a ledger message under a log other than the claim's.
    const sent = await sendToLog(w, home, [body]);
    const e = await io.entryOf(id, 30_000);
    expect(e.logId).toBe(claimed);
    // Handed first under its home group, then forwarded under the claimed log's as a ledger message of its own that
    // still names the message the requester sent.
    const carriers = watch.carriersOf(id);
    expect([...new Set(carriers.map((m) => m.groupId))]).toEqual([home, claimed]);
    for (const m of carriers)
      expect(m.requests!.map((q) => q.intakeMessageId)).toEqual([sent.requests[0]!.intakeMessageId]);
    let copies = 0;
    for (const log of logs)
      for await (const x of w.store.readEntries(log, 0)) if (x.projection.requestId === id) copies++;
    expect(copies).toBe(1);
    const verdict = await w.verify();
    expect(verdict.exitCode, verdict.stdout + verdict.stderr).toBe(0);
  }, 90_000);

  it('rejects a request whose id a keyless table writer claimed first under other bytes, and verify reports it', async () => {
    // The claim is made before the evaluation (ADR 0402); a squatted id must still end as the requester's clear
    // refusal on the rejects queue (ADR 0492), never as an entry under the planted digest.
    const id = 'fifo-squatted';
    const body = io.request(id, 'triage', facts());
    await w.store.putClaimIfAbsent({ requestId: id, logId: logs[0]!, requestDigest: 'f'.repeat(64), headBefore: -1 });
    await io.submit(body);
    const dead = (await io.drain(w.queueUrl('rejects'), 1, 30_000)).find((d) => d.body === body);
    expect(dead?.attributes.DocketReason).toBe('request-id-reused');
    for (const log of logs)
      for await (const x of w.store.readEntries(log, 0)) expect(x.projection.requestId).not.toBe(id);
    // The function's reject is not SQS's redrive, so it excuses nothing (ADR 0455): an accepted request has no entry.
    const after = await w.verify();
    expect(after.exitCode).not.toBe(0);
    expect(after.stdout).toContain('"code":"request-without-entry","requestId":"' + id + '"');
  }, 90_000);

  // Last: it damages the ledger on purpose.
  it('refuses to write a log whose newest entry was deleted from under its writer', async () => {
    const first = 'fifo-before';
    await io.submit(io.request(first, 'triage', facts()));
    const written = await io.entryOf(first, 30_000);
    const log = written.logId;
    // The item holding it goes (with a bundle, the entries written with it too).
    const firstDeleted = await deleteEntryItemAt(w.dynamodb, w.env.LEDGER_TABLE!, log, written.seq);
    // The next request for that log, in a ledger message under its group (the sequence function's pick is the
    // message digest's log; the test needs this one).
    const next = 'fifo-after';
    await sendToLog(w, log, [io.request(next, 'triage', facts())]);
    // Several visibility timeouts (2 s): every delivery is refused, nothing is written into the hole.
    await sleep(8_000);
    expect(await findPosition(w.store, next)).toBeNull();
    expect((await w.store.readHead(log))?.seq ?? -1).toBe(firstDeleted - 1);
    // Other logs keep being written.
    const elsewhere = logs.find((l) => l !== log)!;
    const other = 'fifo-elsewhere';
    await sendToLog(w, elsewhere, [io.request(other, 'triage', facts())]);
    expect((await io.entryOf(other, 30_000)).logId).toBe(elsewhere);
  }, 90_000);
});
