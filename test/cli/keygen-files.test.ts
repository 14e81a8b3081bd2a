/** Key files are written exclusively, 0600 from creation, never through a symlink (ADR 0152). */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newKeyPair, writeSigningKey } from '../../stack/local-files.js';
import { SecretFileError, writeSecretFile } from '../../adapters/secret-file.js';
import { cli } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docket-keygen-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (p: string): number => statSync(p).mode & 0o777;

describe('docket keygen key files', () => {
  it('writes the key with mode 0600 and leaves no temporary file behind', async () => {
    const out = join(dir, 'key.json');
    const r = await cli(['keygen', '--out', out]);
    expect(r.code).toBe(0);
    expect(mode(out)).toBe(0o600);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveProperty('format');
    expect(readdirSync(dir)).toEqual(['key.json']);
  });

  it('refuses to overwrite an existing key without --force and keeps its bytes', async () => {
    const out = join(dir, 'key.json');
    writeFileSync(out, 'old');
    const r = await cli(['keygen', '--out', out]);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('exists');
    expect(readFileSync(out, 'utf8')).toBe('old');
  });

  it('replaces an existing key with --force, still 0600', async () => {
    const out = join(dir, 'key.json');
    writeFileSync(out, 'old', { mode: 0o644 });
    const r = await cli(['keygen', '--out', out, '--force']);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toBe('old');
    expect(mode(out)).toBe(0o600);
  });

  it('refuses a symlink at --out even with --force, and the link target is untouched', async () => {
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'victim', { mode: 0o644 });
    const out = join(dir, 'key.json');
    symlinkSync(target, out);
    const r = await cli(['keygen', '--out', out, '--force']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('victim');
    expect(mode(target)).toBe(0o644);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
  });

  it('refuses a dangling symlink at --out instead of creating its target', () => {
    const target = join(dir, 'created-through-link');
    const out = join(dir, 'key.json');
    symlinkSync(target, out);
    expect(() => writeSecretFile(out, new Uint8Array([1]), true)).toThrow(SecretFileError);
    expect(existsSync(target)).toBe(false);
  });

  it('creates .docket/local with mode 0700 and tightens one that exists with 0755', () => {
    const fresh = join(dir, 'a', '.docket', 'local');
    writeSigningKey(join(fresh, 'signing-key.json'), newKeyPair());
    expect(mode(fresh)).toBe(0o700);

    const loose = join(dir, 'b', '.docket', 'local');
    mkdirSync(loose, { recursive: true, mode: 0o755 });
    expect(mode(loose)).toBe(0o755);
    writeSigningKey(join(loose, 'signing-key.json'), newKeyPair());
    expect(mode(loose)).toBe(0o700);
    expect(mode(join(loose, 'signing-key.json'))).toBe(0o600);
  });
});
