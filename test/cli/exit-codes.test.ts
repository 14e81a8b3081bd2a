/**
 * Exit codes have one home, `EXIT` in cli/args.ts (ADR 0040): no file under cli/ defines an exit status of its own,
 * so docs/architecture.md's "CLI exit codes: cli/args.ts" stays true.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/args.js';

const ROOT = join(import.meta.dirname, '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** A constant whose name says it is an exit status, set to a number: `const EXIT_NOT_OK = 1`, `FOO_EXIT = 141`. */
const OWN_EXIT = /\bconst\s+(\w*EXIT\w*)\s*(?::\s*\w+\s*)?=\s*\d/g;
const ownExitCodes = (text: string): string[] => [...text.matchAll(OWN_EXIT)].map((m) => m[1]!);

describe('CLI exit codes', () => {
  it('are defined only in cli/args.ts', () => {
    const found = tsFiles(join(ROOT, 'cli'))
      .filter((f) => !f.endsWith(join('cli', 'args.ts')))
      .flatMap((f) => ownExitCodes(readFileSync(f, 'utf8')).map((name) => `${relative(ROOT, f)}: ${name}`));
    expect(found).toEqual([]);
  });

  it('are found by the check when a command defines its own', () => {
    expect(ownExitCodes('export const EXIT_NOT_OK = 1;\nconst CLOSED_PIPE_EXIT = 141;')).toEqual([
      'EXIT_NOT_OK',
      'CLOSED_PIPE_EXIT',
    ]);
  });

  it('keep the values scripts rely on (ADR 0040, ADR 0103)', () => {
    expect([EXIT.OK, EXIT.FAILED, EXIT.NOT_OK, EXIT.NO_VERDICT, EXIT.NOT_CHECKPOINTED, EXIT.USAGE]).toEqual([
      0, 1, 1, 2, 3, 64,
    ]);
  });
});
