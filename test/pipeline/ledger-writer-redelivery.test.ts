import { describe, expect, it } from 'vitest';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import { refusalDraft } from './entry-draft-fixture.js';

const draft = refusalDraft;

describe('one writer instance redelivered a request whose entry it wrote itself', () => {
  it('finds that entry in its own slot instead of writing a second one', async () => {
    const store = new MemoryLedgerStore();
    const writer = ledgerWriter({
      store,
      signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(3))),
      logIds: ['t-0'],
      now: () => '2026-12-03T09:00:00Z',
    }).forLog('t-0');
    await writer.append(draft('before'));
    // The first delivery wrote the entry, then its batch failed (its delivery job was not sent): redelivered here.
    expect((await writer.append(draft('again'))).status).toBe('appended');
    const second = await writer.append(draft('again'));
    expect(second.status).toBe('existing');
    expect(store.snapshot('t-0').map((e) => e.projection.requestId)).toEqual(['before', 'again']);
    expect(await store.readPosition('again')).toEqual({ requestId: 'again', logId: 't-0', seq: 1 });
  });
});

describe('the writer leaves positions to the delivery stage', () => {
  const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(4)));

  it('writes no position for what it appends, and a redelivery on another instance still finds the one entry', async () => {
    const store = new MemoryLedgerStore();
    const first = ledgerWriter({ store, signer, logIds: ['s-0'], now: () => '2026-12-04T18:00:00Z' }).forLog('s-0');
    expect((await first.append(draft('one'))).status).toBe('appended');
    expect((await first.append(draft('two'))).status).toBe('appended');
    expect(await store.readPosition('one')).toBeNull();
    expect(await store.readPosition('two')).toBeNull();
    // Another instance (no memory of the first's slots) gets 'one' again: the claim exists, no position, so it scans
    // above the claim's headBefore, finds the entry and writes its position, as any duplicate does.
    const second = ledgerWriter({ store, signer, logIds: ['s-0'], now: () => '2026-12-04T18:05:00Z' }).forLog('s-0');
    const again = await second.append(draft('one'));
    expect(again.status).toBe('existing');
    expect(store.snapshot('s-0').map((e) => e.projection.requestId)).toEqual(['one', 'two']);
    expect(await store.readPosition('one')).toEqual({ requestId: 'one', logId: 's-0', seq: 0 });
  });
});
