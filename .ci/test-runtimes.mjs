#!/usr/bin/env node
// `npm run test:runtimes`: the runtime-sensitive tests on Node 22 and 26 as a user's own Node would run them
// (docs/adr/0113-other-node-runtimes.md). npm scripts run on the project's Node 24 (ADR 0110); this fetches the
// official Node binaries of the other majors from the npm registry (`node-<platform>-<arch>@<major>`, cached under
// node_modules/.cache) and runs, on each, the test files that exercise what differs between Node versions:
// OpenSSL and node:crypto (ledger signatures), node:sqlite and worker threads (the local stack with persistence),
// the CLI in subprocesses, the pipeline end to end over the wire, and the conformance corpus.
// DOCKET_RUNTIMES=22,26 (default) picks the majors; DOCKET_RUNTIME_TESTS overrides the file list.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const majors = (process.env.DOCKET_RUNTIMES ?? '22,26').split(',').map((s) => s.trim());
const tests = (
  process.env.DOCKET_RUNTIME_TESTS ??
  'test/ledger test/carrier test/cli test/adapters test/localstack test/e2e/pipeline.e2e.test.ts'
).split(/\s+/);
const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

function runtime(major) {
  const dir = join(root, 'node_modules', '.cache', 'docket-runtimes', major);
  const bin = join(dir, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const r = spawnSync(
      'npm',
      ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', dir, `${pkg}@${major}`],
      {
        stdio: 'inherit',
      },
    );
    if (r.status !== 0 || !existsSync(bin)) throw new Error(`could not install ${pkg}@${major}`);
  }
  return bin;
}

let failed = 0;
for (const major of majors) {
  const bin = runtime(major);
  // The runtime first on PATH: every `node` a test or a tool starts by name (cdk, subprocesses) is this one too.
  const env = { ...process.env, PATH: `${dirname(bin)}${delimiter}${process.env.PATH}` };
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  process.stdout.write(`\n== Node ${version}: ${tests.join(' ')} and the conformance corpus\n`);
  const t0 = Date.now();
  const vitest = spawnSync(bin, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...tests], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  const corpus = spawnSync(bin, [join(root, 'bin', 'docket.js'), 'conformance'], { cwd: root, env, stdio: 'inherit' });
  const ok = vitest.status === 0 && corpus.status === 0;
  if (!ok) failed += 1;
  process.stdout.write(
    `== Node ${version}: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
  );
}
process.exitCode = failed === 0 ? 0 : 1;
