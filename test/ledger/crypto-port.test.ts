import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeLedgerCrypto } from '../../adapters/node-ledger-crypto.js';
import { sha256, sha256Hex, toHex } from '../../core/ledger/primitives/bytes.js';
import { installLedgerCrypto, ledgerCrypto, portableLedgerCrypto } from '../../core/ledger/primitives/crypto-port.js';
import { keyPairFromSeed, signEd25519, verifyEd25519 } from '../../core/ledger/primitives/signature.js';
import { decodeBase64Strict, encodeBase64 } from '../../core/ledger/notes/signed-note.js';
import { verifyExportFiles } from '../../core/ledger/verify/index.js';

const SCENARIOS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'scenarios');
const names = readdirSync(SCENARIOS).filter((n) => statSync(join(SCENARIOS, n)).isDirectory());
const read = (name: string, file: string): Uint8Array | undefined => {
  const p = join(SCENARIOS, name, file);
  return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
};
const EMPTY_CHECKPOINTS = new TextEncoder().encode('{"checkpoints":[],"format":"docket.checkpoint-export/1"}');

async function verdicts(): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    const markers = read(name, 'markers.json');
    const files = {
      ledger: read(name, 'ledger.jsonl') as Uint8Array,
      policy: read(name, 'policy.json') as Uint8Array,
      checkpoints: read(name, 'checkpoints.json') ?? EMPTY_CHECKPOINTS,
      ...(markers === undefined ? {} : { markers }),
    };
    for (const allSignatures of [false, true])
      out.push(`${name} ${allSignatures}: ${JSON.stringify(await verifyExportFiles(files, { allSignatures }))}`);
  }
  return out;
}

describe('the ledger crypto port', () => {
  const original = ledgerCrypto();
  afterEach(() => {
    installLedgerCrypto(original);
  });

  it('is node:crypto (with libsodium verification) in the tests, as in the CLI', () => {
    expect(original.name).toBe('node+libsodium');
    expect(original.sha256).toBe(nodeLedgerCrypto.sha256);
  });

  it('gives the same hashes on the portable and the node:crypto implementations', () => {
    const samples = ['', 'a', 'docket', '\u0000é😀'.repeat(1000)].map((s) => new TextEncoder().encode(s));
    for (const s of samples) {
      expect(toHex(portableLedgerCrypto.sha256(s))).toBe(toHex(nodeLedgerCrypto.sha256(s)));
      expect(toHex(portableLedgerCrypto.sha512(s))).toBe(toHex(nodeLedgerCrypto.sha512(s)));
      expect(portableLedgerCrypto.sha256Hex(s)).toBe(nodeLedgerCrypto.sha256Hex(s));
    }
    expect(portableLedgerCrypto.sha256Hex('é')).toBe(nodeLedgerCrypto.sha256Hex('é'));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('signs the same bytes and agrees on good and bad signatures on both implementations', () => {
    const keys = keyPairFromSeed(sha256(new TextEncoder().encode('crypto-port seed')));
    const msg = new TextEncoder().encode('docket.ledger-entry.v1\u0000{}');
    const viaNode = signEd25519(msg, keys.secretKey);
    installLedgerCrypto(portableLedgerCrypto);
    const viaPortable = signEd25519(msg, keys.secretKey);
    expect(toHex(viaPortable)).toBe(toHex(viaNode));
    const bad = Uint8Array.from(viaNode);
    bad[5] = (bad[5] as number) ^ 0x20;
    expect([verifyEd25519(viaNode, msg, keys.publicKey), verifyEd25519(bad, msg, keys.publicKey)]).toEqual([
      true,
      false,
    ]);
    installLedgerCrypto(nodeLedgerCrypto);
    expect([verifyEd25519(viaNode, msg, keys.publicKey), verifyEd25519(bad, msg, keys.publicKey)]).toEqual([
      true,
      false,
    ]);
  });

  it('decodes only canonical padded base64 without Buffer, as before', () => {
    expect(encodeBase64(Uint8Array.of(0xfb, 0xff, 0x00))).toBe('+/8A');
    expect(decodeBase64Strict('+/8A')).toEqual(Uint8Array.of(0xfb, 0xff, 0x00));
    expect(decodeBase64Strict('QR==')).toBeNull(); // non-zero trailing bits: not the canonical spelling
    expect(decodeBase64Strict('QQ')).toBeNull();
    expect(decodeBase64Strict('QQ==')).toEqual(Uint8Array.of(0x41));
  });

  it('gives every tamper corpus scenario the same verdict, byte for byte, on the portable, node:crypto and libsodium implementations', async () => {
    const viaNode = await verdicts();
    installLedgerCrypto(portableLedgerCrypto);
    const viaPortable = await verdicts();
    installLedgerCrypto(nodeLedgerCrypto);
    const viaOpenSsl = await verdicts();
    expect(viaPortable).toEqual(viaNode);
    expect(viaOpenSsl).toEqual(viaNode);
    expect(viaNode.length).toBe(names.length * 2);
  });
});
