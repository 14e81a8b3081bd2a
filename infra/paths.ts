/** Where the repository lives, found from this file so that `dist/infra/*.js` and `infra/*.ts` agree. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function repoRoot(): string {
  for (const p of packagesAbove(import.meta.url)) if (p.name === 'docket') return p.dir;
  throw new Error('cannot find the docket repository root above ' + fileURLToPath(import.meta.url));
}

/** The directory and name of every package.json above the module at `fromUrl`, nearest first. */
export function* packagesAbove(fromUrl: string): Generator<{ dir: string; name: string | undefined }> {
  for (let dir = dirname(fileURLToPath(fromUrl)); ; dir = resolve(dir, '..')) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) yield { dir, name: (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name };
    if (resolve(dir, '..') === dir) return;
  }
}

/** Handler sources, bundled by esbuild at synth time. */
export const HANDLER_ENTRIES = {
  evaluate: 'functions/evaluate.ts',
  checkpoint: 'functions/checkpoint.ts',
  sequence: 'functions/sequence.ts',
  deliver: 'functions/deliver.ts',
} as const;
