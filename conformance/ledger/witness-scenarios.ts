/**
 * The witness corpus (conformance/ledger/witness/): attacks that only someone outside the operator's control can
 * expose, each a frozen scenario with the findings written here by hand from docs/verify.md "Witnesses" — never
 * copied from the verifier's or the witness's output.
 *
 * Base: logs log-a and log-b, six honest entries each, signed by K1 (the policy pins K1 for both logs); Docket
 * checkpoints at sizes 4 and 6 of each log; checkpoint notes (C2SP tlog-checkpoint, signed by K1 under the origin
 * docket/prod/docket-prod-ledger/<log>) cosigned by witness W1 at WITNESSED_AT. The witness policy trusts W1 alone
 * (quorum 1, maxAgeSeconds 86400); verify runs at NOW, one hour after WITNESSED_AT.
 *
 * A scenario is a verify scenario (ledger + policy + checkpoints + cosigned notes → expected findings) and/or a
 * witness scenario (witness state + add-checkpoint request → expected status and refusal).
 */
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { checkpointOrigin, signCheckpointNote } from '../../core/ledger/checkpoints/checkpoint-note.js';
import { cosign, type WitnessKey } from '../../core/ledger/witness/cosignature.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { fromHex } from '../../core/ledger/primitives/bytes.js';
import { consistencyProof } from '../../core/ledger/checkpoints/merkle.js';
import { notesExportText } from '../../core/ledger/export/notes-export.js';
import { serializeSignedNote, readSignedNote } from '../../core/ledger/notes/signed-note.js';
import { signEd25519 } from '../../core/ledger/primitives/signature.js';
import type { Position, StoredCheckpoint } from '../../core/ledger/store/store.js';
import { compareFindings, type Finding } from '../../core/ledger/verify/findings.js';
import { MARKERS_FORMAT } from '../../core/ledger/verify/markers.js';
import { serializeAddCheckpointRequest, type WitnessRefusal } from '../../core/ledger/witness/add-checkpoint.js';
import { witnessPolicyDocument } from '../../core/ledger/witness/witness-policy.js';
import { serializeWitnessState } from '../../core/ledger/witness/witness-state.js';
import {
  bodyOf,
  buildLog,
  checkpointOf,
  checkpointsText,
  exportText,
  K1,
  KF,
  policyText,
  PROD,
  recordOf,
  rootOf,
  signRaw,
  testKey,
  type Rec,
} from './fixtures.js';

/** 2026-12-01T12:00:00Z: when W1 cosigned. */
export const WITNESSED_AT = 1_796_126_400;
/** One hour later: when verify runs. */
export const NOW = WITNESSED_AT + 3600;
const MAX_AGE = 86_400;

const wk = (label: string, name: string): WitnessKey => {
  const k = testKey(label);
  return { name, publicKey: k.publicKey, secretKey: k.secretKey };
};
export const W1 = wk('witness-1', 'auditor.example/w1');

export const WITNESS_POLICY = witnessPolicyDocument({
  quorum: 1,
  maxAgeSeconds: MAX_AGE,
  witnesses: [{ name: W1.name, publicKey: W1.publicKey }],
});

const POLICY = policyText(
  ['log-a', 'log-b'],
  [
    {
      keys: K1,
      validity: [
        { logId: 'log-a', fromSeq: 0, toSeq: null },
        { logId: 'log-b', fromSeq: 0, toSeq: null },
      ],
    },
  ],
);

export interface WitnessScenario {
  readonly name: string;
  readonly description: string;
  readonly verify?: {
    readonly ledger: readonly Rec[];
    readonly checkpoints: readonly StoredCheckpoint[];
    readonly markers?: readonly Position[];
    /** Cosigned checkpoint notes the auditor gathered (docket.checkpoint-notes/1). */
    readonly cosigned: readonly { logId: string; treeSize: number; note: string }[];
    readonly expected: readonly Finding[];
  };
  readonly witness?: {
    readonly state: string;
    readonly request: string;
    readonly expected: { readonly status: number; readonly refusal: WitnessRefusal | null };
  };
}

