/**
 * The requester's audit of a promise of inclusion, as Certificate Transparency audits an SCT (docs/verify.md "Saved
 * results", which gives every outcome; docs/adr/0291-saved-results-audited-against-checkpoints.md, ADR 0461). The
 * checkpoint and path are judged exactly as a receipt is (receipt-verify.ts); an omission is reported only when the
 * checkpoint verifies under the trust policy and the other leaf's path leads to its root, so a forged or stale store
 * cannot manufacture one.
 */
import { receiptAt } from './receipt-build.js';
import type { Receipt } from './receipt.js';
import {
  checkReceiptEntry,
  leafIncluded,
  verifyReceipt,
  type ReceiptFinding,
  type ReceiptVerdict,
  type ReceiptVerifyOptions,
} from './receipt-verify.js';
import { entryHashOf } from '../entries/entry.js';
import type { LedgerStore } from '../store/store.js';
import type { TrustPolicy } from '../trust-policy/trust-policy.js';

export type PromiseAudit =
  /** A verdict: inclusion proven (ok), or findings (the entry's own, the checkpoint's, `entry-omitted`, …). */
  | { readonly status: 'verdict'; readonly verdict: ReceiptVerdict; readonly receipt: Receipt | null }
  /** The entry verifies alone, but no checkpoint of its log covers its seq yet. */
  | {
      readonly status: 'not-checkpointed';
      readonly logId: string;
      readonly seq: number;
      readonly newestCheckpointTime: string | null;
    };

/** Audits one saved entry's promise against the ledger `store`. Throws RangeError on a log with a gap. */
export async function auditPromise(
  store: Pick<LedgerStore, 'readCheckpoints' | 'readEntries'>,
  entryBody: string,
  policy: TrustPolicy,
  options: ReceiptVerifyOptions = {},
): Promise<PromiseAudit> {
  const entryFindings: ReceiptFinding[] = [];
  const parsed = checkReceiptEntry(entryBody, policy, entryFindings);
  const fail = (): PromiseAudit => ({
    status: 'verdict',
    verdict: { ok: false, findings: entryFindings },
    receipt: null,
  });
  if (parsed === null) return fail();
  const e = parsed.entry;
  if (entryFindings.length === 0 && (await endsWhereEntryFits(store, e))) {
    const omitted: ReceiptFinding = { code: 'entry-omitted', logId: e.logId, seq: e.seq, logEnd: e.seq };
    return { status: 'verdict', verdict: { ok: false, findings: [omitted] }, receipt: null };
  }
  const at = await receiptAt(store as LedgerStore, { requestId: e.requestId, logId: e.logId, seq: e.seq }, entryBody);
  if (!at.ok) {
    if (entryFindings.length > 0) return fail();
    return {
      status: 'not-checkpointed',
      logId: e.logId,
      seq: e.seq,
      newestCheckpointTime: at.error.code === 'not-checkpointed' ? at.error.newestCheckpointTime : null,
    };
  }
  const { receipt, storedLeaf } = at.value;
  const verdict = verifyReceipt(receipt, policy, options);
  if (verdict.ok || storedLeaf === parsed.entryHash) return { status: 'verdict', verdict, receipt };
  const checkpointValid = !verdict.findings.some((f) => f.code.startsWith('checkpoint-'));
  if (!checkpointValid || !leafIncluded(receipt, storedLeaf)) return { status: 'verdict', verdict, receipt };
  const omitted: ReceiptFinding = {
    code: 'entry-omitted',
    logId: e.logId,
    seq: e.seq,
    treeSize: receipt.inclusion.treeSize,
    leafHash: storedLeaf,
  };
  const findings = verdict.findings.map((f) => (f.code === 'inclusion-proof-invalid' ? omitted : f));
  return { status: 'verdict', verdict: { ok: false, findings }, receipt };
}

/**
 * True when the live log holds nothing at `seq` or after it, and its last entry is the saved entry's predecessor (its
 * entry hash is the saved prevHash). The predecessor must be there: an empty log fits any entry at seq 0, including
 * one of another stage's log of the same id, so it proves nothing. Reads at most the entries at seq − 1 and seq (a
 * bundle item may bring a few more).
 */
async function endsWhereEntryFits(
  store: Pick<LedgerStore, 'readEntries'>,
  e: { readonly logId: string; readonly seq: number; readonly prevHash: string | null },
): Promise<boolean> {
  let last: string | null = null;
  if (e.seq === 0) return false;
  for await (const s of store.readEntries(e.logId, e.seq - 1)) {
    if (s.seq >= e.seq) return false;
    if (s.seq === e.seq - 1) last = entryHashOf(s.body);
  }
  return last !== null && last === e.prevHash;
}
