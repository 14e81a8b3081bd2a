import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../core/ledger/primitives/bytes.js';
import {
  generateKeyPair,
  keyIdOf,
  keyPairFromSeed,
  passesStrictPrechecks,
  SMALL_ORDER_ENCODINGS,
  signEd25519,
  verifyEd25519,
} from '../../core/ledger/primitives/signature.js';
import { cat, le, malleabilityCorpus, stream, torsionPoints, type Case } from './ed25519-vectors.js';

// RFC 8032 §7.1 TEST 1, TEST 2, TEST 3 (secret seed, public key, message, signature).
const RFC8032_VECTORS = [
  {
    secret: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    public: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    secret: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    public: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    secret: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    public: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    message: 'af82',
    signature:
      '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
];

describe('Ed25519 signatures', () => {
  it('reproduce the RFC 8032 §7.1 test vectors on both backends', () => {
    for (const v of RFC8032_VECTORS) {
      const kp = keyPairFromSeed(fromHex(v.secret));
      expect(toHex(kp.publicKey)).toBe(v.public);
      const msg = fromHex(v.message);
      expect(toHex(signEd25519(msg, kp.secretKey, 'node'))).toBe(v.signature);
      expect(toHex(signEd25519(msg, kp.secretKey, 'noble'))).toBe(v.signature);
      expect(verifyEd25519(fromHex(v.signature), msg, kp.publicKey, 'node')).toBe(true);
      expect(verifyEd25519(fromHex(v.signature), msg, kp.publicKey, 'noble')).toBe(true);
    }
  });

  it('reject every case of the malleability corpus on both backends', () => {
    const corpus = malleabilityCorpus();
    expect(corpus.length).toBeGreaterThan(30);
    for (const c of corpus) {
      expect({ name: c.name, node: verifyEd25519(c.sig, c.msg, c.pub, 'node') }).toEqual({ name: c.name, node: false });
      expect({ name: c.name, noble: verifyEd25519(c.sig, c.msg, c.pub, 'noble') }).toEqual({
        name: c.name,
        noble: false,
      });
    }
  });

  it('list exactly the small-order encodings the pre-check refuses for R', () => {
    const torsion = torsionPoints().map((t) => toHex(t.toBytes()));
    for (const t of torsion) expect(SMALL_ORDER_ENCODINGS.has(t)).toBe(true);
    expect(SMALL_ORDER_ENCODINGS.size).toBe(10);
    for (const hex of SMALL_ORDER_ENCODINGS) {
      let p: ed.Point | null;
      try {
        p = ed.Point.fromBytes(fromHex(hex), true);
      } catch {
        p = null;
      }
      expect(p !== null && p.isSmallOrder()).toBe(true);
    }
  });

  it('need the cofactorless check: noble verify alone (zip215: false) accepts the mixed-order R case', () => {
    const c = malleabilityCorpus().find((x) => x.name.startsWith('mixed-order R')) as Case;
    expect(ed.verify(c.sig, c.msg, c.pub, { zip215: false })).toBe(true);
    expect(passesStrictPrechecks(c.sig, c.pub)).toBe(true);
    expect(verifyEd25519(c.sig, c.msg, c.pub, 'noble')).toBe(false);
  });

  it('refuse the all-identity signature on both backends, by the small-order check before any library verifies', () => {
    // [0]B = O + [k]O holds for every message, so a library's own answer on this signature varies (noble's ZIP-215
    // mode and older OpenSSL accept it, OpenSSL 3.5 in Node 24 refuses it): what is pinned is Docket's verifier.
    const id = ed.Point.ZERO.toBytes();
    const sig = cat(id, le(0n));
    expect(passesStrictPrechecks(sig, id)).toBe(false);
    expect(verifyEd25519(sig, new Uint8Array([1]), id, 'node')).toBe(false);
    expect(verifyEd25519(sig, new Uint8Array([1]), id, 'noble')).toBe(false);
  });

  it('accept and reject the same signatures on both backends over random cases', () => {
    const rand = stream('ed25519-agreement');
    let accepted = 0;
    for (let i = 0; i < 100; i++) {
      const kp = generateKeyPair(rand);
      const msg = rand(i % 97);
      const sig = signEd25519(msg, kp.secretKey, i % 2 === 0 ? 'node' : 'noble');
      const variants = [
        sig,
        cat(sig.subarray(0, 63), Uint8Array.of((sig[63] as number) ^ (1 << (i % 5)))),
        cat(rand(32), sig.subarray(32)),
        rand(64),
      ];
      for (const v of variants) {
        const n = verifyEd25519(v, msg, kp.publicKey, 'node');
        expect(verifyEd25519(v, msg, kp.publicKey, 'noble')).toBe(n);
        if (n) accepted += 1;
      }
    }
    expect(accepted).toBe(100);
  });

  it('derive the key id from the public key: ed25519 + first 16 bytes of its SHA-256', () => {
    const kp = keyPairFromSeed(new Uint8Array(32).fill(1));
    const expected = `ed25519:${createHash('sha256').update(kp.publicKey).digest('hex').slice(0, 32)}`;
    expect(kp.keyId).toBe(expected);
    expect(keyIdOf(kp.publicKey)).toBe(expected);
    expect(keyPairFromSeed(new Uint8Array(32).fill(2)).keyId).not.toBe(expected);
  });
});
