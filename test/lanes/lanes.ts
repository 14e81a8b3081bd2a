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
 *
 * The unit lane runs as two vitest projects (docs/adr/0495-unit-lane-shares-module-graphs.md): `unit`, whose files
 * share each worker's module graph (vitest `isolate: false`), and `unit-isolated`, the files of UNIT_ISOLATED, each in
 * a fresh worker. `--project 'unit*'` runs the lane.
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

/**
 * The unit-lane files that change state another file sharing their worker would see (MODULE_STATE_CHANGES):
 * the ledger's crypto port, mocked clocks and spied streams, reset module registries. They run each in a fresh
 * worker; test/lanes/lanes.test.ts fails when a file of the shared project changes such state.
 */
export const UNIT_ISOLATED: readonly string[] = [
  'test/adapters/handoff-consumer-port.test.ts',
  'test/adapters/sdk-sha256.test.ts',
  'test/bench/log-volume.test.ts',
  'test/ledger/crypto-port.test.ts',
  'test/ledger/sodium-ed25519.test.ts',
  'test/pipeline/deliver-runtime.test.ts',
  'test/pipeline/observability-head-regressed.test.ts',
  'test/pipeline/observability-per-batch.test.ts',
  'test/verify/corpus-teeth.test.ts',
];

/**
 * What a test file (or a test helper it imports) does that outlives the file in a worker that shares its module
 * graph: vitest mocks, spies, fake timers, module resets and stubs; writes to process.env, process-wide listeners or
 * globals; a changed working directory; installing a ledger crypto port (test/setup-node-crypto.ts reinstalls the
 * fastest port before every file, so the port a shared file runs on is always that one).
 */
export const MODULE_STATE_CHANGES: readonly RegExp[] = [
  /\bvi\.(mock|doMock|unmock|spyOn|stubEnv|stubGlobal|resetModules|useFakeTimers|setSystemTime)\(/,
  /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bdelete process\.env\b/,
  /\bprocess\.(on|once|addListener|prependListener|chdir|umask|setUncaughtExceptionCaptureCallback)\(/,
  /\bglobalThis\.\w+\s*=(?!=)/,
  /\binstallLedgerCrypto\(/,
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
