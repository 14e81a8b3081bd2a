/**
 * The requester's audit of a saved entry (core/ledger/receipts/promise-audit.ts, ADR 0291): once a valid checkpoint covers
 * the entry's seq, inclusion is proven or the slot is shown to hold another leaf (`entry-omitted`); before, nothing
 * is claimed either way. A forged checkpoint never manufactures an omission.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { checkpointLog } from '../../core/ledger/write/checkpoint-writer.js';
import { buildEntry, entryHashOf } from '../../core/ledger/entries/entry.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { auditPromise } from '../../core/ledger/receipts/promise-audit.js';
import { CHECKPOINT_SIGNER, dispositionEntry, policyV2, SIGNER } from './fixtures.js';

const POLICY = policyV2();
const ORIGIN = { environment: 'test', table: 'docket-ledger' };

/** Appends the entry of `requestId` at the log's next seq; returns its stored bytes. */
async function append(store: MemoryLedgerStore, requestId: string): Promise<string> {
  const head = await store.readHead('log-a');
  const seq = head === null ? 0 : head.seq + 1;
  const { body, entryHash } = buildEntry(
    dispositionEntry({
      logId: 'log-a',
      seq,
      prevHash: head === null ? null : entryHashOf(head.body),
      requestId,
      requestDigest: sha256Hex(requestId),
    }),
    SIGNER,
  );
  await store.putEntryIfAbsent({
    logId: 'log-a',
    seq,
    body,
    projection: { requestId, kind: 'disposition', entryHash },
  });
  return body;
}

async function checkpoint(store: MemoryLedgerStore, signer = CHECKPOINT_SIGNER): Promise<void> {
  const w = await checkpointLog(store, 'log-a', {
    signer,
    policy: POLICY,
    origin: ORIGIN,
    time: '2026-12-04T05:00:00Z',
  });
  expect(w.status).toBe('written');
}

/** A log of `ids`, and the entry bytes of each. */
async function log(ids: readonly string[]): Promise<{ store: MemoryLedgerStore; bodies: string[] }> {
  const store = new MemoryLedgerStore();
  const bodies: string[] = [];
  for (const id of ids) bodies.push(await append(store, id));
  return { store, bodies };
}

describe("auditing a saved entry's promise of inclusion", () => {
  it('proves inclusion once a checkpoint covers the entry, and says not yet before', async () => {
    const { store, bodies } = await log(['a', 'b']);
    await checkpoint(store);
    const saved = await append(store, 'c');
    expect(await auditPromise(store, saved, POLICY)).toEqual({
      status: 'not-checkpointed',
      logId: 'log-a',
      seq: 2,
      newestCheckpointTime: '2026-12-04T05:00:00Z',
    });
    await append(store, 'd');
    await checkpoint(store);
    for (const body of [bodies[0]!, saved]) {
      const audit = await auditPromise(store, body, POLICY);
      expect(audit.status === 'verdict' && audit.verdict).toEqual({ ok: true, findings: [] });
    }
  });

  it('reports entry-omitted, naming the leaf the checkpoint holds at that seq, when the slot was refilled', async () => {
    const { bodies } = await log(['a', 'b', 'c']);
    const saved = bodies[2]!;
    // The same log with c deleted before any checkpoint and its slot refilled by e, then checkpointed.
    const { store, bodies: refilled } = await log(['a', 'b', 'e', 'f']);
    await checkpoint(store);
    const audit = await auditPromise(store, saved, POLICY);
    expect(audit.status === 'verdict' && audit.verdict).toEqual({
      ok: false,
      findings: [{ code: 'entry-omitted', logId: 'log-a', seq: 2, treeSize: 4, leafHash: entryHashOf(refilled[2]!) }],
    });
  });

  it('never claims an omission on a checkpoint the trust policy does not accept', async () => {
    const { bodies } = await log(['a', 'b', 'c']);
    const { store } = await log(['a', 'b', 'e']);
    await checkpoint(store);
    // The requester trusts checkpoints of another deployment only: this one is not an anchor for it.
    const theirs = policyV2(['log-a'], [{ environment: 'prod', table: 'docket-prod-ledger' }]);
    const audit = await auditPromise(store, bodies[2]!, theirs);
    expect(audit.status).toBe('verdict');
    const codes = audit.status === 'verdict' ? audit.verdict.findings.map((f) => f.code) : [];
    expect(codes).toContain('checkpoint-unauthorized-origin');
    expect(codes).not.toContain('entry-omitted');
  });

  it('refuses a saved entry whose signature does not verify, checkpoint or not', async () => {
    const { store, bodies } = await log(['a']);
    const forged = bodies[0]!.replace('"work":42', '"work":41');
    expect(forged).not.toBe(bodies[0]);
    const codes = async () => {
      const audit = await auditPromise(store, forged, POLICY);
      return audit.status === 'verdict' ? audit.verdict.findings.map((f) => f.code) : [audit.status];
    };
    expect(await codes()).toEqual(['entry-signature-mismatch']);
    await checkpoint(store);
    expect(await codes()).toContain('entry-signature-mismatch');
  });

  it('states an omission when the live log ends at the saved entry’s seq and its chain fits, checkpoint or not', async () => {
    const { store: genuine, bodies } = await log(['a', 'b', 'c']);
    await checkpoint(genuine);
    const saved = bodies[2]!;
    // The same log with its tail (c) deleted: the checkpoint that covered c stays, or there was none.
    const { store: cut } = await log(['a', 'b']);
    const omitted = { ok: false, findings: [{ code: 'entry-omitted', logId: 'log-a', seq: 2, logEnd: 2 }] };
    const uncheckpointed = await auditPromise(cut, saved, POLICY);
    expect(uncheckpointed.status === 'verdict' && uncheckpointed.verdict).toEqual(omitted);
    for await (const c of genuine.readCheckpoints('log-a')) await cut.putCheckpointIfAbsent(c);
    const checkpointed = await auditPromise(cut, saved, POLICY);
    expect(checkpointed.status === 'verdict' && checkpointed.verdict).toEqual(omitted);
  });

  it('claims no omission past the log’s end when the saved entry’s chain does not fit the live log', async () => {
    const { bodies } = await log(['a', 'b', 'c']);
    const saved = bodies[2]!;
    // Another history (b is not the saved entry's predecessor), a log that ends two entries short, an empty log.
    for (const ids of [['a', 'x'], ['a'], []]) {
      const { store } = await log(ids);
      expect((await auditPromise(store, saved, POLICY)).status, ids.join()).toBe('not-checkpointed');
    }
    // A saved entry at seq 0 has no predecessor to fit: an empty log proves nothing about it.
    expect((await auditPromise((await log([])).store, bodies[0]!, POLICY)).status).toBe('not-checkpointed');
  });

  it('claims no omission for a saved entry that does not verify, wherever the log ends', async () => {
    const { bodies } = await log(['a', 'b', 'c']);
    const forged = bodies[2]!.replace('"work":42', '"work":41');
    const audit = await auditPromise((await log(['a', 'b'])).store, forged, POLICY);
    expect(audit.status === 'verdict' && audit.verdict.findings.map((f) => f.code)).toEqual([
      'entry-signature-mismatch',
    ]);
  });
});
