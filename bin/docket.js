#!/usr/bin/env node
// The `docket` command. The TypeScript sources are compiled to dist/ by `npm ci` (the `prepare` script).
// Docket runs on Node ≥ 22.5 (docs/adr/0110-node-24-runtime.md). npm scripts and `npx docket` already find the
// Node 24 of the `node` devDependency first on PATH; a shell whose own Node is older (e.g. 20) that starts this file
// directly gets it re-run on that Node 24 instead of a failure deep inside a dependency. That child is the command:
// SIGINT, SIGTERM and SIGHUP sent to this launcher are passed on to it, and the launcher ends as the child did, with
// its exit status or by the same signal (docs/adr/0331-launcher-forwards-signals.md).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT } from '../dist/core/exit-codes.js';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs this file again on `node`, forwarding signals; never returns. */
function relaunch(node) {
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (e) => {
    process.stderr.write(`docket: could not start ${node}: ${e.message}\n`);
    process.exit(EXIT.SOFTWARE);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? EXIT.SOFTWARE);
    // Die of the same signal, so a shell or supervisor sees what the child saw; 128 + n if it is not fatal here.
    for (const s of FORWARDED) process.removeListener(s, forward);
    process.kill(process.pid, signal);
    const signalNumber = constants.signals[signal] ?? 0;
    process.exit(EXIT.SIGNAL_BASE + signalNumber);
  });
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 5)) {
  let local;
  try {
    local = join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node');
  } catch {
    local = undefined;
  }
  if (!local || !existsSync(local) || local === process.execPath) {
    process.stderr.write(
      `docket: needs Node ≥ 22.5 (this is ${process.version}); run "npm ci" to install the project's Node 24\n`,
    );
    process.exit(EXIT.SOFTWARE);
  }
  relaunch(local);
} else {
  // Node's on-disk compile cache (Node ≥ 22.1): V8's code for dist/ and node_modules is reused across runs instead of
  // being compiled from source at every start (docs/adr/0332-cli-start-up.md). It lives beside the code it caches,
  // in node_modules/.cache, so whoever can change it could already change that code; entries are keyed by file and
  // checked against the source's hash, so a stale one is never used. Best effort: an unwritable directory only loses
  // the speed-up. NODE_COMPILE_CACHE=<dir> chooses another directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
  if (process.env.NODE_COMPILE_CACHE === undefined)
    module.enableCompileCache?.(fileURLToPath(new URL('../node_modules/.cache/docket-compile-cache', import.meta.url)));
  await import('../dist/cli/main.js');
}
