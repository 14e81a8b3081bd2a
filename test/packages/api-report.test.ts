/**
 * Each package's public API changes only on purpose (docs/adr/0441-api-reports-from-the-built-declarations.md): the
 * report of the API as built must equal the committed packages/<folder>/api.md; `npm run api:report` rewrites the
 * reports when a change is meant. And the report sees what it must: a changed member of an interface that is only
 * reachable from an export changes it, a changed comment does not.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiReport } from '../../scripts/api-report.mjs';
import {
  buildPackages,
  builtApiReport,
  hasApiReport,
  OUT_DIR,
  PACKAGES_DIR,
  packageFolders,
} from '../../scripts/build-packages.mjs';

describe('the committed API reports', () => {
  const folders = packageFolders().filter(hasApiReport);
  let root: string;
  let built: Awaited<ReturnType<typeof buildPackages>>;
  // One build of every package: their declarations come from one program (scripts/build-packages.mjs).
  beforeAll(async () => {
    mkdirSync(OUT_DIR, { recursive: true });
    root = mkdtempSync(join(OUT_DIR, '.api-report-'));
    built = await buildPackages(folders, { outRoot: root, assets: false });
  }, 300_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  for (const [i, folder] of folders.entries()) {
    // The report's own program reads the declarations the API reaches (aws-cdk-lib's for @docket/cdk): tens of seconds.
    it(
      `the API of packages/${folder} as built is its committed api.md (npm run api:report rewrites it on purpose)`,
      {
        timeout: 300_000,
      },
      () => {
        const { manifest, dir } = built[i]!;
        const committed = readFileSync(join(PACKAGES_DIR, folder, 'api.md'), 'utf8');
        expect(builtApiReport(folder, manifest, dir)).toBe(committed);
      },
    );
  }
});

describe('apiReport', () => {
  /** A built package's shape: dist/index.d.ts re-exporting a declaration tree, one interface left unexported. */
  function reportOf(options: string, comment: string): string {
    mkdirSync(OUT_DIR, { recursive: true });
    const dir = mkdtempSync(join(OUT_DIR, '.api-fixture-'));
    try {
      mkdirSync(join(dir, 'dist'));
      mkdirSync(join(dir, 'types'));
      writeFileSync(join(dir, 'dist', 'index.d.ts'), "export * from '../types/index.js';\n");
      writeFileSync(
        join(dir, 'types', 'index.d.ts'),
        `import type { Options } from './options.js';\n/** ${comment} */\nexport declare function run(o: Options): void;\n`,
      );
      writeFileSync(join(dir, 'types', 'options.d.ts'), `export interface Options { ${options} }\n`);
      return apiReport('@docket/fixture', [{ entry: 'index', file: join(dir, 'dist', 'index.d.ts') }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('names every export with its declaration and expands what an export reaches but does not export', () => {
    const report = reportOf('readonly limit: number;', 'Runs.');
    expect(report).toContain('export function run(o: Options): void;');
    expect(report).toMatch(/## Referenced, not exported[\s\S]*interface Options \{\s*readonly limit: number;\s*\}/);
  });

  it('changes when a member of an unexported interface changes, and not when a comment does', () => {
    const before = reportOf('readonly limit: number;', 'Runs.');
    expect(reportOf('readonly limit: string;', 'Runs.')).not.toBe(before);
    expect(reportOf('readonly limit: number;', 'Runs once, then stops.')).toBe(before);
  });
});
