import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWitnessKey, writeWitnessKey } from '../../cli/witness/witness-key-file.js';
import { loadWitnessState, saveWitnessState } from '../../cli/witness/state-file.js';
import { toHex, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import {
  checkpointNoteText,
  checkpointOrigin,
  parseCheckpointOrigin,
  readCheckpointNote,
  verifyLogSignature,
} from '../../core/ledger/checkpoints/checkpoint-note.js';
import { cosign, cosignatureTime } from '../../core/ledger/witness/cosignature.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { readNotesExport } from '../../core/ledger/export/notes-export.js';
import { signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { witnessAddCheckpoint } from '../../core/ledger/witness/add-checkpoint.js';
import { readWitnessPolicy } from '../../core/ledger/witness/witness-policy.js';
import { WitnessService } from '../../core/ledger/witness/witness-service.js';
import { emptyWitnessState, readWitnessState, serializeWitnessState } from '../../core/ledger/witness/witness-state.js';
import { submitCheckpoint } from '../../core/ledger/witness/submit-checkpoint.js';
import { runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { buildLog, K1, policyText } from '../../conformance/ledger/fixtures.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { AUTHORITY, LOG_KEYS, noteFor, ORIGIN, POLICY, proofBetween, WITNESS, WITNESS2 } from './fixtures.js';

const NOW = 1_767_225_600;
const ctx = { policy: POLICY, knowsOrigin: (o: string) => o === ORIGIN, key: WITNESS };

describe('checkpoint notes', () => {
  it('name a Docket log by a schema-less origin that reads back into its parts', () => {
    expect(ORIGIN).toBe('docket/test/docket-test-ledger/log-0');
    expect(parseCheckpointOrigin(ORIGIN)).toEqual({ ...AUTHORITY, logId: 'log-0' });
    expect(parseCheckpointOrigin('example.com/log42')).toBeNull();
    expect(parseCheckpointOrigin('docket/a/b/c/d')).toBeNull();
  });

  it('refuse to serialize a root that is not 32 bytes or a negative size', () => {
    expect(() =>
      checkpointNoteText({ origin: ORIGIN, treeSize: 1, rootHash: new Uint8Array(31), extensions: [] }),
    ).toThrow();
    expect(() =>
      checkpointNoteText({ origin: ORIGIN, treeSize: -1, rootHash: new Uint8Array(32), extensions: [] }),
    ).toThrow();
  });

  it.each([
    ['a size with a leading zero', (t: string) => t.replace('\n4\n', '\n04\n')],
    [
      'a root of 31 bytes',
      (t: string) => t.replace(/\n([A-Za-z0-9+/]{43}=)\n\n/, '\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==\n\n'),
    ],
    ['a missing root line', (t: string) => t.replace(/\n[A-Za-z0-9+/]{43}=\n/, '\n')],
  ])('the strict reader refuses %s', async (_n, edit) => {
    const r = readCheckpointNote(edit(await noteFor(4)));
    expect(r.ok).toBe(false);
  });

  it('verify under the trust policy only with the checkpoint key, and a bad signature by that key rejects the note', async () => {
    const good = readCheckpointNote(await noteFor(4));
    expect(good.ok && verifyLogSignature(good.value, POLICY)?.keyId).toBe(LOG_KEYS.keyId);
    const note = await noteFor(4);
    const tampered = note.replace(
      /(— \S+ [A-Za-z0-9+/]{10})([A-Za-z0-9+/])/,
      (_m, a: string, c: string) => `${a}${c === 'A' ? 'B' : 'A'}`,
    );
    const t = readCheckpointNote(tampered);
    expect(t.ok && verifyLogSignature(t.value, POLICY)).toBe(null);
  });
});

describe('cosignatures', () => {
  it('count only for the key that made them and carry their time', async () => {
    const text = (await noteFor(4)).split('\n\n')[0] + '\n';
    const s = cosign(text, WITNESS, NOW);
    expect(cosignatureTime(text, [s], WITNESS)).toBe(NOW);
    expect(cosignatureTime(text, [s], WITNESS2)).toBeNull();
    expect(cosignatureTime(text.replace('\n4\n', '\n5\n'), [s], WITNESS)).toBeNull();
    expect(cosignatureTime(text, [{ ...s, name: WITNESS2.name }], WITNESS2)).toBeNull();
  });
});

describe('the witness state', () => {
  it('round-trips through its serializer and strict reader, and the file is replaced atomically', async () => {
    const out = witnessAddCheckpoint(`old 0\n\n${await noteFor(4)}`, emptyWitnessState(), { ...ctx, now: NOW });
    const text = serializeWitnessState(out.state!);
    const back = readWitnessState(utf8Bytes(text));
    expect(back.ok && serializeWitnessState(back.value)).toBe(text);
    const dir = mkdtempSync(join(tmpdir(), 'docket-ws-'));
    const path = join(dir, 'state.json');
    await saveWitnessState(path, out.state!);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(loadWitnessState(path).get(ORIGIN)?.treeSize).toBe(4);
  });

  it.each([
    ['another format', (t: string) => t.replace('docket.witness-state/1', 'docket.witness-state/2')],
    ['a size the note does not state', (t: string) => t.replace('"treeSize":4', '"treeSize":5')],
    ['non-canonical text', (t: string) => t.replace('{"format"', '{ "format"')],
  ])('the reader refuses %s', async (_n, edit) => {
    const out = witnessAddCheckpoint(`old 0\n\n${await noteFor(4)}`, emptyWitnessState(), { ...ctx, now: NOW });
    expect(readWitnessState(utf8Bytes(edit(serializeWitnessState(out.state!)))).ok).toBe(false);
  });

  it('is not changed when persisting fails, and nothing is cosigned', async () => {
    const svc = new WitnessService(
      emptyWitnessState(),
      ctx,
      () => NOW,
      async () => {
        throw new Error('disk full');
      },
    );
    await expect(svc.addCheckpoint(`old 0\n\n${await noteFor(4)}`)).rejects.toThrow('disk full');
    expect(svc.current().size).toBe(0);
  });

  it('serializes concurrent requests so a slower one cannot roll the state back', async () => {
    let persisted = 0;
    const svc = new WitnessService(
      emptyWitnessState(),
      ctx,
      () => NOW,
      async () => {
        persisted += 1;
        await new Promise((r) => setTimeout(r, 5));
      },
    );
    const n4 = `old 0\n\n${await noteFor(4)}`;
    const n6 = `old 4\n${proofBetween(4, 6)
      .map((h) => `${Buffer.from(h).toString('base64')}\n`)
      .join('')}\n${await noteFor(6)}`;
    const [a, b, c] = await Promise.all([svc.addCheckpoint(n4), svc.addCheckpoint(n6), svc.addCheckpoint(n4)]);
    expect([a.response.status, b.response.status, c.response.status]).toEqual([200, 200, 409]);
    expect(svc.current().get(ORIGIN)?.treeSize).toBe(6);
    expect(persisted).toBe(2);
  });
});

describe('the add-checkpoint client', () => {
  it('retries once from the size a 409 states and reports an equivocation when the witness holds another root at the same size', async () => {
    const svc = new WitnessService(
      emptyWitnessState(),
      ctx,
      () => NOW,
      async () => undefined,
    );
    const send = (b: string) => svc.addCheckpoint(b).then((o) => o.response);
    await svc.addCheckpoint(`old 0\n\n${await noteFor(4)}`);
    const sent: number[] = [];
    const r = await submitCheckpoint({
      note: await noteFor(6),
      treeSize: 6,
      oldSize: 0,
      proofFor: async (m, n) => proofBetween(m, n),
      send: (b) => {
        sent.push(Number(b.split('\n')[0]!.slice(4)));
        return send(b);
      },
    });
    expect(r.outcome).toBe('cosigned');
    expect(sent).toEqual([0, 4]);
    const eq = await submitCheckpoint({
      note: await noteFor(6, 3),
      treeSize: 6,
      oldSize: 6,
      proofFor: async () => [],
      send,
    });
    expect(eq).toMatchObject({ outcome: 'refused', refusal: 'equivocation', status: 422 });
  });
});

describe('the witness policy reader', () => {
  const doc = (o: Record<string, unknown>) =>
    utf8Bytes(
      JSON.stringify({
        format: 'docket.witness-policy/1',
        quorum: 1,
        maxAgeSeconds: 60,
        witnesses: [{ name: 'a.example/w', publicKey: toHex(WITNESS.publicKey) }],
        ...o,
      }),
    );
  it('reads a valid policy', () => {
    expect(readWitnessPolicy(doc({})).ok).toBe(true);
  });
  it.each([
    ['a quorum above the number of witnesses', { quorum: 2 }],
    ['a quorum of 0', { quorum: 0 }],
    ['a fractional age', { maxAgeSeconds: 1.5 }],
    [
      'a witness listed twice',
      {
        witnesses: [
          { name: 'a.example/w', publicKey: toHex(WITNESS.publicKey) },
          { name: 'b.example/w', publicKey: toHex(WITNESS.publicKey) },
        ],
      },
    ],
    ['a name with a space', { witnesses: [{ name: 'a w', publicKey: toHex(WITNESS.publicKey) }] }],
    ['an unknown member', { extra: true }],
  ])('refuses %s', (_n, o) => {
    const r = readWitnessPolicy(doc(o));
    expect(r.ok ? 'accepted' : r.error.code).toBe('witness-policy-invalid');
  });
});

describe('the witness key file', () => {
  it('round-trips, never shows its seed when printed, and refuses a public key that does not derive from the seed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-wk-'));
    const p = join(dir, 'k.json');
    writeWitnessKey(p, WITNESS);
    const k = parseWitnessKey(readFileSync(p, 'utf8'), p);
    expect(toHex(k.publicKey)).toBe(toHex(WITNESS.publicKey));
    expect(JSON.stringify(k)).not.toContain(toHex(WITNESS.secretKey));
    expect(() => writeWitnessKey(p, WITNESS)).toThrow(/refusing to overwrite/);
    const doc = JSON.parse(readFileSync(p, 'utf8')) as Record<string, string>;
    writeFileSync(p, JSON.stringify({ ...doc, publicKey: toHex(WITNESS2.publicKey) }));
    expect(() => parseWitnessKey(readFileSync(p, 'utf8'), p)).toThrow(/does not derive/);
  });
});

describe('the checkpoint run', () => {
  it('publishes a note for each checkpoint under the checkpoint key and exports it', async () => {
    const store = new MemoryLedgerStore();
    for (const e of buildLog('log-a', 3)) await store.putEntryIfAbsent(e);
    const origin = { environment: 'prod', table: 'docket-prod-ledger' };
    const policy = readTrustPolicy(
      utf8Bytes(policyText(['log-a'], [{ keys: K1, validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }] }])),
    );
    if (!policy.ok) throw new Error(policy.error.detail);
    const run = await runCheckpoints({
      store,
      signer: signerFromKeyPair(K1),
      policy: policy.value,
      logIds: ['log-a'],
      origin,
      time: '2026-12-01T00:00:00Z',
    });
    const notes = readNotesExport(utf8Bytes(run.notes!));
    expect(notes.ok && notes.value.map((n) => [n.logId, n.treeSize])).toEqual([['log-a', 3]]);
    const n = readCheckpointNote(notes.ok ? notes.value[0]!.note : '');
    expect(n.ok && n.value.body.origin).toBe(checkpointOrigin(origin, 'log-a'));
  });
});
