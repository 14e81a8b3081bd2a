/**
 * C2SP signed-note verifier keys, tested against the signed-note specification's own example (checked by hand first:
 * the key ID is SHA-256("PeterNeumann" ‖ 0x0A ‖ 0x01 ‖ key)[:4] and the signature verifies over the note text).
 */
import { describe, expect, it } from 'vitest';
import { toHex, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { keyPairFromSeed, verifyEd25519 } from '../../core/ledger/primitives/signature.js';
import { encodeBase64, noteKeyId, readSignedNote } from '../../core/ledger/notes/signed-note.js';
import { readVkey, serializeVkey, VkeyInvariantError } from '../../core/ledger/notes/vkey.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { readWitnessPolicy, witnessPolicyDocument } from '../../core/ledger/witness/witness-policy.js';
import { seed } from '../witness/fixtures.js';

const SPEC_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const SPEC_NOTE =
  'If you think cryptography is the answer to your problem,\n' +
  "then you don't know what your problem is.\n" +
  '\n' +
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';

describe('C2SP vkeys', () => {
  it('read the signed-note example, whose signature then verifies over the note text under its key ID', () => {
    const v = readVkey(SPEC_VKEY, 0x01);
    if (!v.ok) throw new Error(v.error.detail);
    expect([v.value.name, toHex(v.value.keyId), v.value.publicKey.length]).toEqual(['PeterNeumann', 'c74f20a3', 32]);
    const note = readSignedNote(SPEC_NOTE);
    if (!note.ok) throw new Error(note.error.detail);
    const [sig] = note.value.signatures;
    expect([sig!.name, toHex(sig!.keyId)]).toEqual(['PeterNeumann', 'c74f20a3']);
    expect(verifyEd25519(sig!.signature, utf8Bytes(note.value.text), v.value.publicKey)).toBe(true);
    // …and not over another text.
    expect(verifyEd25519(sig!.signature, utf8Bytes(`${note.value.text} `), v.value.publicKey)).toBe(false);
  });

  it('are written back byte for byte as the example gives them', () => {
    const v = readVkey(SPEC_VKEY, 0x01);
    if (!v.ok) throw new Error(v.error.detail);
    expect(serializeVkey('PeterNeumann', 0x01, v.value.publicKey)).toBe(SPEC_VKEY);
  });

  it('of a witness use type 0x04, whose key ID is the cosignature key ID', () => {
    const k = keyPairFromSeed(seed('vkey witness'));
    const text = serializeVkey('auditor.example/w', 0x04, k.publicKey);
    const [, id, b64] = text.split('+', 3) as [string, string, string];
    expect(id).toBe(toHex(noteKeyId('auditor.example/w', 0x04, k.publicKey)));
    expect(Buffer.from(text.slice(text.indexOf('+', text.indexOf('+') + 1) + 1), 'base64')[0]).toBe(0x04);
    expect(b64.length).toBeGreaterThan(0);
    const back = readVkey(text, 0x04);
    expect(back.ok && toHex(back.value.publicKey)).toBe(toHex(k.publicKey));
  });

  it('refuse a key of another type than the one asked for, never reinterpreting it', () => {
    const witness = serializeVkey('w', 0x04, keyPairFromSeed(seed('t')).publicKey);
    expect(readVkey(SPEC_VKEY, 0x04)).toMatchObject({ ok: false, error: { code: 'vkey-wrong-type' } });
    expect(readVkey(witness, 0x01)).toMatchObject({ ok: false, error: { code: 'vkey-wrong-type' } });
    const pub = Buffer.from('ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'base64');
    pub[0] = 0x02;
    expect(readVkey(`PeterNeumann+c74f20a3+${pub.toString('base64')}`, 0x01)).toMatchObject({
      ok: false,
      error: { code: 'vkey-wrong-type' },
    });
  });

  it.each([
    ['bad base64', 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10T!', 'vkey-bad-base64'],
    [
      'unpadded base64',
      'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'.slice(0, -1),
      'vkey-bad-base64',
    ],
    [
      'a key ID that is not this key’s',
      'PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'vkey-key-id-mismatch',
    ],
    [
      'another name under the same key ID',
      'PeterNeumanN+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'vkey-key-id-mismatch',
    ],
    ['an upper-case key ID', 'PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'vkey-bad-key-id'],
    ['a short key ID', 'PeterNeumann+c74f20+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'vkey-bad-key-id'],
    ['a name with a space', 'Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'vkey-bad-name'],
    ['an empty name', '+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'vkey-bad-name'],
    [
      'a name with "+" (read as a key ID that is not hex)',
      'Peter+Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'vkey-bad-key-id',
    ],
    [
      'a truncated key',
      `PeterNeumann+c74f20a3+${encodeBase64(Buffer.from('ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', 'base64').subarray(0, 32))}`,
      'vkey-bad-public-key',
    ],
    [
      'a small-order key',
      `x+00000000+${encodeBase64(Uint8Array.of(1, 1, ...new Uint8Array(31)))}`,
      'vkey-bad-public-key',
    ],
    ['no separators', 'PeterNeumann', 'vkey-malformed'],
    ['one separator', 'PeterNeumann+c74f20a3', 'vkey-malformed'],
  ])('refuse %s with a typed error', (_label, text, code) => {
    const r = readVkey(text, 0x01);
    expect(r.ok ? 'ok' : r.error.code).toBe(code);
  });

  it('refuse a name with "+" or a space when written', () => {
    const k = keyPairFromSeed(seed('w')).publicKey;
    expect(() => serializeVkey('a+b', 0x01, k)).toThrow(VkeyInvariantError);
    expect(() => serializeVkey('a b', 0x01, k)).toThrow(VkeyInvariantError);
    expect(() => serializeVkey('ab', 0x02 as 0x01, k)).toThrow(VkeyInvariantError);
  });
});

describe('vkeys in policies', () => {
  const k = keyPairFromSeed(seed('policy key'));
  const logVkey = serializeVkey('docket/prod/t/log-0', 0x01, k.publicKey);
  const trust = (format: string, publicKey: string, keyId = k.keyId): string =>
    JSON.stringify({
      format,
      logs: ['log-0'],
      keys: [{ keyId, publicKey, role: 'checkpoints', validity: [{ logId: 'log-0', fromSeq: 0, toSeq: null }] }],
      authorities: [{ environment: 'prod', table: 't' }],
      evaluatorBuilds: [],
      ...(format.endsWith('/4') ? { draftFeatures: [] } : {}),
    });
  const readT = (text: string) => readTrustPolicy(new TextEncoder().encode(text));

  it('a trust policy /4 reads a note-signature vkey as the same key as its hex', () => {
    const a = readT(trust('docket.trust-policy/4', logVkey));
    const b = readT(trust('docket.trust-policy/4', toHex(k.publicKey)));
    if (!a.ok || !b.ok) throw new Error('unreadable');
    expect([a.value.format, toHex(a.value.keys[0]!.publicKey)]).toEqual(['docket.trust-policy/4', toHex(k.publicKey)]);
    expect(a.value.keys).toEqual(b.value.keys);
  });

  it('a trust policy refuses a vkey in /2, a cosignature vkey, a forged key ID, and a keyId of another key', () => {
    const detail = (t: string) => {
      const r = readT(t);
      return r.ok ? 'ok' : r.error.detail;
    };
    expect(detail(trust('docket.trust-policy/2', logVkey))).toMatch(/publicKey is a canonical.*lowercase hex$/);
    expect(detail(trust('docket.trust-policy/4', serializeVkey('w', 0x04, k.publicKey)))).toMatch(/vkey-wrong-type/);
    const forged = logVkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    expect(detail(trust('docket.trust-policy/4', forged))).toMatch(/vkey-key-id-mismatch/);
    const other = keyPairFromSeed(seed('other policy key'));
    expect(detail(trust('docket.trust-policy/4', logVkey, other.keyId))).toBe(
      'keys[0].keyId is derived from its public key',
    );
  });

  it('a witness policy /2 reads witnesses given as cosignature vkeys, and its builder writes them', () => {
    const w = { name: 'auditor.example/w', publicKey: k.publicKey };
    const doc = witnessPolicyDocument({ quorum: 1, maxAgeSeconds: 60, witnesses: [w] }, 'vkey');
    expect(JSON.parse(doc)).toEqual({
      format: 'docket.witness-policy/2',
      quorum: 1,
      maxAgeSeconds: 60,
      witnesses: [serializeVkey(w.name, 0x04, w.publicKey)],
    });
    const r = readWitnessPolicy(new TextEncoder().encode(doc));
    expect(r.ok && r.value.witnesses.map((x) => [x.name, toHex(x.publicKey)])).toEqual([[w.name, toHex(k.publicKey)]]);
    // The hex form stays /1, byte for byte as before.
    expect(JSON.parse(witnessPolicyDocument({ quorum: 1, maxAgeSeconds: 60, witnesses: [w] })).format).toBe(
      'docket.witness-policy/1',
    );
  });

  it('a witness policy refuses a vkey in /1, a note-signature vkey, and the same witness twice', () => {
    const readW = (format: string, witnesses: unknown[]) => {
      const r = readWitnessPolicy(
        new TextEncoder().encode(JSON.stringify({ format, quorum: 1, maxAgeSeconds: 60, witnesses })),
      );
      return r.ok ? 'ok' : r.error.detail;
    };
    const wv = serializeVkey('auditor.example/w', 0x04, k.publicKey);
    expect(readW('docket.witness-policy/1', [wv])).toBe('witnesses[0] has exactly name, publicKey');
    expect(readW('docket.witness-policy/2', [logVkey])).toMatch(
      /^witnesses\[0\] is a cosignature vkey.*vkey-wrong-type/,
    );
    expect(readW('docket.witness-policy/2', [wv, { name: 'auditor.example/w', publicKey: toHex(k.publicKey) }])).toBe(
      'witnesses[1] is listed once (name and key)',
    );
  });
});
