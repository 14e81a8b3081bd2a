/**
 * The evaluate and deliver functions log and count once per batch what the ledger already holds per record
 * (docs/adr/0502-log-volume-measured-and-cut.md): one line per log naming the seqs recorded, one per delivery job
 * naming its seqs, and each count as one EMF line per dimension value carrying the batch's sum — what the alarms and
 * the dashboard read with the Sum statistic and `docket bench live` reads back (cli/bench/emf-metrics.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emfSamples, type MetricSample } from '../../cli/bench/emf-metrics.js';
import { triage } from './example-requests-fixture.js';
import { jobBody, observedRuntimes, printedWhile, sqsEvent as event } from './observed-runtimes-fixture.js';

const LOG = 'prod-0';

/** The lines printed while `run` runs. */
const printed = async (run: () => Promise<unknown>): Promise<string[]> =>
  (await printedWhile(run)).split('\n').filter(Boolean);
const stage = () => observedRuntimes(LOG);

const messages = (lines: string[], message: string) =>
  lines.filter((l) => l.startsWith('{') && JSON.parse(l).message === message).map((l) => JSON.parse(l));
const samples = (lines: string[], name: string): MetricSample[] =>
  emfSamples(lines.join('\n'), 'Docket').filter((s) => s.name === name);

afterEach(() => vi.restoreAllMocks());

describe('the evaluate function, once per batch', () => {
  it('logs one line naming the seqs ten new entries took, and counts them in one line per metric and dimension', async () => {
    const s = stage();
    const ids = Array.from({ length: 10 }, () => `req-${randomUUID()}`);
    const lines = await printed(() => s.evaluate.handle(event(ids.map(triage), LOG)));
    expect(messages(lines, 'entries recorded')).toEqual([
      expect.objectContaining({ logId: LOG, seqs: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], outcomes: { disposition: 10 } }),
    ]);
    // No line per record: the request ids are the ledger's to tell (docket show).
    for (const id of ids) expect(lines.join('\n')).not.toContain(id);
    expect(samples(lines, 'Appends')).toEqual([
      expect.objectContaining({ values: [10], dimensions: { service: 'docket-evaluate', logId: LOG } }),
    ]);
    expect(samples(lines, 'Evaluations')).toEqual([
      expect.objectContaining({ values: [10], dimensions: { service: 'docket-evaluate', kind: 'disposition' } }),
    ]);
    // The next batch counts from zero.
    const next = await printed(() => s.evaluate.handle(event([triage(`req-${randomUUID()}`)], LOG)));
    expect(samples(next, 'Appends').map((x) => x.values)).toEqual([[1]]);
    expect(messages(next, 'entries recorded').map((l) => l.seqs)).toEqual([[10]]);
  });

  it('keeps a line of its own for a duplicate delivery, which the ledger does not show', async () => {
    const s = stage();
    const body = triage('req-once');
    await printed(() => s.evaluate.handle(event([body], LOG)));
    const again = await printed(() => s.evaluate.handle(event([body], LOG)));
    expect(messages(again, 'duplicate delivery: entry already recorded')).toEqual([
      expect.objectContaining({ requestId: 'req-once', logId: LOG, seq: 0 }),
    ]);
    expect(messages(again, 'entries recorded')).toEqual([]);
    expect(samples(again, 'DuplicateDeliveries').map((x) => x.values)).toEqual([[1]]);
    expect(samples(again, 'Appends')).toEqual([]);
  });
});

describe('the deliver function, once per batch', () => {
  it('logs one line per job naming its seqs and handoffs, and counts handoffs by route as the batch sent them', async () => {
    const s = stage();
    await printed(() =>
      s.evaluate.handle(
        event(
          Array.from({ length: 10 }, () => triage(`req-${randomUUID()}`)),
          LOG,
        ),
      ),
    );
    const lines = await printed(() => s.deliver.handle(event([jobBody(s.jobs[0]!)])));
    expect(s.sent.length).toBeGreaterThan(10);
    expect(messages(lines, 'delivery job delivered')).toEqual([
      expect.objectContaining({ logId: LOG, seqs: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], handoffs: s.sent.length }),
    ]);
    for (const id of s.sent) expect(lines.join('\n')).not.toContain(id);
    const handoffs = samples(lines, 'Handoffs');
    // One line per route, each the route's sum: together every handoff sent.
    expect(new Set(handoffs.map((h) => h.dimensions.route)).size).toBe(handoffs.length);
    expect(handoffs.reduce((a, h) => a + h.values.reduce((x, y) => x + y, 0), 0)).toBe(s.sent.length);
  });
});
