import { afterEach, describe, expect, it, vi } from 'vitest';
import { LedgerWriteError } from '../../core/pipeline/ledger-writer.js';
import { powertoolsObservability } from '../../functions/lib/observability.js';

/** Everything the observability writes (Powertools Logger and EMF metrics both end on stdout). */
function capture(): { lines: () => string[]; restore: () => void } {
  const out: string[] = [];
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    }),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    }),
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' '))),
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' '))),
    vi.spyOn(console, 'info').mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' '))),
    vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' '))),
  ];
  return {
    lines: () => out.join('').split('\n').filter(Boolean),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('the evaluate function observes a head regression', () => {
  it('logs an error line naming the log and seqs and emits one LedgerHeadRegressed metric', () => {
    const obs = powertoolsObservability('docket-evaluate-test');
    const c = capture();
    obs.failure(
      { messageId: 'm-1', body: '{}', groupId: 'prod-3' },
      new LedgerWriteError('head-regressed', 'log prod-3 head is 4, below seq 6', 'prod-3', 'req-9', {
        headSeq: 4,
        writtenSeq: 6,
      }),
    );
    obs.flush(); // the batch's end, where the runtime prints its counts
    c.restore();
    const text = c.lines().join('\n');
    const error = c.lines().find((l) => l.includes('ledger head regressed'));
    expect(error, text).toBeDefined();
    expect(JSON.parse(error!)).toMatchObject({ logId: 'prod-3', headSeq: 4, writtenSeq: 6, requestId: 'req-9' });
    const metric = c.lines().find((l) => l.includes('"LedgerHeadRegressed"'));
    expect(metric, text).toBeDefined();
    expect(JSON.parse(metric!)).toMatchObject({ LedgerHeadRegressed: 1, service: 'docket-evaluate-test' });
  });

  it('emits no LedgerHeadRegressed for any other failure', () => {
    const obs = powertoolsObservability('docket-evaluate-test');
    const c = capture();
    obs.failure({ messageId: 'm-2', body: '{}' }, new LedgerWriteError('append-contention', 'busy', 'prod-1', 'r'));
    obs.failure({ messageId: 'm-3', body: '{}' }, new Error('store down'));
    obs.flush();
    c.restore();
    expect(c.lines().some((l) => l.includes('LedgerHeadRegressed'))).toBe(false);
    expect(c.lines().filter((l) => l.includes('RecordFailures'))).toHaveLength(2);
  });
});
