/**
 * The four test lanes (docs/adr/0320-test-lanes.md), as file-name globs so that a new test file lands in exactly
 * one lane without anyone editing the configuration:
 *
 * - `*.soak.test.ts` → soak: the long crash and corpus passes (minutes each).
 * - `*.browser.test.ts` → browser: Chromium drives a page (it may start a stack for the page to read).
 * - `*.stack.test.ts`, `*.e2e.test.ts`, or any test under `test/e2e/` → stack: over the local emulators.
 * - every other `*.test.ts` → unit: pure core, adapters against fakes, the CLI in-process; no stack, no browser.
 *
 * The suffixes are checked in that order, so `x.soak.test.ts` under `test/e2e/` is soak, not stack.
 * vitest.config.ts builds its projects from these globs and test/lanes/lanes.test.ts proves the partition.
 */

export type LaneName = 'unit' | 'stack' | 'browser' | 'soak';

export interface Lane {
  readonly name: LaneName;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

const SOAK = ['test/**/*.soak.test.ts'];
const BROWSER = ['test/**/*.browser.test.ts'];
const STACK = ['test/**/*.stack.test.ts', 'test/**/*.e2e.test.ts', 'test/e2e/**/*.test.ts'];

export const LANES: readonly Lane[] = [
  { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...SOAK, ...BROWSER, ...STACK] },
  { name: 'stack', include: STACK, exclude: [...SOAK, ...BROWSER] },
  { name: 'browser', include: BROWSER, exclude: SOAK },
  { name: 'soak', include: SOAK, exclude: [] },
];

/** The lanes whose globs take a repository-relative test file path (forward slashes). */
export function lanesOf(file: string, matches: (path: string, glob: string) => boolean): LaneName[] {
  return LANES.filter(
    (lane) => lane.include.some((g) => matches(file, g)) && !lane.exclude.some((g) => matches(file, g)),
  ).map((lane) => lane.name);
}

/**
 * What starts an emulator stack or a browser, as it appears in a test's source or in a test helper it imports:
 * a call of a launcher's entry point, or an import of an emulator or browser driver. A file of the unit lane names none of these; a file
 * of the stack lane names none of the browser ones.
 */
export const STACK_ENTRY_POINTS: readonly RegExp[] = [
  /\bstartLocalStack\(/,
  /\bstartE2e\(/,
  /\bstartDaemon\(/,
  /\bstartDynalite\(/,
  /\bstartFunctionHost\(/,
  /\bstartEdgeProxy\(/,
  /\bstartPoller\(/,
  /^import [^;]*from 'dynalite';/m,
  /^import [^;]*from 'fauxqs';/m,
];
export const BROWSER_ENTRY_POINTS: readonly RegExp[] = [
  /\blaunchChromium\(/,
  /\bopenOfflinePage\(/,
  /^import [^;]*from 'playwright(-core)?';/m,
];