const leavesOf = (recs: readonly Rec[], n: number): Uint8Array[] =>
  recs.slice(0, n).map((r) => fromHex(entryHashOf(r.body)));

const logSigner = (keys = K1) => ({
  publicKey: keys.publicKey,
  sign: async (m: Uint8Array) => signEd25519(m, keys.secretKey),
});

async function logNote(recs: readonly Rec[], logId: string, size: number, keys = K1): Promise<string> {
  return signCheckpointNote(
    { origin: checkpointOrigin(PROD, logId), treeSize: size, rootHash: fromHex(rootOf(recs, size)), extensions: [] },
    logSigner(keys),
  );
}

/** A note with W1's cosignature at `time` appended. */
function cosigned(note: string, time = WITNESSED_AT, w = W1): string {
  const n = readSignedNote(note);
  if (!n.ok) throw new Error(n.error.detail);
  return serializeSignedNote({
    text: n.value.text,
    signatures: [...n.value.signatures, cosign(n.value.text, w, time)],
  });
}

async function cosignedAt(recs: readonly Rec[], logId: string, size: number, time = WITNESSED_AT) {
  return { logId, treeSize: size, note: cosigned(await logNote(recs, logId, size), time) };
}

/** The witness state after W1 cosigned `recs` of one log at `size`. */
async function stateAfter(recs: readonly Rec[], logId: string, size: number): Promise<string> {
  const note = cosigned(await logNote(recs, logId, size));
  return serializeWitnessState(
    new Map([
      [
        checkpointOrigin(PROD, logId),
        { origin: checkpointOrigin(PROD, logId), treeSize: size, rootHash: fromHex(rootOf(recs, size)), note },
      ],
    ]),
  );
}

const positionsOf = (recs: readonly Rec[]): Position[] =>
  recs.map((r) => ({ requestId: r.projection.requestId, logId: r.logId, seq: r.seq }));

/** log-a rewritten from seq `from` on by the key holder (other outcomes, re-signed, re-chained): a fork. */
function forkOf(a: readonly Rec[], from: number): Rec[] {
  const out = a.slice(0, from);
  for (let i = from; i < a.length; i++) {
    const o = bodyOf(a[i] as Rec);
    o.prevHash = entryHashOf((out[i - 1] as Rec).body);
    o.requestId = `log-a-forked-req-${i}`;
    out.push(recordOf(signRaw(o, K1), 'log-a', i));
  }
  return out;
}

function base() {
  const a = buildLog('log-a', 6);
  const b = buildLog('log-b', 6);
  const cps = [
    checkpointOf(a, 'log-a', 4),
    checkpointOf(a, 'log-a', 6),
    checkpointOf(b, 'log-b', 4),
    checkpointOf(b, 'log-b', 6),
  ];
  return { a, b, cps };
}

