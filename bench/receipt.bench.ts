/**
 * Receipt verifications per second, beside a same-run baseline.
 * Reproduce: npm run build && node dist/bench/receipt.bench.js [entries]
 *
 * A log of n honest entries (default 4,096; the corpus's generated log) in the memory store is checkpointed by the
 * verifying writer with a separate checkpoint key, its note is published and cosigned by one witness, and a receipt
 * is built for the middle disposition entry. One verification = strict reading of the receipt bytes, then verifyReceipt with a witness policy and the
 * facts and request files (entry key lookup and Ed25519, checkpoint key lookup and Ed25519, RFC 9162 inclusion over
 * ⌈log₂ n⌉ hashes, note reading, its log signature, the cosignature, two SHA-256 of the inputs).
 * Baseline: one bare strict Ed25519 verification of the entry's signature — a receipt needs at least four
 * (entry, checkpoint, note, cosignature), so about 4× is the floor.
 */
import { sha256, utf8Bytes } from '../core/ledger/primitives/bytes.js';
import { checkpointLog } from '../core/ledger/write/checkpoint-writer.js';
import { cosign } from '../core/ledger/witness/cosignature.js';
import { MemoryLedgerStore } from '../core/ledger/store/memory-store.js';
import { publishCheckpointNote } from '../core/ledger/checkpoints/publish-note.js';
import { readReceipt, receiptText } from '../core/ledger/receipts/receipt.js';
import { buildReceipt } from '../core/ledger/receipts/receipt-build.js';
import { verifyReceipt } from '../core/ledger/receipts/receipt-verify.js';
import { keyPairFromSeed, signerFromKeyPair, verifyEd25519 } from '../core/ledger/primitives/signature.js';
import { readSignedNote, serializeSignedNote } from '../core/ledger/notes/signed-note.js';
import { buildLog, K1, KC, PROD } from '../conformance/ledger/fixtures.js';
import { bestPerSecond as perSecond } from './support/timing.js';
import { policyFromSeq0, readPolicy, signedParts } from './support/generated-ledger.js';

const n = Number(process.argv[2] ?? 4096);
const witnessKey = keyPairFromSeed(sha256(utf8Bytes('receipt bench witness')));
const policy = readPolicy(policyFromSeq0(['log-0']));

const store = new MemoryLedgerStore();
for (const r of buildLog('log-0', n)) {
  await store.putEntryIfAbsent(r);
  await store.putPositionIfAbsent({ requestId: r.projection.requestId, logId: 'log-0', seq: r.seq });
}
const cpSigner = signerFromKeyPair(KC);
const written = await checkpointLog(store, 'log-0', {
  signer: cpSigner,
  policy,
  origin: PROD,
  time: '2026-12-03T12:05:00Z',
});
if (written.status === 'refused') throw new Error('checkpoint refused');
const stored = await publishCheckpointNote(store, written.stored, {
  publicKey: KC.publicKey,
  sign: (m) => cpSigner.sign(m),
});
const read = readSignedNote(stored.note);
if (!read.ok) throw new Error(read.error.detail);
const wk = { name: 'bench.example/w', publicKey: witnessKey.publicKey, secretKey: witnessKey.secretKey };
const line = cosign(read.value.text, wk, 1_796_000_000);
// The disposition entry nearest the middle (the corpus's log rotates disposition, evaluation-error, refusal).
const requestId = `log-0-req-${Math.floor(n / 6) * 3}`;
const built = await buildReceipt(store, requestId);
if (!built.ok) throw new Error(built.error.detail);
const receipt = {
  ...built.value,
  note: serializeSignedNote({ ...read.value, signatures: [...read.value.signatures, line] }),
};
const bytes = utf8Bytes(receiptText(receipt));
const witnesses = { quorum: 1, maxAgeSeconds: 3600, witnesses: [{ name: wk.name, publicKey: wk.publicKey }] };
const inputs = { facts: utf8Bytes(`facts ${requestId}`), request: utf8Bytes(`request ${requestId}`) };

const verifyOnce = (): boolean => {
  const r = readReceipt(bytes);
  return r.ok && verifyReceipt(r.value, policy, { witnesses, inputs }).ok;
};
if (!verifyOnce()) throw new Error('the bench receipt does not verify');
const signed = signedParts(receipt.entry);
const baseline = (): boolean => verifyEd25519(signed.signature, signed.message, K1.publicKey);

const base = perSecond(baseline, 2000);
const rec = perSecond(verifyOnce, 500);
process.stdout.write(
  `node ${process.version}; ${n} entries, proof of ${receipt.inclusion.path.length} hashes, receipt ${bytes.length} bytes; best of 3 runs\n` +
    `receipt verifications/s (with witness quorum and two input files): ${Math.round(rec).toLocaleString('en-US')}\n` +
    `baseline, one strict Ed25519 verify/s:                         ${Math.round(base).toLocaleString('en-US')}\n` +
    `ratio: one receipt costs ${(base / rec).toFixed(2)}× one Ed25519 verification\n`,
);
