import { describe, expect, it } from 'vitest';
import { appendOnce, slotCommits } from '../../core/ledger/write/append.js';
import { selectLog } from '../../core/ledger/write/log-selection.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { checkpointLog } from '../../core/ledger/write/checkpoint-writer.js';
import { buildEntry } from '../../core/ledger/entries/entry.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { storeCheckpoints, storeSource, verifyLedger } from '../../core/ledger/verify/index.js';
import { K1, KC, PROD, policyText, unsignedEntry } from '../../conformance/ledger/fixtures.js';

const LOGS = ['log-a', 'log-b'];
const policy = (() => {
  const r = readTrustPolicy(
    new TextEncoder().encode(
      policyText(LOGS, [
        { keys: K1, role: 'entries', validity: LOGS.map((logId) => ({ logId, fromSeq: 0, toSeq: null })) },
        { keys: KC, role: 'checkpoints', validity: LOGS.map((logId) => ({ logId, fromSeq: 0, toSeq: null })) },
      ]),
    ),
  );
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
})();
const signer = signerFromKeyPair(K1);
const checkpointSigner = signerFromKeyPair(KC);

/** A store filled through the ledger's own append protocol and checkpoint builder, as the pipeline fills it. */
async function appendedStore(
  requests: number,
  checkpointAfter: number,
  over: (i: number) => Record<string, unknown> = () => ({}),
): Promise<MemoryLedgerStore> {
  const store = new MemoryLedgerStore();
  for (let i = 0; i < requests; i++) {
    const requestId = `request-${i}`;
    const r = await appendOnce(store, {
      requestId,
      requestDigest: sha256Hex(`request ${requestId}`),
      logId: selectLog(requestId, LOGS),
      slotCommits: slotCommits(),
      build: ({ logId, seq, prevHash }) =>
        buildEntry(
          {
            ...unsignedEntry(logId, seq, prevHash, K1, over(i)),
            requestId,
            requestDigest: sha256Hex(`request ${requestId}`),
          } as never,
          signer,
        ),
    });
    expect(r.ok).toBe(true);
    if (i + 1 === checkpointAfter)
      for (const logId of LOGS)
        expect(
          (
            await checkpointLog(store, logId, {
              signer: checkpointSigner,
              policy,
              origin: PROD,
              time: '2026-12-01T12:00:00Z',
            })
          ).status,
        ).toBe('written');
  }
  return store;
}

describe('verifyLedger over a live store', () => {
  it('finds an honest ledger written by appendOnce and checkpointLog ok in both modes', async () => {
    const store = await appendedStore(20, 20);
    for (const allSignatures of [false, true]) {
      const r = await verifyLedger(storeSource(store), policy, await storeCheckpoints(store, LOGS), { allSignatures });
      expect(r.ok && r.value.findings).toEqual([]);
      expect(r.ok && r.value.ok).toBe(true);
      expect(r.ok && r.value.summary.entries).toBe(20);
    }
  });

  it('checks signatures on the checkpoint path only for entries after the matching checkpoint, and all of them with allSignatures', async () => {
    const store = await appendedStore(20, 12);
    const quick = await verifyLedger(storeSource(store), policy, await storeCheckpoints(store, LOGS));
    const all = await verifyLedger(storeSource(store), policy, await storeCheckpoints(store, LOGS), {
      allSignatures: true,
    });
    if (!quick.ok || !all.ok) throw new Error('no verdict');
    expect(quick.value.ok && all.value.ok).toBe(true);
    expect(quick.value.summary.entrySignaturesChecked).toBe(8);
    expect(all.value.summary.entrySignaturesChecked).toBe(20);
    expect(quick.value.summary.anchors.reduce((n, a) => n + a.treeSize, 0)).toBe(12);
  });

  it('fails closed when the store holds no checkpoint for a log', async () => {
    const store = await appendedStore(6, 0);
    const r = await verifyLedger(storeSource(store), policy, []);
    expect(r.ok && r.value.ok).toBe(false);
    expect(r.ok && r.value.findings.filter((f) => f.code === 'unregistered-log')).toEqual(
      LOGS.map((logId) => ({ code: 'unregistered-log', logId, missing: 'checkpoint' })),
    );
  });

  it('gives no verdict, never a shorter ok, when listing the logs is cut short', async () => {
    const store = await appendedStore(6, 6);
    const { StoreReadError } = await import('../../core/ledger/store/store.js');
    const broken = Object.create(store) as MemoryLedgerStore;
    broken.listLogs = async () => {
      throw new StoreReadError('scan page 2 throttled');
    };
    const r = await verifyLedger(storeSource(broken), policy, await storeCheckpoints(store, LOGS));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('store-read-incomplete');
  });

  it('reports meaning-rebound where a later entry records another pack under an id@version already recorded', async () => {
    // A pack of other bytes under the same triage@1.0.0 in every entry after the first.
    const rebound = { pack: { id: 'triage', version: '1.0.0', digest: 'b'.repeat(64) } };
    const store = await appendedStore(2, 2, (i) => (i === 1 ? rebound : {}));
    const r = await verifyLedger(storeSource(store), policy, await storeCheckpoints(store, LOGS));
    if (!r.ok) throw new Error('no verdict');
    const found = r.value.findings.filter((f) => f.code === 'meaning-rebound');
    expect(found).toEqual([
      expect.objectContaining({ code: 'meaning-rebound', name: 'pack triage@1.0.0', firstLogId: 'log-a', firstSeq: 0 }),
    ]);
    expect(r.value.ok).toBe(false);
  });
});
