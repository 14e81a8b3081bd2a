import { describe, expect, it } from 'vitest';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import {
  outcomeLine,
  replayLedger,
  ReplayTally,
  summaryLine,
  type ReplayOutcome,
  type ReplaySelection,
} from '../../core/replay/index.js';
import type { LedgerStore } from '../../core/ledger/store/store.js';
import { request, world, type World } from './world.js';

const VENDOR = 'vendor-onboarding-target.json';

/** The counts of a finished run, as a streaming caller's tally gives them. */
function summarize(outcomes: readonly ReplayOutcome[]) {
  const t = new ReplayTally();
  for (const o of outcomes) t.add(o);
  return t.summary();
}

async function collect(store: LedgerStore, selection: ReplaySelection, w: World): Promise<ReplayOutcome[]> {
  const out: ReplayOutcome[] = [];
  for await (const o of replayLedger(store, selection, w.options())) out.push(o);
  return out;
}

/** Ten requests through the pipeline with one log, so sequence numbers are 0..9 on t-0. */
async function tenOnOneLog() {
  const w = world({ logIds: ['t-0'] });
  const d = w.publish(VENDOR);
  for (let i = 0; i < 10; i++) {
    const facts = `{"vendor":{"riskScore":"${i * 10}","sanctioned":${i % 3 === 0}}}`;
    await w.submit(
      request(`n-${i}`, `sha256:${d}`, facts, i % 2 === 0 ? ',"evidence":{"tax-certificate":"present"}' : ''),
    );
  }
  return w;
}

describe('replaying a range, a log, the whole ledger', () => {
  it('replays exactly the entries of an inclusive range, in sequence order', async () => {
    const w = await tenOnOneLog();
    const out = await collect(w.store, { kind: 'range', logId: 't-0', fromSeq: 3, toSeq: 6 }, w);
    expect(out.map((o) => [o.seq, o.requestId, o.result])).toEqual([
      [3, 'n-3', 'replay-match'],
      [4, 'n-4', 'replay-match'],
      [5, 'n-5', 'replay-match'],
      [6, 'n-6', 'replay-match'],
    ]);
  });

  it('replays a whole log and the whole ledger across logs, every entry matching', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    for (let i = 0; i < 8; i++)
      await w.submit(request(`a-${i}`, `sha256:${d}`, `{"vendor":{"riskScore":"${i * 7}","sanctioned":false}}`));
    const all = await collect(w.store, { kind: 'all' }, w);
    expect(all.length).toBe(8);
    expect(all.every((o) => o.result === 'replay-match')).toBe(true);
    const logs = [...new Set(all.map((o) => o.logId ?? ''))];
    expect(logs).toEqual([...logs].sort());
    const perLog = await Promise.all(logs.map((logId) => collect(w.store, { kind: 'log', logId }, w)));
    expect(perLog.flat().map((o) => `${o.logId}/${o.seq}`)).toEqual(all.map((o) => `${o.logId}/${o.seq}`));
    expect(summarize(all)).toEqual({ entries: 8, match: 8, mismatch: 0, notReplayable: 0, reasons: {}, ok: true });
  });

  it('replays one entry by position or by request id, and reports an absent one as entry-absent', async () => {
    const w = await tenOnOneLog();
    const byPos = await collect(w.store, { kind: 'entry', logId: 't-0', seq: 7 }, w);
    expect(byPos.map((o) => [o.requestId, o.result])).toEqual([['n-7', 'replay-match']]);
    const byId = await collect(w.store, { kind: 'request', requestId: 'n-2' }, w);
    expect(byId.map((o) => [o.seq, o.result])).toEqual([[2, 'replay-match']]);
    const none = await collect(w.store, { kind: 'entry', logId: 't-0', seq: 99 }, w);
    expect(none.map((o) => [o.result, o.reason])).toEqual([['not-replayable', 'entry-absent']]);
    const unknown = await collect(w.store, { kind: 'request', requestId: 'nobody' }, w);
    expect(unknown.map((o) => [o.logId, o.seq, o.requestId, o.reason])).toEqual([
      [null, null, 'nobody', 'entry-absent'],
    ]);
  });

  it('reports a gap inside a log as entry-absent rather than skipping it', async () => {
    const w = await tenOnOneLog();
    const holed = new MemoryLedgerStore();
    for await (const e of w.store.readEntries('t-0', 0)) if (e.seq !== 4) await holed.putEntryIfAbsent(e);
    const out = await collect(holed, { kind: 'log', logId: 't-0' }, w);
    expect(out.length).toBe(10);
    expect(out[4]).toMatchObject({ seq: 4, result: 'not-replayable', reason: 'entry-absent' });
    // Replay judges each entry on its own; the broken chain is `docket verify`'s finding.
    expect(out.filter((o) => o.result === 'replay-match').length).toBe(9);
  });

  it('summarizes a mixed run with counts per reason and is not ok unless every entry matched', async () => {
    const w = await tenOnOneLog();
    const purged: string[] = [];
    for await (const e of w.store.readEntries('t-0', 0, 1)) {
      const digest = JSON.parse(e.body).requestDigest as string;
      w.archive.delete(digest);
      purged.push(digest);
    }
    const out = await collect(w.store, { kind: 'log', logId: 't-0' }, w);
    const s = summarize(out);
    expect(s).toEqual({
      entries: 10,
      match: 8,
      mismatch: 0,
      notReplayable: 2,
      reasons: { 'request-purged': 2 },
      ok: false,
    });
    expect(summarize([]).ok).toBe(false);
  });

  it('prints the same lines on every run over the same ledger', async () => {
    const w = await tenOnOneLog();
    const a = (await collect(w.store, { kind: 'all' }, w)).map(outcomeLine).join('');
    const b = (await collect(w.store, { kind: 'all' }, w)).map(outcomeLine).join('');
    expect(a.split('\n').length).toBe(11);
    expect(b).toBe(a);
  });

  it('writes one JSON line per entry with members in a fixed order, then a summary line', async () => {
    const w = await tenOnOneLog();
    const [o] = await collect(w.store, { kind: 'entry', logId: 't-0', seq: 0 }, w);
    const line = outcomeLine(o!);
    expect(line.endsWith('\n')).toBe(true);
    expect(Object.keys(JSON.parse(line))).toEqual([
      'logId',
      'seq',
      'requestId',
      'kind',
      'entryHash',
      'result',
      'work',
      'evaluator',
    ]);
    expect(JSON.parse(summaryLine(summarize([o!])))).toEqual({
      summary: { entries: 1, match: 1, mismatch: 0, notReplayable: 0, reasons: {}, ok: true },
    });
  });
});
