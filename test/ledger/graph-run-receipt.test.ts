/**
 * Receipts of graph runs (ADR 0361): a graph-run entry in a checkpointed log has a portable receipt that verifies
 * offline under a trust policy permitting judgment-graphs on the log, reports the feature under one that does not,
 * and checks a presented graph file and inputs document against the digests the entry recorded.
 */
import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { checkpointLog } from '../../core/ledger/write/checkpoint-writer.js';
import { buildEntry } from '../../core/ledger/entries/entry.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { readReceipt, receiptText, type Receipt } from '../../core/ledger/receipts/receipt.js';
import { buildReceipt } from '../../core/ledger/receipts/receipt-build.js';
import { verifyReceipt } from '../../core/ledger/receipts/receipt-verify.js';
import { CHECKPOINT_SIGNER, policyV3, SIGNER } from './fixtures.js';
import { graphRunEntry, INPUTS, ROOT_GRAPH } from './graph-run-fixtures.js';

const PERMITTING = policyV3([{ logId: 'log-a', allow: ['judgment-graphs'] }]);
const FORBIDDING = policyV3([{ logId: 'log-a', allow: ['rfc0008-quantifiers'] }]);

async function receipt(): Promise<Receipt> {
  const store = new MemoryLedgerStore();
  const { body, entryHash } = buildEntry(graphRunEntry({ logId: 'log-a', requestId: 'g-r0' }), SIGNER);
  await store.putEntryIfAbsent({
    logId: 'log-a',
    seq: 0,
    body,
    projection: { requestId: 'g-r0', kind: 'graph-run', entryHash },
  });
  await store.putPositionIfAbsent({ requestId: 'g-r0', logId: 'log-a', seq: 0 });
  const cp = await checkpointLog(store, 'log-a', {
    signer: CHECKPOINT_SIGNER,
    policy: PERMITTING,
    origin: { environment: 'test', table: 'docket-ledger' },
    time: '2026-12-04T09:00:00Z',
  });
  expect(cp.status).toBe('written');
  const r = await buildReceipt(store, 'g-r0');
  if (!r.ok) throw new Error(r.error.detail);
  const back = readReceipt(utf8Bytes(receiptText(r.value)));
  if (!back.ok) throw new Error(back.error.detail);
  return back.value;
}

describe('a receipt of a graph run', () => {
  it('verifies offline under a policy permitting judgment-graphs, with the graph and inputs it recorded', async () => {
    const r = await receipt();
    expect(verifyReceipt(r, PERMITTING, { inputs: { graph: ROOT_GRAPH, inputs: INPUTS } })).toEqual({
      ok: true,
      findings: [],
    });
  });

  it('reports the draft feature under a policy that does not permit it on the log', async () => {
    const v = verifyReceipt(await receipt(), FORBIDDING);
    expect(v.findings.map((f) => f.code)).toEqual(['draft-features-not-allowed']);
  });

  it('reports another graph file or another inputs document', async () => {
    const v = verifyReceipt(await receipt(), PERMITTING, {
      inputs: { graph: utf8Bytes('{}'), inputs: utf8Bytes('{"caller":{}}') },
    });
    expect(v.findings.map((f) => f.code)).toEqual(['graph-digest-mismatch', 'inputs-digest-mismatch']);
  });
});
