import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selectLog } from '../../core/ledger/write/log-selection.js';
import { handleBatch, type BatchRecord } from '../../core/pipeline/batch.js';
import type { ProcessOutcome } from '../../core/pipeline/process-request.js';
import { forwardDeduplicationId, sequenceMessage, UNIDENTIFIED_GROUP_PREFIX } from '../../core/pipeline/sequencing.js';

const LOGS = ['log-0', 'log-1', 'log-2', 'log-3'];
const request = (id: string): string =>
  `{"format":"docket.request/1","requestId":${JSON.stringify(id)},"pack":"sha256:${'b'.repeat(64)}","facts":{"n":1}}`;
const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

describe('the sequencer decides each intake message a log group and a deduplication id', () => {
  it('sends a request to the group of the log selectLog picks for its id', () => {
    for (const id of ['req-1', 'req-2', 'req-3', 'another-request', 'z']) {
      const s = sequenceMessage(request(id), 'm-1', LOGS);
      expect(s.groupId).toBe(selectLog(id, LOGS));
    }
  });

  it('spreads requests over every configured log', () => {
    const groups = new Set(Array.from({ length: 64 }, (_, i) => sequenceMessage(request(`r-${i}`), 'm', LOGS).groupId));
    expect([...groups].sort()).toEqual(LOGS);
  });

  it('deduplicates by the SHA-256 of the exact body, so a re-sent copy is one message and other bytes are not', () => {
    const body = request('same');
    expect(sequenceMessage(body, 'm-1', LOGS).deduplicationId).toBe(sha(body));
    expect(sequenceMessage(body, 'm-2', LOGS).deduplicationId).toBe(sha(body));
    const spaced = body.replace('{"n":1}', '{"n": 1}');
    expect(sequenceMessage(spaced, 'm-1', LOGS).deduplicationId).not.toBe(sha(body));
    expect(sequenceMessage(spaced, 'm-1', LOGS).groupId).toBe(sequenceMessage(body, 'm-1', LOGS).groupId);
  });

  it('routes an invalid request that still has a readable id to its log, where it is recorded as a refusal', () => {
    const body = `{"format":"docket.request/1","requestId":"bad-one","pack":42,"facts":{}}`;
    expect(sequenceMessage(body, 'm', LOGS).groupId).toBe(selectLog('bad-one', LOGS));
  });

  it('routes a graph request whose inputs are not strict JSON to its log by its id, as the evaluate function reads it', () => {
    const body = '{"format":"docket.graph-request/1","requestId":"g-dup","graph":"a@1.0.0","inputs":{"x":{},"x":{}}}';
    expect(sequenceMessage(body, 'm-1', LOGS).groupId).toBe(selectLog('g-dup', LOGS));
  });

  it('sends a body with no readable request id to an unidentified group derived from its message id, never a log', () => {
    for (const body of ['not json', '{}', '{"requestId":"has spaces"}', '[1,2]', '']) {
      const a = sequenceMessage(body, 'message-a', LOGS);
      const b = sequenceMessage(body, 'message-b', LOGS);
      expect(a.groupId.startsWith(UNIDENTIFIED_GROUP_PREFIX)).toBe(true);
      expect(a.groupId).not.toBe(b.groupId);
      expect(LOGS).not.toContain(a.groupId);
      // SQS: a group id is at most 128 characters of alphanumerics and punctuation.
      expect(a.groupId).toMatch(/^[\x21-\x7e]{1,128}$/);
      expect(a.deduplicationId).toBe(sha(body));
    }
  });

  it('gives a forward to another log a deduplication id of its own, the same for every copy of that forward', () => {
    const body = request('moved');
    const a = forwardDeduplicationId(body, 'log-1');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(forwardDeduplicationId(body, 'log-1'));
    expect(a).not.toBe(forwardDeduplicationId(body, 'log-2'));
    expect(a).not.toBe(sequenceMessage(body, 'm', LOGS).deduplicationId);
  });

  it('gives the same decision for the same message forever', () => {
    expect(sequenceMessage(request('stable'), 'mid', ['b', 'a'])).toEqual(
      sequenceMessage(request('stable'), 'mid', ['a', 'b']),
    );
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
