/**
 * Tests run from TypeScript sources, but the stack process is a plain `node` child: bundle localstack/serve.ts and
 * the function host's worker entry (our code only; packages stay external) side by side into node_modules/.cache, so
 * their bare imports resolve as in dist/ and serve finds ./function-host-worker.js next to itself.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

export async function buildServeEntry(): Promise<string> {
  const dir = join(process.cwd(), 'node_modules', '.cache', 'docket-localstack-test', `serve-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  // ES modules: package scope lookup stops at node_modules, so the directory says so itself.
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  await build({
    entryPoints: [
      join(process.cwd(), 'localstack', 'serve.ts'),
      join(process.cwd(), 'localstack', 'function-host-worker.ts'),
    ],
    outdir: dir,
    entryNames: '[name]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'silent',
  });
  return join(dir, 'serve.js');
}

/** Bundles one more module (a test's handler) the same way, into the same directory; returns its path. */
export async function buildModuleBeside(serveEntry: string, source: string, name: string): Promise<string> {
  const outfile = join(dirname(serveEntry), `${name}.js`);
  await build({
    entryPoints: [join(process.cwd(), source)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'silent',
  });
  return outfile;
}
