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
import type { UnsignedEntry } from '../core/ledger/entries/entry-types.js';
import { keyPairFromSeed, signerFromKeyPair, verifyEd25519 } from '../core/ledger/primitives/signature.js';
import { readRequest } from '../core/admission/index.js';
import { readResultNotification, resultNotificationFor } from '../core/pipeline/result-notification.js';
import { verifyResultEntry } from '../core/pipeline/result-verdict.js';
import { bestPerSecond as perSecond } from './support/timing.js';
import { benchPolicy } from './support/generated-ledger.js';

const keys = keyPairFromSeed(new Uint8Array(32).fill(3));
const checkpointKeys = keyPairFromSeed(new Uint8Array(32).fill(4));
const BUILD = sha256Hex('bench build');
const PACK = sha256Hex('bench pack');
const FACTS = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const REQUEST = `{"format":"docket.evaluation-request/1","requestId":"bench-1","pack":"sha256:${PACK}","facts":${FACTS}}`;
const policy = benchPolicy({ keys, checkpointKey: checkpointKeys, logIds: ['log-0'], evaluatorBuilds: [BUILD] });
const disposition = { kind: 'outcome', outcomeId: 'onboard', reasons: [], handoff: { state: 'none' } };
const unsigned = {
  format: 'docket.ledger-entry/1',
  kind: 'disposition',
  logId: 'log-0',
  seq: 41,
  prevHash: sha256Hex('prev'),
  requestId: 'bench-1',
  requestDigest: sha256Hex(REQUEST),
  correlation: { ticket: 'OPS-1234' },
  pack: { id: 'https://packs.example.org/procurement/vendor-onboarding', version: '2.1.0', digest: PACK },
  specVersion: '0.3.0',
  factsDigest: sha256Hex(FACTS),
  evidenceDigest: null,
  supportedExtensions: [],
  workBudget: 1000000,
  work: 412,
  evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD },
  time: '2026-12-04T06:00:00Z',
  keyId: keys.keyId,
  disposition,
  dispositionDigest: sha256Hex(
    JSON.stringify({ handoff: { state: 'none' }, kind: 'outcome', outcomeId: 'onboard', reasons: [] }),
  ),
} as unknown as UnsignedEntry;
const built = buildEntry(unsigned, signerFromKeyPair(keys));
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
const bare = (): boolean => verifyEd25519(fromHex(built.entry.signature), message0, keys.publicKey);
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
