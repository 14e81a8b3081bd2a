import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import receiptSchema from '../../schema/receipt.schema.json' with { type: 'json' };
import { sha256Hex, toHex, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { buildCheckpoint, type UnsignedCheckpoint } from '../../core/ledger/checkpoints/checkpoint.js';
import type { NoteSigner } from '../../core/ledger/checkpoints/checkpoint-note.js';
import { checkpointLog } from '../../core/ledger/write/checkpoint-writer.js';
import { cosign, type WitnessKey } from '../../core/ledger/witness/cosignature.js';
import { buildEntry, entryHashOf } from '../../core/ledger/entries/entry.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { publishCheckpointNote } from '../../core/ledger/checkpoints/publish-note.js';
import { readReceipt, receiptText, ReceiptInvariantError, type Receipt } from '../../core/ledger/receipts/receipt.js';
import { buildReceipt } from '../../core/ledger/receipts/receipt-build.js';
import { verifyReceipt, verifyReceiptBytes } from '../../core/ledger/receipts/receipt-verify.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { serializeSignedNote, readSignedNote } from '../../core/ledger/notes/signed-note.js';
import type { WitnessPolicy } from '../../core/ledger/witness/witness-policy.js';
import {
  CHECKPOINT_KEYS,
  CHECKPOINT_SIGNER,
  dispositionEntry,
  OTHER_KEYS,
  policyV2,
  seed,
  SIGNER,
} from './fixtures.js';

const ORIGIN = { environment: 'test', table: 'docket-ledger' };
const POLICY = policyV2();
const FACTS = utf8Bytes('{"amount":12}');
const WITNESS_PAIR = keyPairFromSeed(seed(21));
const WITNESS: WitnessKey = {
  name: 'auditor.example/w1',
  publicKey: WITNESS_PAIR.publicKey,
  secretKey: WITNESS_PAIR.secretKey,
};
const WITNESSES: WitnessPolicy = {
  quorum: 1,
  maxAgeSeconds: 3600,
  witnesses: [{ name: WITNESS.name, publicKey: WITNESS.publicKey }],
};

/** Appends n honest entries with positions (request ids r0, r1, …), the facts digest of FACTS. */
async function honest(store: MemoryLedgerStore, n: number, logId = 'log-a'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const head = await store.readHead(logId);
    const seq = head === null ? 0 : head.seq + 1;
    const requestId = `r${seq}`;
    const { body, entryHash } = buildEntry(
      dispositionEntry({
        logId,
        seq,
        prevHash: head === null ? null : entryHashOf(head.body),
        requestId,
        requestDigest: sha256Hex(requestId),
        factsDigest: sha256Hex(FACTS),
      }),
      SIGNER,
    );
    await store.putEntryIfAbsent({ logId, seq, body, projection: { requestId, kind: 'disposition', entryHash } });
    await store.putPositionIfAbsent({ requestId, logId, seq });
  }
}

async function checkpointed(n: number, extra = 0): Promise<MemoryLedgerStore> {
  const store = new MemoryLedgerStore();
  await honest(store, n);
  const w = await checkpointLog(store, 'log-a', {
    signer: CHECKPOINT_SIGNER,
    policy: POLICY,
    origin: ORIGIN,
    time: '2026-12-03T09:00:00Z',
  });
  expect(w.status).toBe('written');
  await honest(store, extra);
  return store;
}

async function receiptOf(store: MemoryLedgerStore, id: string): Promise<Receipt> {
  const r = await buildReceipt(store, id);
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
}

/** The receipt as a third party receives it: serialized, then read back strictly. */
function roundTrip(r: Receipt): Receipt {
  const back = readReceipt(utf8Bytes(receiptText(r)));
  if (!back.ok) throw new Error(back.error.detail);
  return back.value;
}

