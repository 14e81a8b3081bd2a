/**
 * scripts/split-ledger.mjs (docs/adr/0390-core-ledger-split-into-packages.md) run on a small git repository of its
 * own: it refuses a core/ledger file it has no line for and changes nothing; otherwise it moves the files into their
 * packages, rewrites the specifiers and path mentions that name them (but not a sealed ADR), writes the package
 * indexes and the facade, and a second run finds nothing to do.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, writeTree } from './cruise.js';

const TREE: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'core/result.ts': 'export const ok = 1;\n',
  'core/ledger/bytes.ts': 'export const hex = 1;\n',
  'core/ledger/entry.ts':
    "import { ok } from '../result.js';\nimport { hex } from './bytes.js';\n\nexport const entry = hex + ok;\n",
  'core/ledger/verify/index.ts':
    "/** core/ledger/verify: the check. */\nimport { entry } from '../entry.js';\n\nexport const verify = entry;\n",
  'core/ledger/index.ts':
    "/** The old index. */\nexport { hex } from './bytes.js';\nexport { entry, entry as builtEntry } from './entry.js';\n",
  'cli/show.ts':
    "// The entry's reader is core/ledger/entry.ts.\nimport { entry } from '../core/ledger/entry.js';\n\n" +
    "export const mocked = '../core/ledger/bytes.js';\nexport const fixture = 'core/ledger/bytes.ts';\n" +
    'export const show = entry;\n',
  'docs/map.md': 'Bytes live in `core/ledger/bytes.ts`, entries in [entry](../core/ledger/entry.ts).\n',
  'docs/adr/0001-old.md': 'Bytes live in `core/ledger/bytes.ts`.\n',
};

function repository(extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'docket-split-ledger-'));
  writeTree(dir, { ...TREE, ...extra });
  cpSync(join(ROOT, 'scripts/split-ledger.mjs'), join(dir, 'scripts/split-ledger.mjs'));
  cpSync(join(ROOT, '.prettierrc.json'), join(dir, '.prettierrc.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'tree');
  return dir;
}

const split = (dir: string) =>
  spawnSync(process.execPath, ['scripts/split-ledger.mjs'], { cwd: dir, encoding: 'utf8' });
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');

describe('scripts/split-ledger.mjs', () => {
  let dir: string;
  let first: ReturnType<typeof split>;

  beforeAll(() => {
    dir = repository();
    first = split(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('succeeds and moves each file into its package', () => {
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(join(dir, 'core/ledger/primitives/bytes.ts'))).toBe(true);
    expect(existsSync(join(dir, 'core/ledger/entries/entry.ts'))).toBe(true);
    expect(existsSync(join(dir, 'core/ledger/bytes.ts'))).toBe(false);
  });

  it('rewrites the relative imports inside a moved file and of the files that name it', () => {
    expect(read(dir, 'core/ledger/entries/entry.ts')).toContain("from '../../result.js'");
    expect(read(dir, 'core/ledger/entries/entry.ts')).toContain("from '../primitives/bytes.js'");
    expect(read(dir, 'core/ledger/verify/index.ts')).toContain("from '../entries/entry.js'");
    expect(read(dir, 'cli/show.ts')).toContain("from '../core/ledger/entries/entry.js'");
  });

  it('rewrites a relative string naming a moved file, and a mention in a comment, but not a repository path', () => {
    const show = read(dir, 'cli/show.ts');
    expect(show).toContain("mocked = '../core/ledger/primitives/bytes.js'");
    expect(show).toContain("// The entry's reader is core/ledger/entries/entry.ts.");
    expect(show).toContain("fixture = 'core/ledger/bytes.ts'");
    expect(first.stdout).toContain("cli/show.ts:5: 'core/ledger/bytes.ts'");
  });

  it('rewrites mentions in Markdown but leaves a sealed ADR as it was', () => {
    expect(read(dir, 'docs/map.md')).toBe(
      'Bytes live in `core/ledger/primitives/bytes.ts`, entries in [entry](../core/ledger/entries/entry.ts).\n',
    );
    expect(read(dir, 'docs/adr/0001-old.md')).toBe(TREE['docs/adr/0001-old.md']);
  });

  it("gives each package the old index's exports of its files, and makes the old index a facade over them", () => {
    expect(read(dir, 'core/ledger/primitives/index.ts')).toContain("export { hex } from './bytes.js';");
    expect(read(dir, 'core/ledger/entries/index.ts')).toContain(
      "export { entry, entry as builtEntry } from './entry.js';",
    );
    const facade = read(dir, 'core/ledger/index.ts');
    expect(facade.split('\n').filter((l) => l.startsWith('export'))).toEqual([
      "export * from './primitives/index.js';",
      "export * from './entries/index.js';",
      "export * from './verify/index.js';",
    ]);
  });

  it('stages what it did, and a second run finds nothing to do', () => {
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).not.toMatch(/^.[MD?]/m);
    const second = split(dir);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('already split');
  });
});

describe('scripts/split-ledger.mjs on a file it has no line for', () => {
  let dir: string;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 naming the file and changes nothing', () => {
    dir = repository({ 'core/ledger/mystery.ts': 'export const m = 1;\n', 'core/ledger/odd/x.ts': '' });
    const run = split(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('core/ledger/mystery.ts');
    expect(run.stderr).toContain('core/ledger/odd/');
    expect(existsSync(join(dir, 'core/ledger/bytes.ts'))).toBe(true);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');
  });
});