export async function witnessScenarios(): Promise<WitnessScenario[]> {
  const out: WitnessScenario[] = [];
  const { a, b, cps } = base();
  const honestNotes = [await cosignedAt(a, 'log-a', 6), await cosignedAt(b, 'log-b', 6)];

  out.push({
    name: 'witnessed-honest',
    description: 'Two honest logs whose newest checkpoints W1 cosigned an hour ago: ok.',
    verify: {
      ledger: [...a, ...b],
      checkpoints: cps,
      markers: positionsOf([...a, ...b]),
      cosigned: honestNotes,
      expected: [],
    },
  });

  out.push({
    name: 'tail-deleted-with-markers',
    description:
      'Entries 4–5 of log-a, their position markers, the checkpoint of size 6 and its note are deleted from the table; W1 remembers size 6.',
    verify: {
      ledger: [...a.slice(0, 4), ...b],
      checkpoints: cps.filter((c) => !(c.logId === 'log-a' && c.treeSize === 6)),
      markers: positionsOf([...a.slice(0, 4), ...b]),
      cosigned: honestNotes,
      expected: [{ code: 'rollback', logId: 'log-a', treeSize: 6, entries: 4 }],
    },
  });

  out.push({
    name: 'rollback-table-checkpoints-removed',
    description:
      'log-a is rolled back to size 2 and every table checkpoint and note above 2 is removed; a checkpoint of size 2 is all the table shows. W1 remembers size 6.',
    verify: {
      ledger: [...a.slice(0, 2), ...b],
      checkpoints: [checkpointOf(a, 'log-a', 2), ...cps.filter((c) => c.logId === 'log-b')],
      cosigned: honestNotes,
      expected: [{ code: 'rollback', logId: 'log-a', treeSize: 6, entries: 2 }],
    },
  });

  out.push({
    name: 'stale-checkpoint-file',
    description:
      'log-a is rolled back to size 4 and presented with the checkpoint file of that time (sizes 4 only); W1 cosigned size 6 since.',
    verify: {
      ledger: [...a.slice(0, 4), ...b],
      checkpoints: [checkpointOf(a, 'log-a', 4), ...cps.filter((c) => c.logId === 'log-b')],
      cosigned: honestNotes,
      expected: [{ code: 'rollback', logId: 'log-a', treeSize: 6, entries: 4 }],
    },
  });

  out.push({
    name: 'stale-witness-evidence',
    description:
      'log-a rolled back to size 4 with the old checkpoint file and the old cosigned note of size 4 (two days old); the newer cosignature is withheld.',
    verify: {
      ledger: [...a.slice(0, 4), ...b],
      checkpoints: [checkpointOf(a, 'log-a', 4), ...cps.filter((c) => c.logId === 'log-b')],
      cosigned: [await cosignedAt(a, 'log-a', 4, NOW - 2 * 86_400), honestNotes[1]!],
      expected: [{ code: 'stale-anchor', logId: 'log-a', treeSize: 4, witnessedAt: NOW - 2 * 86_400 }],
    },
  });

  out.push({
    name: 'unwitnessed-newest-checkpoint',
    description: 'log-a has a valid checkpoint of size 6 that no witness cosigned (W1 cosigned only size 4).',
    verify: {
      ledger: [...a, ...b],
      checkpoints: cps,
      cosigned: [await cosignedAt(a, 'log-a', 4), honestNotes[1]!],
      expected: [{ code: 'unwitnessed-anchor', logId: 'log-a', treeSize: 6 }],
    },
  });

  out.push({
    name: 'forged-cosignature',
    description:
      "The note of log-a size 6 carries a cosignature line in W1's name made with another key: it counts as none.",
    verify: {
      ledger: [...a, ...b],
      checkpoints: cps,
      cosigned: [
        {
          logId: 'log-a',
          treeSize: 6,
          note: cosigned(await logNote(a, 'log-a', 6), WITNESSED_AT, { ...W1, secretKey: KF.secretKey }),
        },
        honestNotes[1]!,
      ],
      expected: [{ code: 'unwitnessed-anchor', logId: 'log-a', treeSize: 6 }],
    },
  });

  // The key holder forks log-a after W1 cosigned size 4: entries 2–5 rewritten and re-signed, new checkpoints.
  const fork = forkOf(a, 2);
  out.push({
    name: 'equivocation-fork-later-size',
    description:
      'W1 cosigned log-a size 4; the log then presents a forked size 6 (entries 2–5 rewritten by the key holder) with the proof its ledger yields: 422, not cosigned.',
    witness: {
      state: await stateAfter(a, 'log-a', 4),
      request: serializeAddCheckpointRequest({
        oldSize: 4,
        proof: consistencyProof(4, leavesOf(fork, 6)),
        note: await logNote(fork, 'log-a', 6),
      }),
      expected: { status: 422, refusal: 'inconsistent' },
    },
    verify: {
      ledger: [...fork, ...b],
      checkpoints: [
        checkpointOf(fork, 'log-a', 4),
        checkpointOf(fork, 'log-a', 6),
        ...cps.filter((c) => c.logId === 'log-b'),
      ],
      cosigned: [await cosignedAt(a, 'log-a', 4), honestNotes[1]!],
      expected: [
        { code: 'rollback', logId: 'log-a', treeSize: 4, entries: 6 },
        { code: 'unwitnessed-anchor', logId: 'log-a', treeSize: 6 },
      ],
    },
  });

  out.push({
    name: 'equivocation-same-size',
    description:
      'W1 cosigned log-a size 4; the log presents another size-4 checkpoint of the fork with old 4: 422, not cosigned — the old size matches and the empty proof between equal sizes fails (ADR 0301). Until ADR 0301 this was 409 (ADR 0132), whose body stated the size the client had sent, so a client retrying from it looped.',
    witness: {
      state: await stateAfter(a, 'log-a', 4),
      request: serializeAddCheckpointRequest({ oldSize: 4, proof: [], note: await logNote(fork, 'log-a', 4) }),
      expected: { status: 422, refusal: 'equivocation' },
    },
  });

  out.push({
    name: 'equivocation-same-size-old-zero',
    description:
      'W1 cosigned log-a size 4; a client that does not know it sends the fork’s size-4 checkpoint with old 0: 409 stating 4 (the old size is checked first), not cosigned; its retry from 4 is equivocation-same-size.',
    witness: {
      state: await stateAfter(a, 'log-a', 4),
      request: serializeAddCheckpointRequest({ oldSize: 0, proof: [], note: await logNote(fork, 'log-a', 4) }),
      expected: { status: 409, refusal: 'size-mismatch' },
    },
  });

  out.push({
    name: 'witness-rollback-request',
    description: 'W1 cosigned log-a size 6; the log presents its checkpoint of size 2 (old 6): 400, not cosigned.',
    witness: {
      state: await stateAfter(a, 'log-a', 6),
      request: serializeAddCheckpointRequest({ oldSize: 6, proof: [], note: await logNote(a, 'log-a', 2) }),
      expected: { status: 400, refusal: 'rollback' },
    },
  });

  out.push({
    name: 'witness-honest-extension',
    description: 'W1 cosigned log-a size 4; the honest size 6 with its proof is cosigned (200).',
    witness: {
      state: await stateAfter(a, 'log-a', 4),
      request: serializeAddCheckpointRequest({
        oldSize: 4,
        proof: consistencyProof(4, leavesOf(a, 6)),
        note: await logNote(a, 'log-a', 6),
      }),
      expected: { status: 200, refusal: null },
    },
  });

  return out;
}

