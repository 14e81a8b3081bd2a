import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run, type ReplayDeps } from '../../cli/commands/replay.js';
import { StoreReadError, type LedgerStore } from '../../core/ledger/store/store.js';
import { BUILD, request, world, writePolicyFile, type World } from './world.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function policyFile(w: World): string {
  return writePolicyFile(w, join(dir, `policy-${Math.random().toString(36).slice(2)}.json`));
}

const deps = (w: World, store: LedgerStore = w.store): ReplayDeps => ({
  open: () => ({ store, fetch: w.fetch, close: () => undefined }),
  buildDigest: () => BUILD,
});

async function threeEntries() {
  const w = world({ logIds: ['t-0'] });
  const d = w.publish('vendor-onboarding-target.json');
  for (const [i, score] of ['10', '50', '20'].entries())
    await w.submit(request(`c-${i}`, `sha256:${d}`, `{"vendor":{"riskScore":"${score}","sanctioned":false}}`));
  return w;
}

const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('docket replay', () => {
  it('replays every log by default, one line per entry and a summary, exit 0 when all match', async () => {
    const w = await threeEntries();
    const io = memoryIo();
    const code = await run(['--policy', policyFile(w)], io, deps(w));
    const out = lines(io.out());
    expect(out.slice(0, 3).map((l) => [l.seq, l.result])).toEqual([
      [0, 'replay-match'],
      [1, 'replay-match'],
      [2, 'replay-match'],
    ]);
    expect(out[3]).toEqual({ summary: { entries: 3, match: 3, mismatch: 0, notReplayable: 0, reasons: {}, ok: true } });
    expect(code).toBe(0);
  });

  it('replays one entry, a range and a request id as selected, and exits 1 once one is not replayable', async () => {
    const w = await threeEntries();
    const policy = policyFile(w);
    const one = memoryIo();
    expect(await run(['--policy', policy, '--log', 't-0', '--seq', '1'], one, deps(w))).toBe(0);
    expect(lines(one.out()).map((l) => l.requestId ?? 'summary')).toEqual(['c-1', 'summary']);
    const range = memoryIo();
    expect(await run(['--policy', policy, '--log', 't-0', '--from', '1', '--to', '2'], range, deps(w))).toBe(0);
    expect(lines(range.out()).map((l) => l.seq ?? 'summary')).toEqual([1, 2, 'summary']);
    w.archive.clear();
    const purged = memoryIo();
    expect(await run(['--policy', policy, '--request', 'c-2'], purged, deps(w))).toBe(1);
    expect(lines(purged.out())[0]).toMatchObject({
      requestId: 'c-2',
      result: 'not-replayable',
      reason: 'request-purged',
    });
  });

  it('exits 2 with no summary when the ledger read is cut short', async () => {
    const w = await threeEntries();
    const broken: LedgerStore = Object.assign(Object.create(w.store) as LedgerStore, {
      // A read that fails before its first entry: the generator yields nothing by design.
      // eslint-disable-next-line require-yield
      async *readEntries(): AsyncIterable<never> {
        throw new StoreReadError('throttled');
      },
    });
    const io = memoryIo();
    expect(await run(['--policy', policyFile(w)], io, deps(w, broken))).toBe(2);
    expect(lines(io.out())).toEqual([
      { noVerdict: { code: 'ledger-unreadable', detail: expect.stringContaining('throttled') } },
    ]);
  });

  it('is what the CLI dispatcher runs for "docket replay"', async () => {
    const { main } = await import('../../cli/main.js');
    const io = memoryIo();
    expect(await main(['replay', '--help'], io)).toBe(0);
    expect(io.out()).toContain('--across-evaluators');
  });

  it('exits 2 when the trust policy cannot be read and 64 on a selection that makes no sense', async () => {
    const w = await threeEntries();
    const missing = memoryIo();
    expect(await run(['--policy', join(dir, 'absent.json')], missing, deps(w))).toBe(2);
    expect(lines(missing.out())[0]).toMatchObject({ noVerdict: { code: 'policy-unreadable' } });
    for (const argv of [
      ['--seq', '1'],
      ['--log', 't-0', '--seq', '1', '--from', '0'],
      ['--request', 'x', '--log', 't-0'],
      ['--log', 't-0', '--from', '3', '--to', '1'],
      ['--log', 't-0', '--seq', '-1'],
    ]) {
      const io = memoryIo();
      expect(await run(argv, io, deps(w)), argv.join(' ')).toBe(64);
    }
  });
});
