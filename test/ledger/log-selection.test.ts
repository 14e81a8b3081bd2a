import { describe, expect, it } from 'vitest';
import { logsInTurn, selectLog } from '../../core/ledger/write/log-selection.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import type { EntryDraft } from '../../core/pipeline/ports.js';

const take = (choose: (id: string) => string, n: number) => Array.from({ length: n }, (_, i) => choose(`r-${i}`));

describe('log selection (ADR 0324)', () => {
  it('takes the configured logs in turn, sorted, from the offset', () => {
    expect(take(logsInTurn(['c', 'a', 'b']), 4)).toEqual(['a', 'b', 'c', 'a']);
    expect(take(logsInTurn(['a', 'b', 'c'], 2), 4)).toEqual(['c', 'a', 'b', 'c']);
    expect(take(logsInTurn(['a', 'b', 'c'], 1024), 2)).toEqual(['b', 'c']);
    expect(take(logsInTurn(['a', 'b', 'c'], -1), 2)).toEqual(['c', 'a']);
  });

  it('reads duplicate configured ids once', () => {
    expect(take(logsInTurn(['a', 'b', 'a']), 3)).toEqual(['a', 'b', 'a']);
  });

  it('refuses no logs, an invalid log id and an offset that is not a safe integer', () => {
    expect(() => logsInTurn([])).toThrow(RangeError);
    expect(() => logsInTurn(['a/b'])).toThrow(RangeError);
    expect(() => logsInTurn(['a'], Number.NaN)).toThrow(RangeError);
    expect(() => logsInTurn(['a'], 0.5)).toThrow(RangeError);
  });

  it('the hash rule and the turn rule read the configured ids the same way', () => {
    expect(() => selectLog('x', ['a/b'])).toThrow(RangeError);
    expect(['a', 'b']).toContain(selectLog('x', ['b', 'a', 'b']));
  });
});

describe('the pipeline ledger writer with an injected log rule', () => {
  const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(3)));
  const draft = (requestId: string): EntryDraft =>
    ({
      kind: 'admission-refusal',
      requestId,
      requestDigest: 'a'.repeat(64),
      correlation: null,
      supportedExtensions: [],
      evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: 'b'.repeat(64) },
      pack: null,
      specVersion: null,
      factsDigest: null,
      evidenceDigest: null,
      workBudget: null,
      work: 0,
      refusal: { code: 'request-malformed', message: 'test' },
    }) as EntryDraft;

  it('puts each new request on the log the rule chooses', async () => {
    const store = new MemoryLedgerStore();
    const chosen: string[] = [];
    const writer = ledgerWriter({
      store,
      signer,
      logIds: ['l-0', 'l-1', 'l-2'],
      now: () => '2026-12-03T09:00:00Z',
      chooseLog: (id) => (chosen.push(id), id.endsWith('1') ? 'l-2' : 'l-0'),
    });
    const first = await writer.append(draft('req-1'));
    const second = await writer.append(draft('req-2'));
    expect(first.status === 'appended' && first.recorded.logId).toBe('l-2');
    expect(second.status === 'appended' && second.recorded.logId).toBe('l-0');
    expect(chosen).toEqual(['req-1', 'req-2']);
  });

  it('takes the logs in turn from the first when no rule is injected', async () => {
    const writer = ledgerWriter({
      store: new MemoryLedgerStore(),
      signer,
      logIds: ['l-1', 'l-0'],
      now: () => '2026-12-03T09:00:00Z',
    });
    const logs: string[] = [];
    for (const id of ['a', 'b', 'c']) {
      const r = await writer.append(draft(id));
      if (r.status !== 'conflict') logs.push(r.recorded.logId);
    }
    expect(logs).toEqual(['l-0', 'l-1', 'l-0']);
  });

  it('refuses a rule that names a log which is not configured, writing nothing', async () => {
    const store = new MemoryLedgerStore();
    const writer = ledgerWriter({
      store,
      signer,
      logIds: ['l-0'],
      now: () => '2026-12-03T09:00:00Z',
      chooseLog: () => 'x',
    });
    await expect(writer.append(draft('req-x'))).rejects.toThrow(RangeError);
    expect(await store.readHead('x')).toBeNull();
    expect(await store.readHead('l-0')).toBeNull();
  });
});
