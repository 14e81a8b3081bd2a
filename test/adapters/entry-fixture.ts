/** Real signed ledger entries (admission refusals: the smallest kind) built with core/ledger, for store tests. */
import { createHash } from 'node:crypto';
import { refusalEntryBody } from '../../bench/support/refusal-entry.js';
import { buildEntry, type BuiltEntry } from '../../core/ledger/entries/entry.js';
import { keyPairFromSeed, signerFromKeyPair, type Signer } from '../../core/ledger/primitives/signature.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';

export const testSigner: Signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(7)));

export function digestOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function refusalEntry(
  slot: { logId: string; seq: number; prevHash: string | null },
  requestId: string,
  requestDigest = digestOf(requestId),
): BuiltEntry {
  return buildEntry(
    refusalEntryBody({
      slot,
      requestId,
      requestDigest,
      packDigest: digestOf(`pack:${requestId}`),
      evaluator: { name: 'docket', version: '0.1.0', buildDigest: digestOf('build') },
      time: '2026-12-02T14:00:00Z',
      keyId: testSigner.keyId,
      refusal: { code: 'unknown-pack-digest', message: 'no pack with this digest is published' },
    }),
    testSigner,
  );
}

/** A stored entry with a body of about `padBytes` (not a signed entry: for raw store behaviour such as paging). */
export function rawEntry(logId: string, seq: number, padBytes = 0): StoredEntry {
  const body = JSON.stringify({ logId, seq, pad: 'x'.repeat(padBytes) });
  return {
    logId,
    seq,
    body,
    projection: { requestId: `r-${logId}-${seq}`, kind: 'admission-refusal', entryHash: digestOf(body) },
  };
}