describe('portable receipts', () => {
  it('a receipt of every entry of a checkpointed log verifies offline under the trust policy alone', async () => {
    const store = await checkpointed(11);
    for (let seq = 0; seq < 11; seq++) {
      const r = roundTrip(await receiptOf(store, `r${seq}`));
      expect(r.inclusion).toMatchObject({ leafIndex: seq, treeSize: 11 });
      expect(verifyReceipt(r, POLICY)).toEqual({ ok: true, findings: [] });
    }
  });

  it('a position planted to name another request’s entry gives no receipt of that entry', async () => {
    const store = await checkpointed(3);
    // A writer with table access and no key claims r9 (never recorded) and marks it at r1's seq.
    await store.putClaimIfAbsent({ requestId: 'r9', logId: 'log-a', requestDigest: sha256Hex('r9'), headBefore: -1 });
    await store.putMarkerIfAbsent({ logId: 'log-a', positions: [{ seq: 1, requestId: 'r9' }] });
    const r = await buildReceipt(store, 'r9');
    expect(r).toMatchObject({ ok: false, error: { code: 'not-recorded' } });
    expect(r.ok ? '' : r.error.detail).toContain('an entry of another request');
    expect((await buildReceipt(store, 'r1')).ok).toBe(true);
  });

  it('a receipt judged from its bytes gets the same verdict, and unreadable bytes get the reader error, not a finding', async () => {
    const r = await receiptOf(await checkpointed(4), 'r2');
    const bytes = utf8Bytes(receiptText(r));
    expect(verifyReceiptBytes(bytes, POLICY, { inputs: { facts: FACTS } })).toEqual({ ok: true, findings: [] });
    const other = utf8Bytes('{"amount":13}');
    expect(verifyReceiptBytes(bytes, POLICY, { inputs: { facts: other } })).toEqual(
      verifyReceipt(r, POLICY, { inputs: { facts: other } }),
    );
    expect(verifyReceiptBytes(utf8Bytes(receiptText(r).slice(0, -2)), POLICY)).toMatchObject({
      ok: false,
      findings: [],
      unreadable: { code: 'receipt-malformed' },
    });
  });

  it('an entry no checkpoint covers yet has no receipt, and the error dates the newest checkpoint', async () => {
    const store = await checkpointed(3, 2);
    const r = await buildReceipt(store, 'r4');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toMatchObject({ code: 'not-checkpointed', newestCheckpointTime: '2026-12-03T09:00:00Z' });
    const unknown = await buildReceipt(store, 'nobody');
    expect(!unknown.ok && unknown.error.code).toBe('unknown-request');
  });

  it('the facts file the entry was decided on matches; any other file is named as a facts digest mismatch', async () => {
    const r = await receiptOf(await checkpointed(4), 'r2');
    expect(verifyReceipt(r, POLICY, { inputs: { facts: FACTS, request: utf8Bytes('r2') } }).ok).toBe(true);
    // The file as an editor saves it (a final newline): the same document value as the request carried.
    expect(verifyReceipt(r, POLICY, { inputs: { facts: utf8Bytes('{"amount":12}\n') } }).ok).toBe(true);
    expect(verifyReceipt(r, POLICY, { inputs: { request: utf8Bytes('r2\n') } }).ok).toBe(false);
    const other = utf8Bytes('{"amount":13}');
    expect(verifyReceipt(r, POLICY, { inputs: { facts: other } })).toEqual({
      ok: false,
      findings: [{ code: 'facts-digest-mismatch', recorded: sha256Hex(FACTS), actual: sha256Hex(other) }],
    });
    // The entry recorded no evidence: any evidence file presented is a mismatch against null.
    expect(verifyReceipt(r, POLICY, { inputs: { evidence: other } }).findings).toEqual([
      { code: 'evidence-digest-mismatch', recorded: null, actual: sha256Hex(other) },
    ]);
  });

  it('a checkpoint note with a witness cosignature meets a witness quorum; without one it is unwitnessed', async () => {
    const store = await checkpointed(5);
    const plain = await receiptOf(store, 'r1');
    expect(plain.note).toBeNull();
    expect(verifyReceipt(plain, POLICY, { witnesses: WITNESSES }).findings).toEqual([
      { code: 'unwitnessed-checkpoint', cosigned: 0, quorum: 1 },
    ]);
    const cps = [];
    for await (const c of store.readCheckpoints('log-a')) cps.push(c);
    const note = await publishCheckpointNote(store, cps[0]!, signerFromKeyPair(CHECKPOINT_KEYS) as NoteSigner);
    const logSigned = await receiptOf(store, 'r1');
    expect(verifyReceipt(logSigned, POLICY)).toEqual({ ok: true, findings: [] });
    expect(verifyReceipt(logSigned, POLICY, { witnesses: WITNESSES }).ok).toBe(false);
    const read = readSignedNote(note.note);
    if (!read.ok) throw new Error(read.error.detail);
    const line = cosign(read.value.text, WITNESS, 1_796_000_000);
    const cosigned = {
      ...logSigned,
      note: serializeSignedNote({ ...read.value, signatures: [...read.value.signatures, line] }),
    };
    expect(verifyReceipt(roundTrip(cosigned), POLICY, { witnesses: WITNESSES })).toEqual({ ok: true, findings: [] });
    // A cosignature by a key the witness policy does not list does not count.
    const stranger = keyPairFromSeed(seed(22));
    const foreign = cosign(read.value.text, { ...WITNESS, ...stranger, name: WITNESS.name }, 1_796_000_000);
    const forged = {
      ...logSigned,
      note: serializeSignedNote({ ...read.value, signatures: [...read.value.signatures, foreign] }),
    };
    expect(verifyReceipt(forged, POLICY, { witnesses: WITNESSES }).findings).toEqual([
      { code: 'unwitnessed-checkpoint', cosigned: 0, quorum: 1 },
    ]);
  });

  it('a checkpoint signed by the entry key, or of another log, or a proof to another index, is refused', async () => {
    const store = await checkpointed(6);
    const r = await receiptOf(store, 'r3');
    const cp = JSON.parse(r.checkpoint) as Record<string, unknown>;
    // Re-signed by the entry key: a /2 policy gives that key no checkpoint role.
    const { signature: _s, ...unsigned } = cp;
    const byEntryKey = signerFromKeyPair(keyPairFromSeed(seed(7)));
    const resigned = buildCheckpoint(
      { ...(unsigned as unknown as UnsignedCheckpoint), keyId: byEntryKey.keyId },
      byEntryKey,
    ).body;
    expect(verifyReceipt({ ...r, checkpoint: resigned }, POLICY).findings).toEqual([
      { code: 'checkpoint-key-not-valid-at-seq' },
    ]);
    const foreign = signerFromKeyPair(OTHER_KEYS);
    const byStranger = buildCheckpoint(
      { ...(unsigned as unknown as UnsignedCheckpoint), keyId: foreign.keyId },
      foreign,
    ).body;
    expect(verifyReceipt({ ...r, checkpoint: byStranger }, POLICY).findings).toEqual([
      { code: 'checkpoint-unknown-key' },
    ]);
    const otherLog = buildCheckpoint(
      { ...(unsigned as unknown as UnsignedCheckpoint), logId: 'log-b' },
      CHECKPOINT_SIGNER,
    ).body;
    expect(verifyReceipt({ ...r, checkpoint: otherLog }, POLICY).findings).toEqual([
      { code: 'checkpoint-of-another-log' },
    ]);
    const shifted = { ...r, inclusion: { ...r.inclusion, leafIndex: 2 } };
    expect(verifyReceipt(shifted, POLICY).findings).toEqual([{ code: 'inclusion-proof-invalid' }]);
    expect(toHex(CHECKPOINT_KEYS.publicKey)).not.toBe(toHex(OTHER_KEYS.publicKey));
  });

  it('one flipped hex digit anywhere in the proof, the entry, the checkpoint or its signature fails the receipt', async () => {
    const store = await checkpointed(13);
    const r = await receiptOf(store, 'r5');
    expect(verifyReceipt(r, POLICY).ok).toBe(true);
    let flipped = 0;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === '0' ? '1' : '0') + s.slice(i + 1);
    // Every digit of every hex run (hashes, digests, key ids, signatures) in the entry and the checkpoint.
    for (const part of ['entry', 'checkpoint'] as const) {
      for (const m of r[part].matchAll(/[0-9a-f]{32,}/g)) {
        for (let i = m.index; i < m.index + m[0].length; i++) {
          const v = verifyReceipt({ ...r, [part]: flip(r[part], i) }, POLICY);
          expect(v.ok, `${part}[${i}]`).toBe(false);
          flipped += 1;
        }
      }
    }
    for (const [h, hash] of r.inclusion.path.entries())
      for (let i = 0; i < hash.length; i++) {
        const path = r.inclusion.path.map((x, j) => (j === h ? flip(x, i) : x));
        expect(verifyReceipt({ ...r, inclusion: { ...r.inclusion, path } }, POLICY).ok).toBe(false);
        flipped += 1;
      }
    expect(r.inclusion.path.length).toBe(4);
    expect(flipped).toBeGreaterThan(1000);
  });

  it('the serializer refuses a receipt that breaks the format, and the reader refuses duplicate members', () => {
    const good: Receipt = {
      entry: 'x',
      checkpoint: 'y',
      note: null,
      inclusion: { leafIndex: 0, treeSize: 1, path: [] },
    };
    expect(() => receiptText({ ...good, inclusion: { leafIndex: 1, treeSize: 1, path: [] } })).toThrow(
      ReceiptInvariantError,
    );
    expect(() => receiptText({ ...good, inclusion: { leafIndex: 0, treeSize: 2, path: ['AB'] } })).toThrow(
      ReceiptInvariantError,
    );
    const text = receiptText(good);
    expect(readReceipt(utf8Bytes(text)).ok).toBe(true);
    const dup = text.replace('{"checkpoint":"y"', '{"checkpoint":"y","checkpoint":"z"');
    expect(readReceipt(utf8Bytes(dup))).toMatchObject({ ok: false, error: { code: 'receipt-malformed' } });
    expect(readReceipt(utf8Bytes(canonicalText({ ...JSON.parse(text), extra: 1 }))).ok).toBe(false);
  });

  it('the published schema accepts a built receipt and rejects one with an extra member or a bad path hash', async () => {
    const ajv = new Ajv2020Module.default({ allErrors: true, strict: true, strictTypes: false });
    const valid = ajv.compile(receiptSchema);
    const r = JSON.parse(receiptText(await receiptOf(await checkpointed(5), 'r3'))) as Record<string, unknown>;
    expect(valid(r), JSON.stringify(valid.errors)).toBe(true);
    expect(valid({ ...r, extra: 1 })).toBe(false);
    const inclusion = r.inclusion as { path: string[] };
    expect(valid({ ...r, inclusion: { ...inclusion, path: ['AB'.repeat(32)] } })).toBe(false);
  });
});
