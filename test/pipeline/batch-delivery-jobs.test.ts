/**
 * A batch under the delivery stage (core/pipeline/batch.ts, `deps.jobs`): it delivers nothing itself; it names the
 * entries it recorded in one delivery job per log and sends them before answering, and a record whose job was not
 * sent fails and is redelivered (with every record after it: AWS's FIFO partial-batch rule).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { handleBatch, type BatchRecord, type DeliveryJobSender } from '../../core/pipeline/batch.js';
import { deliveryJobBytes, type DeliveryJob } from '../../core/pipeline/delivery-job.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import { processRequest } from '../../core/pipeline/process-request.js';
import { testPipelineConfig } from './pipeline-config-fixture.js';

const ex = (p: string) => readFileSync(new URL(`../../examples/${p}`, import.meta.url), 'utf8');
const hex = (b: string) => createHash('sha256').update(b).digest('hex');
const TRIAGE = ex('data-request-intake-triage.json');
const triage = (id: string) =>
  `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${hex(TRIAGE)}","facts":${ex('requests/triage-complete-appropriate.facts.json').trim()},"evidence":${ex('requests/triage-instance-7b.evidence.json').trim()}}`;

function world(logIds: string[]) {
  const store = new MemoryLedgerStore();
  const config = testPipelineConfig(logIds);
  const writer = ledgerWriter({
    store,
    signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(3))),
    logIds,
    now: () => '2026-12-04T18:00:00Z',
  });
  const packs = cachedPackSource({
    getPack: async (d: string) => (d === hex(TRIAGE) ? new TextEncoder().encode(TRIAGE) : null),
    resolveAlias: async () => null,
  });
  const events: string[] = [];
  const run = (records: BatchRecord[], jobs: DeliveryJobSender) =>
    handleBatch(records, {
      process: (bytes, r) =>
        processRequest(bytes, config, {
          packs,
          archive: { put: async () => undefined },
          ledger: writer.forLog(r.groupId ?? logIds[0]!),
        }),
      deadLetter: async (r) => void events.push(`deadLetter ${r.messageId}`),
      jobs,
      observer: {
        outcome: (r) => events.push(`outcome ${r.messageId}`),
        failure: (r) => events.push(`failure ${r.messageId}`),
      },
    });
  return { store, run, events };
}

const recording = (fail: (job: DeliveryJob) => string | undefined = () => undefined) => {
  const sent: DeliveryJob[][] = [];
  const sender: DeliveryJobSender = {
    async send(jobs) {
      sent.push([...jobs]);
      return {
        failed: jobs.flatMap((j, index) => {
          const reason = fail(j);
          return reason === undefined ? [] : [{ index, reason }];
        }),
      };
    },
  };
  return { sent, sender };
};

describe('a batch under the delivery stage', () => {
  it('names every recorded entry in one job per log, in seq order, sent once before the outcomes are reported', async () => {
    const w = world(['j-0', 'j-1']);
    const r = recording();
    const records = ['a', 'b', 'c', 'd'].map((x, i) => ({
      messageId: x,
      body: triage(`q-${x}`),
      groupId: `j-${i % 2}`,
    }));
    expect(await w.run(records, r.sender)).toEqual({ batchItemFailures: [] });
    expect(r.sent).toHaveLength(1);
    const jobs = r.sent[0]!;
    // Every recorded entry named once, at its place in its log.
    const named = jobs.flatMap((j) => j.entries.map((e) => `${j.logId}/${e.seq} ${e.requestId}`)).sort();
    const stored: string[] = [];
    for (const log of ['j-0', 'j-1'])
      for await (const e of w.store.readEntries(log, 0)) stored.push(`${log}/${e.seq} ${e.projection.requestId}`);
    expect(named).toEqual(stored.sort());
    expect(new Set(jobs.map((j) => j.logId)).size).toBe(jobs.length);
    for (const j of jobs) expect(deliveryJobBytes(j).ok).toBe(true); // each a valid job: ascending, distinct
    expect(w.events).toEqual(records.map((x) => `outcome ${x.messageId}`));
  });

  it('names a request sent twice in one batch once, and fails both of its records if its job is not sent', async () => {
    const w = world(['k-0']);
    const r = recording(() => 'SQS said no');
    const records = [
      { messageId: 'm1', body: triage('twice') },
      { messageId: 'm2', body: triage('twice') },
      { messageId: 'm3', body: triage('once') },
    ];
    const answer = await w.run(records, r.sender);
    expect(r.sent[0]!.flatMap((j) => j.entries.map((e) => e.requestId)).sort()).toEqual(['once', 'twice']);
    expect(answer.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m1', 'm2', 'm3']);
    expect(w.events.filter((e) => e.startsWith('failure')).sort()).toEqual(['failure m1', 'failure m2', 'failure m3']);
  });

  it('fails the records of the job that was not sent (and those after them), and all of them when the sender throws', async () => {
    const w = world(['p-0', 'p-1']);
    const r = recording((j) => (j.logId === 'p-1' ? 'throttled' : undefined));
    const records = ['a', 'b', 'c', 'd'].map((x, i) => ({
      messageId: x,
      body: triage(`s-${x}`),
      groupId: `p-${i >> 1}`,
    }));
    const answer = await w.run(records, r.sender);
    const inP1 = new Set<string>();
    for await (const e of w.store.readEntries('p-1', 0)) inP1.add(e.projection.requestId);
    expect(inP1.size).toBeGreaterThan(0);
    expect(answer.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      records.filter((x) => inP1.has(`s-${x.messageId}`)).map((x) => x.messageId),
    );
    const thrower: DeliveryJobSender = { send: () => Promise.reject(new Error('no network')) };
    const again = await w.run(records, thrower);
    expect(again.batchItemFailures).toHaveLength(records.length);
  });

  it('sends no job for a batch that recorded nothing', async () => {
    const w = world(['z-0']);
    const r = recording();
    expect(await w.run([{ messageId: 'x', body: 'not json' }], r.sender)).toEqual({ batchItemFailures: [] });
    expect(r.sent).toEqual([]);
    expect(w.events).toEqual(['deadLetter x', 'outcome x']);
  });
});
