/**
 * The package build's rules (scripts/build-packages.mjs, docs/adr/0440-packages-built-from-the-repository-folders.md):
 * a template with a wrong name, a non-semantic version or a dependency range other than the repository's is refused
 * with a message naming it; a built package exposes only its "exports", carries no build section, and its bundle
 * imports nothing but its declared dependencies. @docket/verify in particular: no AWS SDK and no node:* import, and
 * no dependency outside @noble/* and canonicalize.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, OUT_DIR, readTemplate, type PackageManifest } from '../../scripts/build-packages.mjs';

describe('readTemplate', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'docket-templates-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const VALID = {
    name: '@docket/fixture',
    version: '0.1.0',
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    dependencies: { canonicalize: '^4.0.0' },
    docket: { entries: { index: 'src/index.ts' } },
  };
  function template(folder: string, changes: Record<string, unknown>): string {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, 'package.json'), JSON.stringify({ ...VALID, ...changes }));
    return folder;
  }

  it('accepts a template that keeps the rules', () => {
    expect(readTemplate(template('ok', {}), dir).name).toBe('@docket/fixture');
  });
  it('refuses a name outside the @docket scope', () => {
    expect(() => readTemplate(template('name', { name: 'left-pad' }), dir)).toThrow(/name "left-pad"/);
  });
  it('refuses a version that is not semantic', () => {
    expect(() => readTemplate(template('version', { version: '1.0' }), dir)).toThrow(/not a semantic version/);
  });
  it('refuses a template without an exports map', () => {
    expect(() => readTemplate(template('exports', { exports: undefined }), dir)).toThrow(/no "exports" map/);
  });
  it('refuses a dependency range other than the one the repository builds against', () => {
    expect(() => readTemplate(template('range', { dependencies: { canonicalize: '^3.0.0' } }), dir)).toThrow(
      /canonicalize is \^3\.0\.0; the repository builds against \^4\.0\.0/,
    );
  });
  it('refuses a dependency the repository does not use', () => {
    expect(() => readTemplate(template('unused', { dependencies: { 'is-odd': '^3.0.1' } }), dir)).toThrow(
      /names is-odd, which the repository does not use/,
    );
  });
});

/** The bare module specifiers an ESM bundle imports (static and dynamic). */
function importsOf(js: string): string[] {
  const found = new Set<string>();
  for (const m of js.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'./][^"']*)["']/g)) found.add(m[1]!);
  return [...found].sort();
}

describe('the built @docket/verify', { timeout: 300_000 }, () => {
  let manifest: PackageManifest;
  let bundle: string;
  let root: string;
  beforeAll(async () => {
    mkdirSync(OUT_DIR, { recursive: true });
    root = mkdtempSync(join(OUT_DIR, '.package-build-'));
    const built = await buildPackage('verify', { outRoot: root });
    manifest = JSON.parse(readFileSync(join(built.dir, 'package.json'), 'utf8')) as PackageManifest;
    bundle = readFileSync(join(built.dir, 'dist', 'index.js'), 'utf8');
  }, 300_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is ESM with an exports map of its entry and its package.json only, and no build section', () => {
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.exports as object).sort()).toEqual(['.', './package.json']);
    expect(manifest).not.toHaveProperty('docket');
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('depends on nothing outside @noble/* and canonicalize', () => {
    const deps = Object.keys(manifest.dependencies ?? {});
    expect(deps.filter((d) => !d.startsWith('@noble/') && d !== 'canonicalize')).toEqual([]);
  });

  it('imports only its declared dependencies: no AWS SDK, no node:* module, so it loads in a browser', () => {
    const declared = Object.keys(manifest.dependencies ?? {});
    const imports = importsOf(bundle);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => !declared.some((d) => i === d || i.startsWith(`${d}/`)))).toEqual([]);
  });
});
