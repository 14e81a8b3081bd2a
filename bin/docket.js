#!/usr/bin/env node
// The `docket` command. The TypeScript sources are compiled to dist/ by `npm ci` (the `prepare` script).
// Docket runs on Node ≥ 22.5 (docs/adr/0110-node-24-runtime.md). npm scripts and `npx docket` already find the
// Node 24 of the `node` devDependency first on PATH; a shell whose own Node is older (e.g. 20) that starts this file
// directly gets it re-run on that Node 24 instead of a failure deep inside a dependency.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
    process.exit(70);
  }
  const r = spawnSync(local, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 70);
}
await import('../dist/cli/main.js');
