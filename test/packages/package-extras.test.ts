/**
 * The two package-build hooks (scripts/package-extras.mjs): a "repository" layout (the docket CLI,
 * docs/adr/0448-cli-package-keeps-the-repository-layout.md) is accepted without entries but not without paths to copy,
 * copies the repository's files to the same paths and leaves out what it excludes; only packages with entries have an
 * API report.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasApiReport, readTemplate, ROOT } from '../../scripts/build-packages.mjs';
import { copyRepositoryLayout } from '../../scripts/package-extras.mjs';

describe('a "repository" layout template', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'docket-layout-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const template = (folder: string, docket: Record<string, unknown>): string => {
    mkdirSync(join(dir, folder), { recursive: true });
    const manifest = {
      name: 'docket',
      version: '0.1.0',
      type: 'module',
      exports: { './package.json': './package.json' },
    };
    writeFileSync(join(dir, folder, 'package.json'), JSON.stringify({ ...manifest, docket }));
    return folder;
  };

  it('is accepted without entries when it names paths to copy', () => {
    expect(readTemplate(template('ok', { layout: 'repository', copy: ['examples'] }), dir).name).toBe('docket');
  });

  it('is refused when it names nothing to copy', () => {
    expect(() => readTemplate(template('empty', { layout: 'repository', copy: [] }), dir)).toThrow(
      /"repository" layout names no "copy" paths/,
    );
  });

  it('copies files, folders and globs to their repository paths, without the excluded ones', () => {
    const out = join(dir, 'out');
    copyRepositoryLayout(
      {
        docket: {
          copy: ['bin/docket.js', 'examples/requests', 'conformance/**/*.txt'],
          exclude: ['examples/requests/' + readdirSync(join(ROOT, 'examples/requests'))[0]],
        },
      },
      out,
    );
    expect(readFileSync(join(out, 'bin/docket.js'), 'utf8')).toBe(readFileSync(join(ROOT, 'bin/docket.js'), 'utf8'));
    const requests = readdirSync(join(ROOT, 'examples/requests'));
    expect(readdirSync(join(out, 'examples/requests')).sort()).toEqual(requests.slice(1).sort());
    expect(existsSync(join(out, 'conformance/ledger/witness/witness-honest-extension/add-checkpoint.txt'))).toBe(true);
    expect(existsSync(join(out, 'conformance/runner.ts'))).toBe(false);
  });

  it('a path that matches nothing is an error naming it, not a package without it', () => {
    expect(() => copyRepositoryLayout({ docket: { copy: ['no/such/path'] } }, join(dir, 'none'))).toThrow(
      /no\/such\/path/,
    );
  });
});

describe('API reports', () => {
  it('belong to the packages with entries, not to the CLI, whose interface is its commands', () => {
    expect(hasApiReport('cdk')).toBe(true);
    expect(hasApiReport('cli')).toBe(false);
  });
});
