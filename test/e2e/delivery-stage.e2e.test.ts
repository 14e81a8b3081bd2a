/**
 * The delivery stage under attack and under fault, over the local stack (docs/adr/0404-delivery-stage.md). A writer
 * of the delivery queue who is not the evaluate function can only make recorded entries be delivered again under the
 * same ids: a job naming a seq that holds another request's entry, or none, or that is not a job at all, is
 * dead-lettered with its reason and delivers nothing. A job that was not sent after the append is sent again by the
 * record's redelivery, and the entry is delivered once recorded once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveMessages, sendMessage } from '../../adapters/sqs.js';
import { run as handoffsCli } from '../../cli/commands/handoffs.js';
import { memoryIo } from '../../cli/io.js';
import { rewriteEntryAt } from '../adapters/entry-item-at.js';
import type { DeliveryJobSender } from '../../core/pipeline/batch.js';
import { deliveryJobBytes, type DeliveryJob } from '../../core/pipeline/delivery-job.js';
import { startE2e, type E2eWorld } from './harness.js';
import { ex, handoffs, sleep, worldIo, type WorldIo } from './world-io.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

/** Request ids whose first delivery job is not sent (the send fails after the ledger write). */
const failJobOnce = new Set<string>();
const faults = (s: DeliveryJobSender): DeliveryJobSender => ({
  async send(jobs) {
    if (jobs.some((j) => j.entries.some((e) => failJobOnce.delete(e.requestId))))
      throw new Error('injected: the job was not sent');
    return s.send(jobs);
  },
});

let w: E2eWorld;
let io: WorldIo;

