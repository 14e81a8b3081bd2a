/**
 * The test lanes partition the suite (docs/adr/0320-test-lanes.md): every test file is in exactly one lane, by its
 * name alone, vitest's own projects agree with that, and no file of the unit lane starts a stack or a browser —
 * neither itself nor through a test helper it imports — so `npm run test:unit` stays the quick inner loop.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname, join, matchesGlob, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_ENTRY_POINTS,
  LANES,
  lanesOf,
  MODULE_STATE_CHANGES,
  STACK_ENTRY_POINTS,
  UNIT_ISOLATED,
  type LaneName,
} from './lanes.js';

const ROOT = join(import.meta.dirname, '..', '..');
const testFiles = globSync('test/**/*.test.ts', { cwd: ROOT }).map((f) => f.split('\\').join('/'));
const laneOf = (file: string): LaneName[] => lanesOf(file, matchesGlob);
/** The vitest project a file of a lane runs in (vitest.config.ts): the lane's name, or unit-isolated. */
const projectOf = (file: string): string => (UNIT_ISOLATED.includes(file) ? 'unit-isolated' : laneOf(file)[0]!);

/** The file and every test helper it imports (relative imports under test/), transitively. */
function withHelpers(file: string): string[] {
  const seen = new Set<string>();
  const visit = (f: string): void => {
    if (seen.has(f)) return;
    seen.add(f);
    const text = readFileSync(join(ROOT, f), 'utf8');
    for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      const target = relative(ROOT, join(ROOT, dirname(f), `${m[1]}.ts`))
        .split('\\')
        .join('/');
      // Only helpers that exist: some tests hold planted imports of made-up files in strings.
      if (target.startsWith('test/') && existsSync(join(ROOT, target))) visit(target);
    }
  };
  visit(file);
  return [...seen];
}

function namedEntryPoints(file: string, patterns: readonly RegExp[]): string[] {
  return withHelpers(file).flatMap((f) => {
    const text = readFileSync(join(ROOT, f), 'utf8');
    return patterns.filter((p) => p.test(text)).map((p) => `${f}: ${p.source}`);
  });
}

describe('the test lanes', () => {
  it('find the suite they partition', () => {
    expect(testFiles.length).toBeGreaterThan(150);
  });

  it('put every test file in exactly one lane', () => {
    const misplaced = testFiles
      .map((f) => ({ f, lanes: laneOf(f) }))
      .filter((x) => x.lanes.length !== 1)
      .map((x) => `${x.f}: ${x.lanes.join(', ') || 'no lane'}`);
    expect(misplaced).toEqual([]);
  });

  it.each([
    ['test/graph/cycles.test.ts', 'unit'],
    ['test/bench/figures.test.ts', 'unit'],
    ['test/adapters/new-table.stack.test.ts', 'stack'],
    ['test/console/new-view.e2e.test.ts', 'stack'],
    ['test/e2e/graphs.test.ts', 'stack'],
    ['test/e2e/nested/graphs.e2e.test.ts', 'stack'],
    ['test/console/graph-view.browser.test.ts', 'browser'],
    ['test/e2e/graph-view.browser.test.ts', 'browser'],
    ['test/e2e/long-crash.soak.test.ts', 'soak'],
    ['test/console/corpus.soak.test.ts', 'soak'],
  ])('place a new file %s in the %s lane by its name alone', (file, lane) => {
    expect(laneOf(file)).toEqual([lane]);
  });

  it('are the projects vitest runs, file for file', () => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'list', '--filesOnly', '--json'],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const listed = (JSON.parse(r.stdout) as Array<{ file: string; projectName: string }>)
      .map((x) => `${relative(ROOT, x.file).split('\\').join('/')} ${x.projectName}`)
      .sort();
    expect(listed).toEqual(testFiles.map((f) => `${f} ${projectOf(f)}`).sort());
    expect(new Set(listed.map((l) => l.split(' ')[1]))).toEqual(
      new Set([...LANES.map((l) => l.name), 'unit-isolated']),
    );
  });

  it('isolate only unit-lane files that exist', () => {
    expect(UNIT_ISOLATED.filter((f) => !testFiles.includes(f) || laneOf(f)[0] !== 'unit')).toEqual([]);
  });

  it.each(testFiles.filter((f) => projectOf(f) === 'unit'))(
    'keep %s, which shares its worker with other unit files, from changing state they would see',
    (file) => {
      expect(namedEntryPoints(file, MODULE_STATE_CHANGES)).toEqual([]);
    },
  );

  it('find the state a file changes, itself or through a test helper it imports', () => {
    for (const file of UNIT_ISOLATED) expect(namedEntryPoints(file, MODULE_STATE_CHANGES), file).not.toEqual([]);
  });

  it.each(testFiles.filter((f) => laneOf(f)[0] === 'unit'))(
    'keep %s in the unit lane free of stacks and browsers',
    (file) => {
      expect(namedEntryPoints(file, [...STACK_ENTRY_POINTS, ...BROWSER_ENTRY_POINTS])).toEqual([]);
    },
  );

  it.each(testFiles.filter((f) => laneOf(f)[0] === 'stack'))('keep %s in the stack lane free of browsers', (file) => {
    expect(namedEntryPoints(file, BROWSER_ENTRY_POINTS)).toEqual([]);
  });

  it('find the launcher a file calls, itself or through a test helper it imports', () => {
    // Read as if they were unit files: a direct call, and a call two imports away (the console's browser test
    // starts its stack through test/e2e/harness.ts, which calls the launcher).
    expect(namedEntryPoints('test/e2e/pipeline.e2e.test.ts', STACK_ENTRY_POINTS)).toContain(
      'test/e2e/pipeline.e2e.test.ts: \\bstartE2e\\(',
    );
    expect(namedEntryPoints('test/console/console.browser.test.ts', STACK_ENTRY_POINTS)).toContain(
      'test/e2e/harness.ts: \\bstartLocalStack\\(',
    );
    expect(namedEntryPoints('test/console/xss.browser.test.ts', BROWSER_ENTRY_POINTS).join('\n')).toMatch(
      /launchChromium/,
    );
  });
});
