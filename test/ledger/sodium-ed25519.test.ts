import * as ed from '@noble/ed25519';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeLedgerCrypto } from '../../adapters/node-ledger-crypto.js';
import { loadSodiumEd25519Verify, sodiumLedgerCrypto } from '../../adapters/sodium-ledger-crypto.js';
import { installLedgerCrypto, ledgerCrypto, portableLedgerCrypto } from '../../core/ledger/primitives/crypto-port.js';
import {
  ED25519_L,
  generateKeyPair,
  passesStrictPrechecks,
  signEd25519,
  verifyEd25519,
} from '../../core/ledger/primitives/signature.js';
import {
  cat,
  challenge,
  le,
  malleabilityCorpus,
  stream,
  tamingCases,
  torsionPoints,
  type Case,
} from './ed25519-vectors.js';

const sodium = sodiumLedgerCrypto();
const PORTS = [
  ['node:crypto', nodeLedgerCrypto],
  ['libsodium', sodium ?? nodeLedgerCrypto],
  ['portable', portableLedgerCrypto],
] as const;

/** Docket's verdict (pre-checks + the port's equation) on every port, by port name. */
function verdicts(c: Case): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const previous = ledgerCrypto();
  try {
    for (const [name, port] of PORTS) {
      installLedgerCrypto(port);
      out[name] = verifyEd25519(c.sig, c.msg, c.pub);
    }
  } finally {
    installLedgerCrypto(previous);
  }
  return out;
}
const all = (v: boolean): Record<string, boolean> => Object.fromEntries(PORTS.map(([n]) => [n, v]));

describe('Ed25519 verification through libsodium (sodium-native)', () => {
  const original = ledgerCrypto();
  afterEach(() => {
    installLedgerCrypto(original);
  });

  it('loads on this platform from the package prebuilds and passes its RFC 8032 self-check', () => {
    expect(sodium?.name).toBe('node+libsodium');
    expect(loadSodiumEd25519Verify()).not.toBeNull();
  });

  it('is the port the tests run on, as every Node program but the Lambda functions does', () => {
    expect(original.name).toBe('node+libsodium');
  });

  it('gives the same verdict as node:crypto and the portable equation on every malleability case', () => {
    const corpus = malleabilityCorpus();
    expect(corpus.length).toBeGreaterThan(30);
    for (const c of corpus) expect({ name: c.name, ...verdicts(c) }).toEqual({ name: c.name, ...all(false) });
  });

  it('gives the hand-written verdict on the twelve "Taming the many EdDSAs" categories, on every port', () => {
    const cases = tamingCases();
    expect(cases.map((c) => c.name.replace(/ \(.*$/, ''))).toEqual(
      Array.from({ length: 12 }, (_, i) => `Taming case ${i}`),
    );
    for (const c of cases) expect({ name: c.name, ...verdicts(c) }).toEqual({ name: c.name, ...all(c.strict) });
  });

  it('agrees with OpenSSL as a library, before Docket pre-checks, wherever those pre-checks pass', () => {
    const viaSodium = sodium?.ed25519Verify;
    const viaOpenSsl = nodeLedgerCrypto.ed25519Verify;
    if (viaSodium === undefined || viaOpenSsl === undefined) throw new Error('both ports verify natively');
    let checked = 0;
    for (const c of [...malleabilityCorpus(), ...tamingCases()]) {
      if (!passesStrictPrechecks(c.sig, c.pub)) continue;
      checked += 1;
      expect({ name: c.name, sodium: viaSodium(c.sig, c.msg, c.pub) }).toEqual({
        name: c.name,
        sodium: viaOpenSsl(c.sig, c.msg, c.pub),
      });
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('accepts and refuses exactly what node:crypto does over thousands of random valid and forged signatures', () => {
    const viaSodium = sodium?.ed25519Verify;
    if (viaSodium === undefined) throw new Error('sodium-native must load here');
    const rand = stream('sodium-agreement');
    const torsion = torsionPoints();
    const outcomes = { agreed: 0, accepted: 0 };
    const compare = (sig: Uint8Array, msg: Uint8Array, pub: Uint8Array): void => {
      installLedgerCrypto(nodeLedgerCrypto);
      const openssl = verifyEd25519(sig, msg, pub);
      installLedgerCrypto(sodium as NonNullable<typeof sodium>);
      const libsodium = verifyEd25519(sig, msg, pub);
      if (libsodium !== openssl)
        throw new Error(`verdicts differ on ${Buffer.from(cat(sig, msg, pub)).toString('hex')}`);
      outcomes.agreed += 1;
      if (openssl) outcomes.accepted += 1;
    };
    let kp = generateKeyPair(rand);
    for (let i = 0; i < 1000; i++) {
      if (i % 4 === 0) kp = generateKeyPair(rand); // a new key every four messages
      const msg = rand(i % 1500);
      const sig = signEd25519(msg, kp.secretKey);
      const flipped = Uint8Array.from(msg);
      if (flipped.length > 0) flipped[i % flipped.length] = (flipped[i % flipped.length] as number) ^ 1;
      compare(sig, msg, kp.publicKey); // valid
      compare(
        cat(
          sig.subarray(0, 32 + (i % 32)),
          Uint8Array.of((sig[32 + (i % 32)] as number) ^ 4),
          sig.subarray(33 + (i % 32)),
        ),
        msg,
        kp.publicKey,
      );
      compare(cat(Uint8Array.of((sig[0] as number) ^ 1), sig.subarray(1)), msg, kp.publicKey);
      if (msg.length > 0) compare(sig, flipped, kp.publicKey);
      compare(rand(64), msg, kp.publicKey);
    }
    // Keys with a torsion component (mixed order), signed honestly: the cofactorless equation holds for about one
    // in eight, the cofactored one for all; both libraries must accept exactly the same ones.
    let mixedAccepted = 0;
    for (let i = 0; i < 400; i++) {
      const a = (BigInt(`0x${Buffer.from(rand(32)).toString('hex')}`) % (ED25519_L - 1n)) + 1n;
      const pub = ed.Point.BASE.multiply(a)
        .add(torsion[1 + (i % 7)] as ed.Point)
        .toBytes();
      const msg = rand(64);
      const r = (BigInt(`0x${Buffer.from(rand(32)).toString('hex')}`) % (ED25519_L - 1n)) + 1n;
      const rBytes = ed.Point.BASE.multiply(r).toBytes();
      const sig = cat(rBytes, le((r + challenge(rBytes, pub, msg) * a) % ED25519_L));
      const before = outcomes.accepted;
      compare(sig, msg, pub);
      if (outcomes.accepted > before) mixedAccepted += 1;
    }
    expect(outcomes.agreed).toBeGreaterThan(5000);
    expect(outcomes.accepted - mixedAccepted).toBe(1000);
    expect(mixedAccepted).toBeGreaterThan(0);
    expect(mixedAccepted).toBeLessThan(400);
  });
});
