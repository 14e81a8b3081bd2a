/** verify --witnesses with k-of-n: the quorum counts distinct policy witnesses, and the quorum's time is its k-th newest. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOW, W1, WITNESSED_AT } from '../../conformance/ledger/witness-scenarios.js';
import { testKey } from '../../conformance/ledger/fixtures.js';
import { cosign, type WitnessKey } from '../../core/ledger/witness/cosignature.js';
import { readNotesExport } from '../../core/ledger/export/notes-export.js';
import { readSignedNote, serializeSignedNote } from '../../core/ledger/notes/signed-note.js';
import { verifyExportFiles } from '../../core/ledger/verify/index.js';
import { readWitnessPolicy, witnessPolicyDocument } from '../../core/ledger/witness/witness-policy.js';

const k2 = testKey('witness-2');
const W2: WitnessKey = { name: 'auditor.example/w2', publicKey: k2.publicKey, secretKey: k2.secretKey };
const dir = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'witness', 'witnessed-honest');
const read = (f: string) => new Uint8Array(readFileSync(join(dir, f)));
const notes = readNotesExport(read('cosigned.json'));
if (!notes.ok) throw new Error('corpus notes');

/** The honest notes (W1 cosigned at WITNESSED_AT) with a cosignature by `w` at `time` added (or not). */
const withCosigner = (w: WitnessKey | null, time: number) =>
  notes.value.map((n) => {
    const s = readSignedNote(n.note);
    if (!s.ok || w === null) return n.note;
    return serializeSignedNote({
      text: s.value.text,
      signatures: [...s.value.signatures, cosign(s.value.text, w, time)],
    });
  });

async function findings(quorum: number, noteTexts: string[], maxAgeSeconds = 86_400) {
  const policy = readWitnessPolicy(
    new TextEncoder().encode(
      witnessPolicyDocument({
        quorum,
        maxAgeSeconds,
        witnesses: [
          { name: W1.name, publicKey: W1.publicKey },
          { name: W2.name, publicKey: W2.publicKey },
        ],
      }),
    ),
  );
  if (!policy.ok) throw new Error(policy.error.detail);
  const r = await verifyExportFiles(
    { ledger: read('ledger.jsonl'), policy: read('policy.json'), checkpoints: read('checkpoints.json') },
    { witnesses: { policy: policy.value, notes: noteTexts, now: NOW } },
  );
  if (!r.ok) throw new Error(r.error.detail);
  return r.value.findings.map((f) => `${f.code}:${f.logId}`);
}

describe('verify --witnesses with a quorum of two', () => {
  it('one cosigner of two is not a quorum: both logs are unwitnessed', async () => {
    expect(await findings(2, withCosigner(null, 0))).toEqual(['unwitnessed-anchor:log-a', 'unwitnessed-anchor:log-b']);
  });

  it('the same witness twice (two lines, two times) still counts once', async () => {
    expect(await findings(2, withCosigner(W1, WITNESSED_AT + 60))).toEqual([
      'unwitnessed-anchor:log-a',
      'unwitnessed-anchor:log-b',
    ]);
  });

  it('two distinct witnesses make the quorum; one of two is enough with a quorum of one', async () => {
    expect(await findings(2, withCosigner(W2, WITNESSED_AT))).toEqual([]);
    expect(await findings(1, withCosigner(null, 0))).toEqual([]);
  });

  it('cosignatures of the same checkpoint from separate sources are pooled', async () => {
    const w2Only = notes.value.map((n) => {
      const s = readSignedNote(n.note);
      if (!s.ok) throw new Error('note');
      return serializeSignedNote({
        text: s.value.text,
        signatures: [s.value.signatures[0]!, cosign(s.value.text, W2, WITNESSED_AT)],
      });
    });
    expect(await findings(2, [...withCosigner(null, 0), ...w2Only])).toEqual([]);
  });

  it("the quorum's time is its second-newest cosignature: an old second cosigner makes the anchor stale", async () => {
    const old = NOW - 3 * 86_400;
    expect(await findings(2, withCosigner(W2, old))).toEqual(['stale-anchor:log-a', 'stale-anchor:log-b']);
    expect(await findings(1, withCosigner(W2, old))).toEqual([]);
  });
});
