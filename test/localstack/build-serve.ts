/**
 * Tests run from TypeScript sources, but the stack process is a plain `node` child: bundle localstack/serve.ts
 * (our code only; packages stay external) into node_modules/.cache so its bare imports resolve as in dist/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function buildServeEntry(): Promise<string> {
  const dir = join(process.cwd(), 'node_modules', '.cache', 'docket-localstack-test');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `serve-${process.pid}.mjs`);
  await build({
    entryPoints: [join(process.cwd(), 'localstack', 'serve.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return outfile;
}
