/**
 * The ledger crypto port on node:crypto (docs/adr/0185-ledger-crypto-port.md): OpenSSL's SHA-256/SHA-512 and
 * Ed25519, markedly faster than the portable default. Node programs call useNodeLedgerCrypto() once at start
 * (cli/main.ts, the Lambda handlers, the local function host, bench and the test setup).
 * OpenSSL's Ed25519 verification is cofactorless and checks S < L; core/ledger/primitives/signature.ts runs the remaining
 * strict pre-checks (canonical, non-small-order A and R) before calling it, as before.
 */
import { createPrivateKey, createPublicKey, hash, sign, verify, type KeyObject } from 'node:crypto';
import { fromHex, installLedgerCrypto, type LedgerCrypto } from '../core/ledger/index.js';

// PKCS#8 / SPKI DER prefixes for raw Ed25519 keys (RFC 8410), so node:crypto can use raw 32-byte keys.
const PKCS8_PREFIX = Buffer.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const SPKI_PREFIX = Buffer.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

const privateKeyCache = new WeakMap<Uint8Array, KeyObject>();
const publicKeyCache = new Map<string, KeyObject>();

function privateKey(secretKey: Uint8Array): KeyObject {
  let k = privateKeyCache.get(secretKey);
  if (k === undefined) {
    k = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, secretKey]), format: 'der', type: 'pkcs8' });
    privateKeyCache.set(secretKey, k);
  }
  return k;
}

function publicKey(raw: Uint8Array): KeyObject {
  const id = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('hex');
  let k = publicKeyCache.get(id);
  if (k === undefined) {
    k = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    if (publicKeyCache.size > 1024) publicKeyCache.clear();
    publicKeyCache.set(id, k);
  }
  return k;
}

export const nodeLedgerCrypto: LedgerCrypto = {
  name: 'node',
  // One-shot hashing of one buffer is markedly cheaper than a streaming Hash object, and hex output decoded in
  // JavaScript cheaper than a Buffer output (measured: bench/checkpoint.bench.ts, Node 24).
  sha256: (data) => fromHex(hash('sha256', data, 'hex')),
  sha256Hex: (data) => hash('sha256', data, 'hex'),
  sha512: (data) => new Uint8Array(hash('sha512', data, 'buffer')),
  ed25519Verify: (signature, message, key) => verify(null, message, publicKey(key), signature),
  ed25519Sign: (message, secretKey) => new Uint8Array(sign(null, message, privateKey(secretKey))),
};

/** Installs node:crypto as the ledger's crypto port; returns the port it replaced. */
export const useNodeLedgerCrypto = (): LedgerCrypto => installLedgerCrypto(nodeLedgerCrypto);
