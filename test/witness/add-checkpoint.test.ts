import { describe, expect, test } from 'vitest';
import { utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { cosignatureKeyId } from '../../core/ledger/witness/cosignature.js';
import { signEd25519 } from '../../core/ledger/primitives/signature.js';
import { encodeBase64, readSignedNote } from '../../core/ledger/notes/signed-note.js';
import {
  readAddCheckpointRequest,
  serializeAddCheckpointRequest,
  witnessAddCheckpoint,
  type WitnessContext,
} from '../../core/ledger/witness/add-checkpoint.js';
import { emptyWitnessState, type WitnessState } from '../../core/ledger/witness/witness-state.js';
import { leaves, LOG_KEYS, noteFor, OTHER_KEYS, ORIGIN, POLICY, proofBetween, signerOf, WITNESS } from './fixtures.js';
import { checkpointOrigin, signCheckpointNote } from '../../core/ledger/checkpoints/checkpoint-note.js';
import { merkleRoot } from '../../core/ledger/checkpoints/merkle.js';

const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const ctx: WitnessContext = { policy: POLICY, knowsOrigin: (o) => o === ORIGIN, key: WITNESS, now: NOW };

/** The cosignature line, built here from tlog-cosignature's rules alone (not through core/ledger/witness/cosignature.ts). */
function expectedCosignatureLine(noteText: string, time: number): string {
  const msg = `cosignature/v1\ntime ${time}\n${noteText}`;
  const sig = signEd25519(utf8Bytes(msg), WITNESS.secretKey);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(time));
  const blob = Buffer.concat([Buffer.from(cosignatureKeyId(WITNESS)), ts, Buffer.from(sig)]);
  return `— ${WITNESS.name} ${blob.toString('base64')}\n`;
}

async function accept(size: number, state: WitnessState = emptyWitnessState()): Promise<WitnessState> {
  const old = state.get(ORIGIN)?.treeSize ?? 0;
  const body = serializeAddCheckpointRequest({
    oldSize: old,
    proof: proofBetween(old, size),
    note: await noteFor(size),
  });
  const out = witnessAddCheckpoint(body, state, ctx);
  expect(out.response.status).toBe(200);
  return out.state!;
}

