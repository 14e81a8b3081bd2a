/** Real signed ledger entries (admission refusals: the smallest kind) built with core/ledger, for store tests. */
import { createHash } from 'node:crypto';
import { refusalEntryBody } from '../ledger/refusal-entry.js';
import { buildEntry, entryHashOf, type BuiltEntry } from '../../core/ledger/entries/entry.js';
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

/**
 * A stored entry with a body of about `padBytes` (not a signed entry: for raw store behaviour such as paging). The pad
 * is base64 of a SHA-256 counter stream, which raw DEFLATE stores in ~¾ of its length (ADR 0355): a large pad is
 * large on the table too, so paging still pages.
 */
export function rawEntry(logId: string, seq: number, padBytes = 0): StoredEntry {
  const requestId = `r-${logId}-${seq}`;
  const kind = 'admission-refusal';
  const body = JSON.stringify({ kind, logId, requestId, seq, pad: noise(`${logId}/${seq}`, padBytes) });
  // The projection its body states, as every store layout must read it back (a bundle derives it: ADR 0476).
  return { logId, seq, body, projection: { requestId, kind, entryHash: entryHashOf(body) } };
}

/** `length` characters of base64 derived from `seed`: deterministic, and all but incompressible. */
export function noise(seed: string, length: number): string {
  const blocks: Buffer[] = [];
  for (let i = 0; blocks.length * 32 < length; i++) blocks.push(createHash('sha256').update(`${seed}#${i}`).digest());
  return Buffer.concat(blocks).toString('base64').slice(0, length);
}
