import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.js';
import { memoryIo } from '../../cli/io.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EX = join(ROOT, 'examples');
export const REQ = join(EX, 'requests');
export const TRIAGE = join(EX, 'data-request-intake-triage.json');

/** Runs the CLI in-process and returns its exit code and output. */
export async function cli(argv: string[], stdin: string | Uint8Array = '') {
  const io = memoryIo(stdin);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err(), outBytes: io.outBytes() };
}

/**
 * Builds dist/ once if it is missing (npm test builds before vitest; a lone `npx vitest run test/cli` may not have).
 * `--force`: the incremental build's record (dist/tsconfig.build.tsbuildinfo) may outlive a deleted output.
 */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
    execFileSync('npx', ['tsc', '-b', 'tsconfig.build.json', '--force'], { cwd: ROOT, stdio: 'inherit' });
}

/** Runs `node bin/docket.js …` as a real subprocess. */
export function docket(args: string[], input?: string | Uint8Array) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'docket.js'), ...args], {
    cwd: ROOT,
    input: input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Lines of output without the final newline. */
export const lines = (s: string): string[] => (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n');
