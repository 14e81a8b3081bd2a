/**
 * The receipt corpus (conformance/ledger/receipts/<name>/): portable receipts, honest and tampered, each a frozen
 * scenario — `receipt.json`, `policy.json`, optional `witness-policy.json` and `facts.json`, and `expected.json`
 * with the findings written here by hand from docs/verify.md "Receipts", never copied from the verifier's output.
 *
 * Base: log-a, seven honest entries signed by the entry key K1 (facts digest of FACTS for every entry), a
 * docket.checkpoint/2 of all seven signed by the separate checkpoint key KC under the prod authority, its checkpoint
 * note signed by KC and cosigned by witness W1. The trust policy is /2: K1 signs entries, KC checkpoints, of log-a.
 * The receipt is for the evaluation-error entry at seq 4 (a path of three hashes).
 */
import { sha256Hex, toHex } from '../../core/ledger/primitives/bytes.js';
import { buildCheckpoint, CHECKPOINT_FORMAT } from '../../core/ledger/checkpoints/checkpoint.js';
import { checkpointOrigin, signCheckpointNote } from '../../core/ledger/checkpoints/checkpoint-note.js';
import { cosign } from '../../core/ledger/witness/cosignature.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { fromHex } from '../../core/ledger/primitives/bytes.js';
import { inclusionProof } from '../../core/ledger/checkpoints/merkle.js';
import { receiptText, type Receipt } from '../../core/ledger/receipts/receipt.js';
import type { ReceiptFinding } from '../../core/ledger/receipts/receipt-verify.js';
import { signEd25519, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { readSignedNote, serializeSignedNote } from '../../core/ledger/notes/signed-note.js';
import { witnessPolicyDocument } from '../../core/ledger/witness/witness-policy.js';
import { buildLog, K1, KC, policyText, PROD, rootOf, signRaw, STAGING, testKey, type Rec } from './fixtures.js';

const LOG = 'log-a';
const SEQ = 4;
const SIZE = 7;
/** The facts document every base entry records the digest of. */
export const FACTS = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const W1 = testKey('receipt witness 1');
const W1_NAME = 'auditor.example/receipts-w1';
const COSIGNED_AT = 1_796_126_400;

const from0 = [{ logId: LOG, fromSeq: 0, toSeq: null }];
const POLICY = policyText(
  [LOG],
  [
    { keys: K1, role: 'entries', validity: from0 },
    { keys: KC, role: 'checkpoints', validity: from0 },
  ],
);
const WITNESS_POLICY = witnessPolicyDocument({
  quorum: 1,
  maxAgeSeconds: 86_400,
  witnesses: [{ name: W1_NAME, publicKey: W1.publicKey }],
});

/** The same keys as a docket.trust-policy/3 permitting rfc0008-quantifiers on log-a (ADR 0222). */
const POLICY_PERMITTING_DRAFT = `${JSON.stringify(
  {
    ...(JSON.parse(POLICY) as Record<string, unknown>),
    format: 'docket.trust-policy/3',
    draftFeatures: [{ logId: LOG, allow: ['rfc0008-quantifiers'] }],
  },
  null,
  2,
)}\n`;

interface Scenario {
  readonly receipt: Receipt;
  /** The scenario's trust policy when not the base /2 one. */
  readonly policy?: string;
  readonly witnesses?: boolean;
  readonly facts?: string;
  readonly findings: readonly ReceiptFinding[];
}

// Admission refusals (every third entry) record no facts digest. `draftAt4`: entry 4 is a docket.ledger-entry/2
// evaluated with rfc0008-quantifiers (ADR 0220).
const log = (draftAt4 = false): Rec[] =>
  buildLog(
    LOG,
    SIZE,
    () => K1,
    (seq) => ({
      ...(seq % 3 === 2 ? {} : { factsDigest: sha256Hex(FACTS) }),
      ...(draftAt4 && seq === SEQ ? { format: 'docket.ledger-entry/2', draftFeatures: ['rfc0008-quantifiers'] } : {}),
    }),
  );

function checkpointBody(recs: readonly Rec[], over: Record<string, unknown> = {}, keys = KC): string {
  return buildCheckpoint(
    {
      format: CHECKPOINT_FORMAT,
      logId: LOG,
      treeSize: SIZE,
      rootHash: rootOf(recs, SIZE),
      chainHead: entryHashOf(recs[SIZE - 1]!.body),
      keyId: keys.keyId,
      origin: PROD,
      time: '2026-12-01T11:00:07Z',
      entriesVerified: true,
      ...over,
    } as never,
    signerFromKeyPair(keys),
  ).body;
}

async function noteOf(recs: readonly Rec[], cosigned: boolean, size = SIZE): Promise<string> {
  const note = await signCheckpointNote(
    { origin: checkpointOrigin(PROD, LOG), treeSize: size, rootHash: fromHex(rootOf(recs, size)), extensions: [] },
    { publicKey: KC.publicKey, sign: (m) => signEd25519(m, KC.secretKey) },
  );
  if (!cosigned) return note;
  const read = readSignedNote(note);
  if (!read.ok) throw new Error(read.error.detail);
  const line = cosign(
    read.value.text,
    { name: W1_NAME, publicKey: W1.publicKey, secretKey: W1.secretKey },
    COSIGNED_AT,
  );
  return serializeSignedNote({ ...read.value, signatures: [...read.value.signatures, line] });
}

async function honest(recs: readonly Rec[] = log(), seq = SEQ): Promise<Receipt> {
  return {
    entry: recs[seq]!.body,
    inclusion: {
      leafIndex: seq,
      treeSize: SIZE,
      path: inclusionProof(
        seq,
        recs.slice(0, SIZE).map((r) => fromHex(entryHashOf(r.body))),
      ).map((h) => toHex(h)),
    },
    checkpoint: checkpointBody(recs),
    note: await noteOf(recs, true),
  };
}

const flipHex = (s: string, at: number): string => s.slice(0, at) + (s[at] === '0' ? '1' : '0') + s.slice(at + 1);

async function scenarios(): Promise<Map<string, Scenario>> {
  const base = await honest();
  const recs = log();
  const sigAt = base.entry.indexOf('"signature":"') + '"signature":"'.length;
  const s = new Map<string, Scenario>();
  s.set('honest', { receipt: base, findings: [] });
  s.set('honest-witnessed-with-facts', { receipt: base, witnesses: true, facts: FACTS, findings: [] });
  s.set('honest-first-entry', { receipt: await honest(recs, 0), witnesses: true, findings: [] });
  s.set('facts-file-differs', {
    receipt: base,
    facts: '{"vendor":{"riskScore":"99","sanctioned":true}}',
    findings: [
      {
        code: 'facts-digest-mismatch',
        recorded: sha256Hex(FACTS),
        // The file as written (with its final newline): `actual` is the digest of the file's exact bytes.
        actual: sha256Hex('{"vendor":{"riskScore":"99","sanctioned":true}}\n'),
      },
    ],
  });
  // An entry signature byte changed: the signature fails, and the leaf hash no longer leads to the root.
  s.set('entry-signature-flipped', {
    receipt: { ...base, entry: flipHex(base.entry, sigAt) },
    findings: [{ code: 'entry-signature-mismatch' }, { code: 'inclusion-proof-invalid' }],
  });
  // The entry re-signed by the checkpoint key: a /2 checkpoint key never signs entries; its bytes are new too.
  const bodyObj = JSON.parse(base.entry) as Record<string, unknown>;
  s.set('entry-signed-by-checkpoint-key', {
    receipt: { ...base, entry: signRaw({ ...bodyObj, keyId: KC.keyId }, KC) },
    findings: [{ code: 'entry-key-not-valid-at-seq' }, { code: 'inclusion-proof-invalid' }],
  });
  // The checkpoint signed by the entry key K1: an entry key of a /2 policy never qualifies for checkpoints.
  s.set('checkpoint-signed-by-entry-key', {
    receipt: { ...base, checkpoint: checkpointBody(recs, {}, K1) },
    findings: [{ code: 'checkpoint-key-not-valid-at-seq' }],
  });
  s.set('checkpoint-of-staging-authority', {
    receipt: { ...base, checkpoint: checkpointBody(recs, { origin: STAGING }) },
    // The note still states the prod origin, so it no longer matches the checkpoint.
    findings: [{ code: 'checkpoint-unauthorized-origin' }, { code: 'note-mismatch' }],
  });
  s.set('proof-hash-flipped', {
    receipt: {
      ...base,
      inclusion: { ...base.inclusion, path: [flipHex(base.inclusion.path[0]!, 63), ...base.inclusion.path.slice(1)] },
    },
    findings: [{ code: 'inclusion-proof-invalid' }],
  });
  s.set('proof-for-another-index', {
    receipt: { ...base, inclusion: { ...base.inclusion, leafIndex: 3 } },
    findings: [{ code: 'inclusion-proof-invalid' }],
  });
  // The honest entry at seq 3 presented with the proof of seq 4.
  s.set('entry-swapped-for-its-neighbour', {
    receipt: { ...base, entry: recs[3]!.body },
    findings: [{ code: 'inclusion-proof-invalid' }],
  });
  s.set('note-of-another-size', {
    receipt: { ...base, note: await noteOf(recs, true, SIZE - 1) },
    findings: [{ code: 'note-mismatch' }],
  });
  s.set('unwitnessed-note', {
    receipt: { ...base, note: await noteOf(recs, false) },
    witnesses: true,
    findings: [{ code: 'unwitnessed-checkpoint', cosigned: 0, quorum: 1 }],
  });
  s.set('no-note-with-witnesses', {
    receipt: { ...base, note: null },
    witnesses: true,
    findings: [{ code: 'unwitnessed-checkpoint', cosigned: 0, quorum: 1 }],
  });
  // A receipt of a /2 entry recording rfc0008-quantifiers: the base /2 policy permits no draft feature (ADR 0222),
  // a /3 policy permitting it on log-a accepts it.
  const draft = await honest(log(true));
  s.set('draft-entry-under-policy-without-draft-features', {
    receipt: draft,
    findings: [{ code: 'draft-features-not-allowed' }],
  });
  s.set('honest-draft-entry-permitted-by-policy', { receipt: draft, policy: POLICY_PERMITTING_DRAFT, findings: [] });
  return s;
}

/** Every corpus file by its path under conformance/ledger/. */
export async function generateReceiptCorpus(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [name, sc] of await scenarios()) {
    const at = (f: string) => `receipts/${name}/${f}`;
    files.set(at('receipt.json'), receiptText(sc.receipt));
    files.set(at('policy.json'), sc.policy ?? POLICY);
    if (sc.witnesses === true) files.set(at('witness-policy.json'), WITNESS_POLICY);
    if (sc.facts !== undefined) files.set(at('facts.json'), `${sc.facts}\n`);
    files.set(
      at('expected.json'),
      `${JSON.stringify({ ok: sc.findings.length === 0, findings: sc.findings }, null, 2)}\n`,
    );
  }
  return files;
}
