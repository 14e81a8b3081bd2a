import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { buildCheckpoint, CHECKPOINT_FORMAT_V1, parseCheckpoint } from '../../core/ledger/checkpoints/checkpoint.js';
import { checkpointLog, type CheckpointWrite } from '../../core/ledger/write/checkpoint-writer.js';
import { buildEntry, entryHashOf } from '../../core/ledger/entries/entry.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { storeCheckpoints, storeSource, verifyLedger } from '../../core/ledger/verify/index.js';
import { CHECKPOINT_SIGNER, computeLogTree, dispositionEntry, OTHER_KEYS, policyV2, SIGNER } from './fixtures.js';

const ORIGIN = { environment: 'test', table: 'docket-ledger' };
const POLICY = policyV2();
const run = (store: MemoryLedgerStore, over: Partial<Parameters<typeof checkpointLog>[2]> = {}) =>
  checkpointLog(store, 'log-a', {
    signer: CHECKPOINT_SIGNER,
    policy: POLICY,
    origin: ORIGIN,
    time: '2026-12-03T09:00:00Z',
    ...over,
  });

/** The stored record of an entry body at its own position, with an honest projection. */
const stored = (body: string): StoredEntry => {
  const o = JSON.parse(body) as { logId: string; seq: number; requestId: string; kind: string };
  return {
    logId: o.logId,
    seq: o.seq,
    body,
    projection: { requestId: o.requestId, kind: o.kind, entryHash: entryHashOf(body) },
  };
};

/** Appends n honest entries signed by the entry key, chained on the log's head. */
async function honest(store: MemoryLedgerStore, n: number, logId = 'log-a'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const head = await store.readHead(logId);
    const seq = head === null ? 0 : head.seq + 1;
    const requestId = `${logId}-r${seq}`;
    const { body } = buildEntry(
      dispositionEntry({
        logId,
        seq,
        prevHash: head === null ? null : entryHashOf(head.body),
        requestId,
        requestDigest: sha256Hex(requestId),
      }),
      SIGNER,
    );
    expect(await store.putEntryIfAbsent(stored(body))).toBe(true);
  }
}

/** What an attacker with only table write access puts at the head: right shape and link, no real signature. */
async function forgeHead(store: MemoryLedgerStore, logId = 'log-a'): Promise<number> {
  const head = await store.readHead(logId);
  const seq = head === null ? 0 : head.seq + 1;
  const { body } = buildEntry(
    dispositionEntry({
      logId,
      seq,
      prevHash: head === null ? null : entryHashOf(head.body),
      requestId: `forged-${seq}`,
      requestDigest: sha256Hex(`forged-${seq}`),
    }),
    SIGNER,
  );
  const o = JSON.parse(body) as Record<string, unknown>;
  o.signature = 'ab'.repeat(64);
  expect(await store.putEntryIfAbsent(stored(canonicalText(o)))).toBe(true);
  return seq;
}

const checkpointsOf = async (store: MemoryLedgerStore): Promise<string[]> => {
  const out: string[] = [];
  for await (const c of store.readCheckpoints('log-a')) out.push(c.body);
  return out;
};
const refused = (w: CheckpointWrite) => (w.status === 'refused' ? w.findings : null);

