import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selectLog } from '../../core/ledger/write/log-selection.js';
import { handleBatch, type BatchRecord } from '../../core/pipeline/batch.js';
import type { ProcessOutcome } from '../../core/pipeline/process-request.js';
import { forwardDeduplicationId, sequenceMessage } from '../../core/pipeline/sequencing.js';
import { ledgerMessageBytes } from '../../core/pipeline/ledger-message.js';

const LOGS = ['log-0', 'log-1', 'log-2', 'log-3'];
const request = (id: string): string =>
  `{"format":"docket.request/1","requestId":${JSON.stringify(id)},"pack":"sha256:${'b'.repeat(64)}","facts":{"n":1}}`;
const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
/** A ledger message of these request bodies, as the sequence function packs an intake batch. */
const message = (...bodies: string[]): string => {
  const b = ledgerMessageBytes(bodies.map((body, i) => ({ body, intakeMessageId: `intake-${i}` })));
  if (!b.ok) throw new Error(b.error.message);
  return b.value;
};

describe('the sequencer decides each ledger message a log group and a deduplication id', () => {
  it('sends a message to the group of the log selectLog picks for the message digest, reading no request', () => {
    for (const m of [message(request('req-1')), message(request('a'), request('b')), message('not json'), 'x']) {
      const s = sequenceMessage(m, LOGS);
      expect(s.groupId).toBe(selectLog(sha(m), LOGS));
      expect(LOGS).toContain(s.groupId);
    }
  });

  it('spreads messages over every configured log', () => {
    const groups = new Set(
      Array.from({ length: 64 }, (_, i) => sequenceMessage(message(request(`r-${i}`)), LOGS).groupId),
    );
    expect([...groups].sort()).toEqual(LOGS);
  });

  it('deduplicates by the SHA-256 of the exact message, so a re-sent copy is one message and other bytes are not', () => {
    const m = message(request('same'), request('other'));
    expect(sequenceMessage(m, LOGS).deduplicationId).toBe(sha(m));
    expect(sequenceMessage(m, LOGS).deduplicationId).toMatch(/^[0-9a-f]{64}$/);
    const reordered = message(request('other'), request('same'));
    expect(sequenceMessage(reordered, LOGS).deduplicationId).toBe(sha(reordered));
    expect(sequenceMessage(reordered, LOGS).deduplicationId).not.toBe(sha(m));
  });

  it('sends a message carrying unidentifiable requests to a configured log too, where the evaluate function rejects them', () => {
    for (const body of ['not json', '{}', '{"requestId":"has spaces"}', '[1,2]', ''])
      expect(LOGS).toContain(sequenceMessage(message(body), LOGS).groupId);
  });

  it('gives a forward to another log a deduplication id of its own, the same for every copy of that forward', () => {
    const m = message(request('moved'));
    const a = forwardDeduplicationId(m, 'log-1');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(forwardDeduplicationId(m, 'log-1'));
    expect(a).not.toBe(forwardDeduplicationId(m, 'log-2'));
    expect(a).not.toBe(sequenceMessage(m, LOGS).deduplicationId);
    expect(a).not.toBe(forwardDeduplicationId(message(request('moved-too')), 'log-1'));
  });

  it('gives the same decision for the same message forever, whatever the order the logs are configured in', () => {
    const m = message(request('stable'));
    expect(sequenceMessage(m, ['b', 'a'])).toEqual(sequenceMessage(m, ['a', 'b']));
    expect(sequenceMessage(m, LOGS)).toEqual({ groupId: selectLog(sha(m), LOGS), deduplicationId: sha(m) });
  });
});

// ---- the FIFO partial-batch rule of handleBatch ----

const recorded = (id: string): ProcessOutcome => ({
  status: 'recorded',
  created: true,
  requestId: id,
  kind: 'disposition',
  logId: 'log',
  seq: 0,
  entryHash: 'h',
  packDigest: null,
  work: 0,
});

function fifoBatch(spec: readonly [group: string, fails: boolean][]): BatchRecord[] {
  return spec.map(([groupId, fails], i) => ({ messageId: `m${i}`, body: fails ? 'fail' : 'ok', groupId }));
}

async function run(records: BatchRecord[], delays: Record<string, number> = {}) {
  const order: string[] = [];
  const res = await handleBatch(records, {
    jobs: { send: async () => ({ failed: [] }) },
    process: async (bytes, record) => {
      order.push(record.messageId);
      await new Promise((r) => setTimeout(r, delays[record.messageId] ?? 0));
      if (new TextDecoder().decode(bytes) === 'fail') throw new Error('store down');
      return recorded(record.messageId);
    },
    deadLetter: async () => undefined,
  });
  return { failed: res.batchItemFailures.map((f) => f.itemIdentifier), order };
}

describe('a batch from the FIFO ledger queue', () => {
  it('reports the first failed record and every later record of the batch failed, whatever their group', async () => {
    const r = await run(
      fifoBatch([
        ['log-a', false],
        ['log-b', false],
        ['log-a', true],
        ['log-b', false],
        ['log-c', false],
      ]),
    );
    expect(r.failed).toEqual(['m2', 'm3', 'm4']);
  });

  it('runs the records of one group concurrently and still reports from the first failure on', async () => {
    // Only the slot write must be serial, and the writer's group commit does that (ADR 0274, ADR 0350): a group's later
    // records are processed meanwhile, and redelivered as duplicates when an earlier one failed.
    const r = await run(
      fifoBatch([
        ['log-a', true],
        ['log-a', false],
        ['log-a', false],
      ]),
      { m0: 20 },
    );
    expect([...r.order].sort()).toEqual(['m0', 'm1', 'm2']);
    expect(r.failed).toEqual(['m0', 'm1', 'm2']);
  });

  it('reports only what follows the first failure: a failure after successes keeps the earlier ones', async () => {
    const r = await run(
      fifoBatch([
        ['log-a', false],
        ['log-a', false],
        ['log-a', true],
        ['log-a', false],
      ]),
      { m0: 15, m1: 5 },
    );
    expect(r.failed).toEqual(['m2', 'm3']);
  });

  it('reports nothing when every record succeeds', async () => {
    expect(
      (
        await run(
          fifoBatch([
            ['g', false],
            ['h', false],
          ]),
        )
      ).failed,
    ).toEqual([]);
  });
});