beforeAll(async () => {
  w = await startE2e({ stage: 'e2e-stage', wrapJobs: faults, visibilityTimeout: 2 });
  io = await worldIo(w);
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

const vendor = (id: string): string =>
  io.request(id, 'vendor', ex('requests/vendor-no-match.facts.json'), ex('requests/vendor-certificate.evidence.json'));

/** The job as the evaluate function writes it, sent by someone else. */
async function forge(job: DeliveryJob | string): Promise<void> {
  const body = typeof job === 'string' ? job : deliveryJobBytes(job);
  if (typeof body !== 'string' && !body.ok) throw new Error(body.error.message);
  await sendMessage(w.sqs, w.queueUrl('delivery'), { body: typeof body === 'string' ? body : body.value });
}

/** Waits for `n` dead letters on the delivery DLQ: each job's body and reason. */
async function deadLetters(n: number): Promise<{ body: string; reason: string | undefined }[]> {
  const out: { body: string; reason: string | undefined }[] = [];
  const until = Date.now() + 20_000;
  while (out.length < n && Date.now() < until)
    for (const m of await receiveMessages(w.sqs, w.queueUrl('delivery-dlq'), { waitTimeSeconds: 1 }))
      out.push({ body: m.Body!, reason: m.MessageAttributes?.DocketReason?.StringValue });
  return out;
}

/** The vendor-risk handoffs that arrive within `ms`, by request id. */
async function vendorHandoffs(atLeast: number, ms = 8_000) {
  return handoffs(await io.drain(w.queueUrl('route-vendor-risk'), atLeast, ms));
}

describe('the delivery stage over the local stack', () => {
  it('refuses forged jobs — another request’s seq, an empty seq, not a job — dead-lettering each with its reason and sending nothing', async () => {
    await io.submit(vendor('stage-a'));
    const a = await io.entryOf('stage-a');
    expect((await vendorHandoffs(1)).map((h) => h.requestId)).toEqual(['stage-a']);

    await forge({ logId: a.logId, entries: [{ seq: a.seq, requestId: 'stage-not-a' }] });
    await forge({ logId: a.logId, entries: [{ seq: a.seq + 1000, requestId: 'stage-a' }] });
    await forge('{"format":"docket.delivery-job/1","logId":"x","entries":[],"entries":[]}');
    const dead = await deadLetters(3);
    expect(dead.map((d) => d.reason).sort()).toEqual([
      'delivery-job-invalid',
      'job-names-no-entry',
      'job-names-no-entry',
    ]);
    // Nothing was delivered for any of them: no handoff, no position for the request id the forgery named.
    expect(await vendorHandoffs(0, 3_000)).toEqual([]);
    expect(await findPosition(w.store, 'stage-not-a')).toBeNull();
  }, 60_000);

  it('delivers a replayed job again under the same handoff id and bytes, and records nothing new', async () => {
    await io.submit(vendor('stage-b'));
    const b = await io.entryOf('stage-b');
    const first = await vendorHandoffs(1);
    expect(first.map((h) => h.requestId)).toEqual(['stage-b']);

    await forge({ logId: b.logId, entries: [{ seq: b.seq, requestId: 'stage-b' }] });
    const again = await vendorHandoffs(1);
    expect(again.map((h) => [h.requestId, h.handoffId, h.ledger.entryHash])).toEqual([
      ['stage-b', first[0]!.handoffId, b.entryHash],
    ]);
    let count = 0;
    for await (const e of w.store.readEntries(b.logId, 0)) if (e.projection.requestId === 'stage-b') count += 1;
    expect(count).toBe(1);
  }, 60_000);

  it('sends the job again through the record’s redelivery when its send failed after the append, one entry delivered', async () => {
    failJobOnce.add('stage-c');
    await io.submit(vendor('stage-c'));
    const c = await io.entryOf('stage-c', 30_000);
    expect(failJobOnce.has('stage-c')).toBe(false); // the first send really failed
    const got = await vendorHandoffs(1, 15_000);
    expect(got.map((h) => [h.requestId, h.ledger.entryHash])).toEqual([['stage-c', c.entryHash]]);
    await sleep(500);
    let count = 0;
    for await (const e of w.store.readEntries(c.logId, 0)) if (e.projection.requestId === 'stage-c') count += 1;
    expect(count).toBe(1);
    expect((await w.verify()).exitCode).toBe(0);
  }, 60_000);

  it('refuses a job when a table writer made the entry item’s projection and signed body name different requests', async () => {
    await io.submit(vendor('stage-d'));
    const d = await io.entryOf('stage-d');
    expect((await vendorHandoffs(1)).map((h) => h.requestId)).toEqual(['stage-d']);
    const table = w.env.LEDGER_TABLE!;
    const project = (requestId: string) =>
      rewriteEntryAt(w.dynamodb, table, d.logId, d.seq, (a) => ({ ...a, requestId: { S: requestId } }));
    await project('stage-z');
    // Named as the projection now says: only the signed body tells. Named as the body says: only the projection does.
    await forge({ logId: d.logId, entries: [{ seq: d.seq, requestId: 'stage-z' }] });
    await forge({ logId: d.logId, entries: [{ seq: d.seq, requestId: 'stage-d' }] });
    const dead = await deadLetters(2);
    expect(dead.map((x) => x.reason)).toEqual(['job-names-no-entry', 'job-names-no-entry']);
    expect(await vendorHandoffs(0, 3_000)).toEqual([]);
    expect(await findPosition(w.store, 'stage-z')).toBeNull();
    await project('stage-d');
  }, 60_000);

  it('docket handoffs shows a replayed job’s re-sent handoff once across runs, remembering what it printed in --seen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-seen-'));
    try {
      await io.submit(vendor('stage-e'));
      const e = await io.entryOf('stage-e');
      const consume = async (seen: string) => {
        const cli = memoryIo();
        const flags = ['--policy', w.policyPath, '--routes', w.routesPath, '--seen', seen, '--wait', '2'];
        const stack = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', 'e2e-stage'];
        const code = await handoffsCli(['--route', 'vendor-risk', ...flags, ...stack], cli);
        return { code, ids: [...cli.out().matchAll(/^handoff (\S+)/gm)].map((m) => m[1]), err: cli.err() };
      };
      const replay = () => forge({ logId: e.logId, entries: [{ seq: e.seq, requestId: 'stage-e' }] });
      const seen = join(dir, 'seen.json');
      const first = await consume(seen);
      expect(first.code).toBe(0);
      expect(first.ids).toHaveLength(1);
      // A replayed job re-sends the same handoff; a later run remembers it and acknowledges it unprinted.
      await replay();
      await sleep(1_000);
      const second = await consume(seen);
      expect([second.code, second.ids]).toEqual([0, []]);
      expect(second.err).toContain('0 handoffs verified and received and acknowledged');
      expect(second.err).toContain('1 repeat acknowledged');
      // The memory is what hides it: a consumer with another file shows it again.
      await replay();
      await sleep(1_000);
      expect((await consume(join(dir, 'other.json'))).ids).toEqual(first.ids);
      expect(await vendorHandoffs(0, 1_000)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