describe('the checkpoint writer', () => {
  it('signs a format /2 checkpoint with entriesVerified after checking every entry it covers', async () => {
    const store = new MemoryLedgerStore();
    await honest(store, 5);
    const w = await run(store);
    expect(w.status).toBe('written');
    expect(w.status === 'written' && w.entriesVerified).toBe(5);
    const cp = parseCheckpoint((await checkpointsOf(store))[0] as string);
    expect(cp.ok && [cp.value.format, cp.value.entriesVerified, cp.value.keyId]).toEqual([
      'docket.checkpoint/2',
      true,
      CHECKPOINT_SIGNER.keyId,
    ]);
  });

  it('refuses to checkpoint over a forged head, names it, signs nothing, and keeps refusing on every later run', async () => {
    const store = new MemoryLedgerStore();
    await honest(store, 3);
    const forged = await forgeHead(store);
    await honest(store, 2); // the evaluator chains genuine entries on top of whatever is at the head
    for (let i = 0; i < 2; i++) {
      const w = await run(store);
      expect(refused(w)).toEqual([{ code: 'signature-mismatch', logId: 'log-a', seq: forged }]);
      expect(w.treeSize).toBe(6);
    }
    expect(await checkpointsOf(store)).toEqual([]);
    // And verify, on its default path, names the same entry: the checkpoint did not launder it.
    const v = await verifyLedger(storeSource(store), POLICY, await storeCheckpoints(store, ['log-a']));
    expect(v.ok && v.value.findings).toContainEqual({ code: 'signature-mismatch', logId: 'log-a', seq: forged });
  });

  it('refuses a log whose entries are not one chain, or not stored where they claim, or whose projection lies', async () => {
    // A validly signed entry whose prevHash does not link (what a buggy key holder could write).
    const chain = new MemoryLedgerStore();
    await honest(chain, 2);
    const { body } = buildEntry(
      dispositionEntry({
        logId: 'log-a',
        seq: 2,
        prevHash: 'c'.repeat(64),
        requestId: 'x',
        requestDigest: sha256Hex('x'),
      }),
      SIGNER,
    );
    await chain.putEntryIfAbsent(stored(body));
    expect(refused(await run(chain))).toEqual([{ code: 'chain-broken', logId: 'log-a', seq: 2 }]);

    const projection = new MemoryLedgerStore();
    await honest(projection, 2);
    const { body: b2 } = buildEntry(
      dispositionEntry({
        logId: 'log-a',
        seq: 2,
        prevHash: entryHashOf(((await projection.readHead('log-a')) as StoredEntry).body),
        requestId: 'y',
        requestDigest: sha256Hex('y'),
      }),
      SIGNER,
    );
    await projection.putEntryIfAbsent({ ...stored(b2), projection: { ...stored(b2).projection, requestId: 'other' } });
    expect(refused(await run(projection))).toEqual([{ code: 'projection-mismatch', logId: 'log-a', seq: 2 }]);

    const gap = new MemoryLedgerStore();
    await honest(gap, 2);
    const { body: b3 } = buildEntry(
      dispositionEntry({
        logId: 'log-a',
        seq: 3,
        prevHash: 'd'.repeat(64),
        requestId: 'z',
        requestDigest: sha256Hex('z'),
      }),
      SIGNER,
    );
    await gap.putEntryIfAbsent(stored(b3));
    expect(refused(await run(gap))).toEqual([{ code: 'sequence-broken', logId: 'log-a', seq: 3, expectedSeq: 2 }]);
  });

  it('verifies only what its own earlier /2 checkpoint does not cover, and refuses when that prefix was rewritten', async () => {
    const store = new MemoryLedgerStore();
    await honest(store, 4);
    expect((await run(store)).status).toBe('written');
    await honest(store, 3);
    const second = await run(store, { time: '2026-12-03T09:05:00Z' });
    expect(second.status === 'written' && second.entriesVerified).toBe(3);

    // A table whose entry 0 is not the one an earlier verifying checkpoint covered: the writer does not extend it.
    const other = new MemoryLedgerStore();
    await honest(other, 1);
    expect((await run(other)).status).toBe('written');
    const diverged = new MemoryLedgerStore();
    const { body } = buildEntry(
      dispositionEntry({ logId: 'log-a', seq: 0, prevHash: null, requestId: 'another', requestDigest: sha256Hex('a') }),
      SIGNER,
    );
    await diverged.putEntryIfAbsent(stored(body));
    await honest(diverged, 2);
    for await (const c of other.readCheckpoints('log-a')) await diverged.putCheckpointIfAbsent(c);
    expect(refused(await run(diverged))).toEqual([{ code: 'root-mismatch', logId: 'log-a', treeSize: 1 }]);
    // And a table holding fewer entries than its own earlier checkpoint says: rolled back.
    const rolledBack = new MemoryLedgerStore();
    for await (const c of store.readCheckpoints('log-a')) await rolledBack.putCheckpointIfAbsent(c);
    await honest(rolledBack, 2);
    expect(refused(await run(rolledBack))).toEqual([
      { code: 'tail-rollback', logId: 'log-a', treeSize: 7, entries: 2 },
    ]);
  });

  it('does not take a format /1 checkpoint as proof that the prefix was verified', async () => {
    const store = new MemoryLedgerStore();
    await honest(store, 3);
    const forged = await forgeHead(store);
    await honest(store, 1);
    // An old writer's /1 checkpoint (same checkpoint key) over the forged entry does not make the new writer skip it.
    const tree = await computeLogTree(store, 'log-a');
    const { body } = buildCheckpoint(
      {
        format: CHECKPOINT_FORMAT_V1,
        logId: 'log-a',
        treeSize: tree.treeSize,
        rootHash: tree.rootHash,
        chainHead: tree.chainHead,
        keyId: CHECKPOINT_SIGNER.keyId,
        origin: ORIGIN,
        time: '2026-12-03T08:00:00Z',
      },
      CHECKPOINT_SIGNER,
    );
    await store.putCheckpointIfAbsent({ logId: 'log-a', treeSize: tree.treeSize, body });
    await honest(store, 1);
    const w = await run(store);
    expect(refused(w)).toEqual([{ code: 'signature-mismatch', logId: 'log-a', seq: forged }]);
  });

  it('refuses to sign with a key the policy does not name as this log’s checkpoint key for the whole tree', async () => {
    const store = new MemoryLedgerStore();
    await honest(store, 2);
    // The entry key is not a checkpoint key under a /2 policy.
    expect(refused(await run(store, { signer: SIGNER }))).toEqual([
      { code: 'checkpoint-key-not-valid-at-seq', logId: 'log-a', treeSize: 2 },
    ]);
    expect(refused(await run(store, { signer: signerFromKeyPair(OTHER_KEYS) }))).toEqual([
      { code: 'checkpoint-unknown-key', logId: 'log-a', treeSize: 2 },
    ]);
    // An origin the policy does not list as an authority: verify would not take the checkpoint as an anchor.
    expect(refused(await run(store, { origin: { environment: 'test', table: 'docket-other-ledger' } }))).toEqual([
      { code: 'checkpoint-unauthorized-origin', logId: 'log-a', treeSize: 2 },
    ]);
    expect(await checkpointsOf(store)).toEqual([]);
  });
});