describe('the tlog-witness add-checkpoint exchange', () => {
  test('a first checkpoint with old 0 and no proof is cosigned: 200 with exactly the cosignature line', async () => {
    const note = await noteFor(4);
    const body = `old 0\n\n${note}`;
    const out = witnessAddCheckpoint(body, emptyWitnessState(), ctx);
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    expect(text).toBe(`${ORIGIN}\n4\n${encodeBase64(merkleRoot(leaves(4)))}\n`);
    expect(out.response.status).toBe(200);
    expect(out.response.body).toBe(expectedCosignatureLine(text, NOW));
    expect(out.state!.get(ORIGIN)!.treeSize).toBe(4);
    expect(out.cosignedNote).toBe(`${note}${expectedCosignatureLine(text, NOW)}`);
  });

  test('the request serializer emits old, the proof lines, an empty line, then the note', async () => {
    const proof = proofBetween(3, 6);
    const note = await noteFor(6);
    const body = serializeAddCheckpointRequest({ oldSize: 3, proof, note });
    expect(body).toBe(`old 3\n${proof.map((h) => `${Buffer.from(h).toString('base64')}\n`).join('')}\n${note}`);
    const back = readAddCheckpointRequest(body);
    expect(back.ok && back.value.oldSize === 3 && back.value.proof.length === proof.length).toBe(true);
  });

  test('a later checkpoint with a valid consistency proof from the cosigned size is cosigned', async () => {
    const s4 = await accept(4);
    const body = `old 4\n${proofBetween(4, 6)
      .map((h) => `${encodeBase64(h)}\n`)
      .join('')}\n${await noteFor(6)}`;
    const out = witnessAddCheckpoint(body, s4, ctx);
    expect(out.response.status).toBe(200);
    expect(out.state!.get(ORIGIN)!.treeSize).toBe(6);
  });

  test('an unknown origin is 404', async () => {
    const note = await noteFor(
      4,
      Infinity,
      signerOf(OTHER_KEYS),
      checkpointOrigin({ environment: 'x', table: 'yyy' }, 'log-0'),
    );
    const out = witnessAddCheckpoint(`old 0\n\n${note}`, emptyWitnessState(), ctx);
    expect(out.response.status).toBe(404);
    expect(out.refusal).toBe('unknown-origin');
  });

  test('a checkpoint no trusted log key signed is 403', async () => {
    const note = await noteFor(4, Infinity, signerOf(OTHER_KEYS));
    const out = witnessAddCheckpoint(`old 0\n\n${note}`, emptyWitnessState(), ctx);
    expect([out.response.status, out.refusal]).toEqual([403, 'no-trusted-log-signature']);
  });

  test('old size larger than the checkpoint size is 400 (a rollback)', async () => {
    const s6 = await accept(6);
    const out = witnessAddCheckpoint(`old 6\n\n${await noteFor(4)}`, s6, ctx);
    expect([out.response.status, out.refusal, out.state]).toEqual([400, 'rollback', null]);
  });

  test('old size other than the cosigned size is 409 with the cosigned size as text/x.tlog.size', async () => {
    const s4 = await accept(4);
    const out = witnessAddCheckpoint(`old 0\n\n${await noteFor(6)}`, s4, ctx);
    expect(out.response).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '4\n' });
  });

  test('the same size with another root is 422 (equivocation), not a 409 whose size would send the client back', async () => {
    const s4 = await accept(4);
    const out = witnessAddCheckpoint(`old 4\n\n${await noteFor(4, 2)}`, s4, ctx);
    expect([out.response.status, out.response.contentType]).toEqual([422, 'text/plain; charset=utf-8']);
    expect([out.refusal, out.state]).toEqual(['equivocation', null]);
    // The same checkpoint again is consistent with itself: cosigned afresh.
    expect(witnessAddCheckpoint(`old 4\n\n${await noteFor(4)}`, s4, ctx).response.status).toBe(200);
  });

  test('a forked later checkpoint is 422: its proof cannot reach the cosigned root', async () => {
    const s4 = await accept(4);
    const forked = `old 4\n${proofBetween(4, 6, 2)
      .map((h) => `${encodeBase64(h)}\n`)
      .join('')}\n${await noteFor(6, 2)}`;
    const out = witnessAddCheckpoint(forked, s4, ctx);
    expect([out.response.status, out.refusal, out.state]).toEqual([422, 'inconsistent', null]);
  });

  test('a witness that skips the consistency check cosigns the fork (what the teeth test relies on)', async () => {
    const s4 = await accept(4);
    const forked = `old 4\n${proofBetween(4, 6, 2)
      .map((h) => `${encodeBase64(h)}\n`)
      .join('')}\n${await noteFor(6, 2)}`;
    expect(witnessAddCheckpoint(forked, s4, { ...ctx, skipConsistencyCheck: true }).response.status).toBe(200);
  });

  test('a non-empty proof with old 0 is 422', async () => {
    const out = witnessAddCheckpoint(
      `old 0\n${encodeBase64(new Uint8Array(32))}\n\n${await noteFor(4)}`,
      emptyWitnessState(),
      ctx,
    );
    expect(out.response.status).toBe(422);
  });

  test('an empty tree is cosigned only with the empty root (422 for any other)', async () => {
    const empty = await signCheckpointNote(
      { origin: ORIGIN, treeSize: 0, rootHash: merkleRoot([]), extensions: [] },
      signerOf(LOG_KEYS),
    );
    expect(witnessAddCheckpoint(`old 0\n\n${empty}`, emptyWitnessState(), ctx).response.status).toBe(200);
    const bogus = await signCheckpointNote(
      { origin: ORIGIN, treeSize: 0, rootHash: new Uint8Array(32), extensions: [] },
      signerOf(LOG_KEYS),
    );
    expect(witnessAddCheckpoint(`old 0\n\n${bogus}`, emptyWitnessState(), ctx).response.status).toBe(422);
  });

  test.each([
    ['no old line', async () => `\n${await noteFor(4)}`],
    ['a leading zero in old', async () => `old 04\n\n${await noteFor(4)}`],
    ['a proof line that is not 32 bytes', async () => `old 0\nAAAA\n\n${await noteFor(4)}`],
    ['64 proof lines', async () => `old 1\n${`${encodeBase64(new Uint8Array(32))}\n`.repeat(64)}\n${await noteFor(4)}`],
    ['no note', async () => `old 0\n\n`],
  ])('a malformed request (%s) is 400 and changes nothing', async (_n, make) => {
    const out = witnessAddCheckpoint(await make(), emptyWitnessState(), ctx);
    expect([out.response.status, out.refusal, out.state]).toEqual([400, 'request-malformed', null]);
  });

  test('re-submitting the cosigned checkpoint is cosigned again with the new time (freshness)', async () => {
    const s4 = await accept(4);
    const out = witnessAddCheckpoint(`old 4\n\n${await noteFor(4)}`, s4, { ...ctx, now: NOW + 60 });
    expect(out.response.status).toBe(200);
    const n = readSignedNote(out.cosignedNote!);
    expect(n.ok && n.value.signatures.filter((s) => s.name === WITNESS.name).length).toBe(1);
  });
});
