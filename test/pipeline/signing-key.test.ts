import { mkdirSync, mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../../core/ledger/primitives/signature.js';
import { loadSigningKey, parseSigningKey, signingKeyDocument } from '../../adapters/signing-key.js';
import { writeSigningKey } from '../../stack/local-files.js';
import { buildDigest, treeDigest } from '../../functions/lib/build-digest.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keys = keyPairFromSeed(new Uint8Array(32).fill(9));

describe('the signing key document', () => {
  it('round-trips and signs with the key it names', async () => {
    const file = join(dir, 'k.json');
    writeSigningKey(file, keys);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const signer = await loadSigningKey({ DOCKET_SIGNING_KEY_FILE: file });
    expect(signer.keyId).toBe(keys.keyId);
    expect(JSON.stringify(signer)).not.toContain(Buffer.from(keys.secretKey).toString('hex'));
  });

  it('refuses a document whose public key does not derive from its seed, naming the source and not the seed', () => {
    const doc = JSON.parse(signingKeyDocument(keys));
    doc.publicKey = 'a'.repeat(64);
    expect(() => parseSigningKey(JSON.stringify(doc), 'the file')).toThrow(
      /the file: the public key or key id does not derive/,
    );
    try {
      parseSigningKey(JSON.stringify(doc), 'x');
    } catch (e) {
      expect((e as Error).message).not.toContain(doc.seed);
    }
  });

  it('refuses to overwrite an existing key file unless forced', () => {
    const file = join(dir, 'k2.json');
    writeSigningKey(file, keys);
    expect(() => writeSigningKey(file, keys)).toThrow(/refusing to overwrite/);
    expect(() => writeSigningKey(file, keys, true)).not.toThrow();
  });

  it('fails clearly when neither a key file nor a secret is configured', async () => {
    await expect(loadSigningKey({})).rejects.toThrow(/neither DOCKET_SIGNING_KEY_FILE nor SIGNING_SECRET_ARN/);
  });
});

describe('the evaluator build digest', () => {
  it('changes when any evaluator file changes and honours a pinned digest', () => {
    const root = join(dir, 'tree');
    const write = (p: string, s: string) => {
      const f = join(root, p);
      mkdirSync(dirname(f), { recursive: true });
      writeFileSync(f, s);
    };
    write('core/a.js', 'a');
    write('functions/evaluate.js', 'h');
    const d1 = treeDigest(root, ['core', 'functions']);
    write('core/a.js', 'b');
    const d2 = treeDigest(root, ['core', 'functions']);
    expect(d1).not.toBe(d2);
    expect(buildDigest({}, `file://${join(root, 'functions/evaluate.js')}`)).toBe(
      treeDigest(root, ['core', 'functions', 'adapters']),
    );
    expect(buildDigest({ DOCKET_BUILD_DIGEST: 'f'.repeat(64) }, 'file:///x.mjs')).toBe('f'.repeat(64));
    expect(() => buildDigest({ DOCKET_BUILD_DIGEST: 'nope' }, 'file:///x.mjs')).toThrow();
  });
});
