/**
 * The evaluate Lambda bundle: minified size (bound ≤ 1 MiB, ADR 0333) and module init time, built with the
 * same esbuild options as infra/constructs/docket-function.ts (ESM, node24, minify, keepNames, AWS SDK external —
 * the nodejs24.x runtime provides it). Also the size with the SDK bundled, for reference.
 *
 *   npm run build && node dist/bench/bundle.bench.js
 *
 * Init time = `await import(bundle)` in a fresh Node process, median of 7; same-run baseline = importing a one-line
 * ES module in a fresh process the same way (the floor of module loading), reported as a ratio.
 */
import './support/node-crypto.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const BENCH_COMMAND = 'npm run build && node dist/bench/bundle.bench.js';
const root = fileURLToPath(new URL('../../', import.meta.url));
const out = join(root, '.docket', 'bench-bundle');

async function bundle(file: string, external: string[], define: Record<string, string> = {}): Promise<string> {
  const outfile = join(out, file);
  await build({
    entryPoints: [join(root, 'functions/evaluate.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    minify: true,
    keepNames: true,
    sourcemap: false,
    external,
    define,
    outfile,
    banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
  return outfile;
}

function importMs(file: string): number {
  const script = `const t0 = performance.now(); await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(String(performance.now() - t0));`;
  const runs: number[] = [];
  for (let i = 0; i < 7; i++)
    runs.push(
      Number(
        execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }),
      ),
    );
  return runs.sort((a, b) => a - b)[3]!;
}

async function main(): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const lean = await bundle('evaluate.mjs', ['@aws-sdk/*']);
  const full = await bundle('evaluate-with-sdk.mjs', [], { 'process.env.DOCKET_BUNDLED_SDK': '"true"' });
  const empty = join(out, 'empty.mjs');
  writeFileSync(empty, 'export const x = 1;\n');
  const kb = (f: string) => (statSync(f).size / 1024).toFixed(1);
  const gz = (f: string) => (gzipSync(readFileSync(f)).length / 1024).toFixed(1);
  const baseline = importMs(empty);
  const leanMs = importMs(lean);
  const fullMs = importMs(full);
  console.log('evaluate Lambda bundle (esbuild, ESM, node24, minified, keepNames)');
  console.log(`  SDK external (as deployed) : ${kb(lean)} KB (gzip ${gz(lean)} KB)   bound ≤ 1024 KB (ADR 0333)`);
  console.log(`  SDK bundled (reference)    : ${kb(full)} KB (gzip ${gz(full)} KB)`);
  console.log(`  module init, as deployed   : ${leanMs.toFixed(1)} ms median of 7`);
  console.log(`  module init, SDK bundled   : ${fullMs.toFixed(1)} ms`);
  console.log(
    `  baseline (one-line module) : ${baseline.toFixed(1)} ms → ratio ${(leanMs / baseline).toFixed(1)}× (as deployed)`,
  );
  console.log(`  command: ${BENCH_COMMAND}`);
  rmSync(out, { recursive: true, force: true });
}

await main();
