/**
 * Proving a result as `docket submit --wait` does (ADR 0290), beside a same-run baseline.
 * Reproduce: npm run build && node dist/bench/result-proof.bench.js
 *
 * One genuine docket.result/2 notification of a disposition entry is built once (resultNotificationFor, what the
 * pipeline publishes). Measured: (a) building it — the publisher's added cost per entry; (b) proving it — strict
 * reading of the notification bytes (carrier, canonical form, the embedded entry), then verifyResultEntry against the
 * request sent (key lookup, strict Ed25519, build, draft features, request/facts/evidence digests, pack).
 * Baseline: one bare strict Ed25519 verification of the entry's signature — the floor of (b).
 */
import { fromHex, sha256Hex, utf8Bytes } from '../core/ledger/primitives/bytes.js';
import { buildEntry } from '../core/ledger/entries/entry.js';
import { signerFromKeyPair, verifyEd25519 } from '../core/ledger/primitives/signature.js';
import { readRequest } from '../core/admission/index.js';
import { readResultNotification, resultNotificationFor } from '../core/pipeline/result-notification.js';
import { verifyResultEntry } from '../core/pipeline/result-verdict.js';
import { K1, PACK_DIGEST, unsignedEntry } from '../conformance/ledger/fixtures.js';
import { bestPerSecond as perSecond } from './support/timing.js';
import { policyFromSeq0, readPolicy } from './support/generated-ledger.js';

const FACTS = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const REQUEST = `{"format":"docket.evaluation-request/1","requestId":"bench-1","pack":"sha256:${PACK_DIGEST}","facts":${FACTS}}`;
const policy = readPolicy(policyFromSeq0(['log-0']));
// The corpus's honest disposition entry (seq 0 of its log), for this request.
const unsigned = unsignedEntry('log-0', 0, null, K1, {
  seq: 41,
  prevHash: sha256Hex('prev'),
  requestId: 'bench-1',
  requestDigest: sha256Hex(REQUEST),
  factsDigest: sha256Hex(FACTS),
});
const built = buildEntry(unsigned, signerFromKeyPair(K1));
const recorded = { entry: built.entry, body: built.body, entryHash: built.entryHash };
const message = resultNotificationFor(recorded);
const bytes = utf8Bytes(message.body);
const requestBytes = utf8Bytes(REQUEST);
const request = readRequest(requestBytes);
if (!request.ok) throw new Error(request.error.message);
const sent = { requestId: 'bench-1', bytes: requestBytes, request: request.value };

const prove = (): boolean => {
  const n = readResultNotification(bytes);
  return n.ok && n.value.entry !== null && verifyResultEntry(n.value.entry, sent, policy).ok;
};
const build = (): boolean => resultNotificationFor(recorded).id === built.entryHash;
function signingMessage(): Uint8Array {
  const n = readResultNotification(bytes);
  if (!n.ok || n.value.entry === null) throw new Error('unreadable');
  return n.value.entry.signingMessage;
}
const message0 = signingMessage();
const bare = (): boolean => verifyEd25519(fromHex(built.entry.signature), message0, K1.publicKey);
if (!prove() || !build() || !bare()) throw new Error('the bench result does not prove');

const base = perSecond(bare, 2000);
const proofs = perSecond(prove, 1000);
const builds = perSecond(build, 1000);
process.stdout.write(
  `node ${process.version}; entry ${built.body.length} bytes, notification ${bytes.length} bytes; best of 3 runs\n` +
    `results proven/s (read + verifyResultEntry): ${Math.round(proofs).toLocaleString('en-US')}\n` +
    `notifications built/s (resultNotificationFor): ${Math.round(builds).toLocaleString('en-US')}\n` +
    `baseline, one strict Ed25519 verify/s:        ${Math.round(base).toLocaleString('en-US')}\n` +
    `ratio: proving one result costs ${(base / proofs).toFixed(2)}× one Ed25519 verification\n`,
);