/** The corpus files, relative to conformance/ledger/: witness/<name>/{…, expected.json} and witness/index.json. */
export async function generateWitnessCorpus(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const index: { name: string; description: string }[] = [];
  for (const s of await witnessScenarios()) {
    const dir = `witness/${s.name}`;
    const expected: Record<string, unknown> = { name: s.name, description: s.description };
    if (s.verify !== undefined) {
      files.set(`${dir}/ledger.jsonl`, exportText(s.verify.ledger));
      files.set(`${dir}/policy.json`, POLICY);
      files.set(`${dir}/checkpoints.json`, checkpointsText(s.verify.checkpoints));
      files.set(`${dir}/witness-policy.json`, WITNESS_POLICY);
      files.set(`${dir}/cosigned.json`, notesExportText(s.verify.cosigned));
      if (s.verify.markers !== undefined)
        files.set(
          `${dir}/markers.json`,
          `${canonicalText({ format: MARKERS_FORMAT, positions: s.verify.markers.map((p) => ({ logId: p.logId, requestId: p.requestId, seq: p.seq })) })}\n`,
        );
      const findings = [...s.verify.expected].sort(compareFindings);
      expected.verify = { now: NOW, ok: findings.length === 0, findings };
    }
    if (s.witness !== undefined) {
      files.set(`${dir}/policy.json`, POLICY);
      files.set(`${dir}/witness-state.json`, s.witness.state);
      files.set(`${dir}/add-checkpoint.txt`, s.witness.request);
      expected.witness = { now: NOW, ...s.witness.expected };
    }
    files.set(`${dir}/expected.json`, `${JSON.stringify(expected, null, 2)}\n`);
    index.push({ name: s.name, description: s.description });
  }
  files.set('witness/index.json', `${JSON.stringify(index, null, 2)}\n`);
  return files;
}
