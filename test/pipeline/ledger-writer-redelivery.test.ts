import { describe, expect, it } from 'vitest';
import { MemoryLedgerStore } from '../../core/ledger/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/signature.js';
import type { LedgerStore } from '../../core/ledger/store.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import type { EntryDraft } from '../../core/pipeline/ports.js';
import { BUILD_DIGEST, PACK_DIGEST } from '../ledger/fixtures.js';

const draft = (requestId: string): EntryDraft =>
  ({
    kind: 'admission-refusal',
    requestId,
    requestDigest: 'a'.repeat(64),
    correlation: null,
    pack: { digest: PACK_DIGEST },
    specVersion: null,
    factsDigest: null,
    evidenceDigest: null,
    supportedExtensions: [],
    workBudget: null,
    work: 0,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
    refusal: { code: 'unknown-pack-digest', message: 'no pack is registered under this digest' },
  }) as unknown as EntryDraft;

describe('one writer instance redelivered a request whose entry it wrote itself', () => {
  it('finds that entry in its own slot instead of writing a second one', async () => {
    const store = new MemoryLedgerStore();
    let failPositions = 0;
    // The first delivery dies between its entry and its position marker (as a function killed mid-record would).
    const flaky = new Proxy(store, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv) as unknown;
        if (prop === 'putPositionIfAbsent')
          return async (...args: unknown[]) => {
            if (failPositions-- > 0) throw new Error('crashed before the position marker');
            return (v as (...a: unknown[]) => Promise<boolean>).apply(target, args);
          };
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    }) as LedgerStore;
    const writer = ledgerWriter({
      store: flaky,
      signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(3))),
      logIds: ['t-0'],
      now: () => '2026-12-03T09:00:00Z',
    });
    await writer.append(draft('before'));
    failPositions = 1;
    await expect(writer.append(draft('again'))).rejects.toThrow(/crashed/);
    const second = await writer.append(draft('again'));
    expect(second.status).toBe('existing');
    expect(store.snapshot('t-0').map((e) => e.projection.requestId)).toEqual(['before', 'again']);
    expect(await store.readPosition('again')).toEqual({ requestId: 'again', logId: 't-0', seq: 1 });
  });
});
