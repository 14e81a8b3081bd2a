/**
 * Runs the project's own dependency-cruiser config over a small fixture tree written to a temporary directory, so a
 * test can plant an import and see which rule reports it (ADR 0151, ADR 0336).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const CRUISER = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

export interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

export const TSCONFIG = JSON.stringify({
  compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true },
});

export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/** Runs the project's own config over `dir`; returns the violations it reports (exit code ignored, JSON read). */
export function cruise(dir: string, paths: string[]): Violation[] {
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      [CRUISER, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', ...paths],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (e) {
    out = (e as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}
