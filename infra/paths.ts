/** Where the repository lives, found from this file so that `dist/infra/*.js` and `infra/*.ts` agree. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'docket') return dir;
    const up = resolve(dir, '..');
    if (up === dir) throw new Error('cannot find the docket repository root above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** Handler sources, bundled by esbuild at synth time. */
export const HANDLER_ENTRIES = {
  evaluate: 'functions/evaluate.ts',
  checkpoint: 'functions/checkpoint.ts',
  sequence: 'functions/sequence.ts',
  deliver: 'functions/deliver.ts',
} as const;
