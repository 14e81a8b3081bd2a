/**
 * Exit statuses have one home, `EXIT` in core/exit-codes.ts (ADR 0040, ADR 0314): every command — the CLI, the graph
 * commands, the launcher bin/docket.js and the scripts of the local stack and the benches — names its status from
 * there. The check reads the whole product tree for a status written as a number or defined anywhere else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../core/exit-codes.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PRODUCT = ['bin', 'core', 'functions', 'adapters', 'cli', 'infra', 'localstack', 'stack', 'bench', 'scripts'];
const PRODUCT_DIRS = [...PRODUCT, 'console'];
const TABLE = join('core', 'exit-codes.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'generated' || d.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mjs|cjs|js)$/.test(d.name) && !d.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The argument of each `process.exit(…)` (balanced parentheses) and the value of each `process.exitCode = …`. */
function statusExpressions(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bprocess\.exit\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < text.length && depth > 0; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
    found.push(text.slice(m.index, i));
  }
  for (const m of text.matchAll(/\bprocess\.exitCode\s*=\s*[^;\n]*/g)) found.push(m[0]);
  return found;
}

/** A number literal where it becomes the status: the whole value, or a branch of `?:`, `??` or `||`. */
const NUMBER_AS_STATUS = /(?:^|[(?:=]|\?\?|\|\|)\s*\d+\s*(?=$|[):])/;
/** Calls inside a status expression (`main(argv.slice(2))`) pass arguments, not statuses. */
const withoutCalls = (expression: string): string => {
  let e = expression.replace(/^process\.exit\((.*)\)$/s, '$1').replace(/^process\.exitCode\s*=\s*/, '');
  for (let before = ''; before !== e;) [before, e] = [e, e.replace(/[\w\]]\([^()]*\)/g, 'x')];
  return e.trim();
};

/**
 * A status that is not a name from the table: a constant whose name says it is an exit status set to a number
 * (`const EXIT_NOT_OK = 1`), a number literal as the value of `process.exit(…)` or `process.exitCode = …`, or an
 * `exit:` property set to a number.
 */
export const strayExits = (text: string): string[] => [
  ...[...text.matchAll(/\bconst\s+(\w*EXIT\w*)\s*(?::\s*\w+\s*)?=\s*\d+/g)].map((m) => m[0]),
  ...statusExpressions(text).filter((e) => NUMBER_AS_STATUS.test(withoutCalls(e))),
  ...[...text.matchAll(/\bexit(?:Code|Status)?\s*:\s*\d+\b/g)].map((m) => m[0]),
];

describe('exit statuses', () => {
  const files = PRODUCT_DIRS.flatMap((d) => sourceFiles(join(ROOT, d)));

  it('are read from every product directory', () => {
    for (const dir of PRODUCT)
      expect(
        files.some((f) => relative(ROOT, f).startsWith(`${dir}/`)),
        dir,
      ).toBe(true);
  });

  it('are never written as numbers or defined outside core/exit-codes.ts', () => {
    const found = files
      .filter((f) => !f.endsWith(TABLE))
      .flatMap((f) => strayExits(readFileSync(f, 'utf8')).map((s) => `${relative(ROOT, f)}: ${s}`));
    expect(found).toEqual([]);
  });

  it('are found by the check in every form a command could write one', () => {
    expect(
      strayExits(
        'export const EXIT_NOT_OK = 1;\nconst CLOSED_PIPE_EXIT = 141;\nprocess.exit(70);\n' +
          'process.exit(code ?? 70);\nprocess.exitCode = failed ? 1 : 0;\nreturn { exit: 3 };\n' +
          'process.exit(EXIT.SOFTWARE);\nprocess.exitCode = await main(argv.slice(2), io());\n' +
          'process.exit(EXIT.SIGNAL_BASE + signalNumber);\nprocess.exitCode = failed === 0 ? EXIT.OK : EXIT.FAILED;\n',
      ),
    ).toEqual([
      'const EXIT_NOT_OK = 1',
      'const CLOSED_PIPE_EXIT = 141',
      'process.exit(70)',
      'process.exit(code ?? 70)',
      'process.exitCode = failed ? 1 : 0',
      'exit: 3',
    ]);
  });

  it('keep the values scripts rely on (ADR 0040, ADR 0103, ADR 0314)', () => {
    expect([EXIT.OK, EXIT.FAILED, EXIT.NOT_OK, EXIT.NO_VERDICT, EXIT.NOT_CHECKPOINTED, EXIT.USAGE]).toEqual([
      0, 1, 1, 2, 3, 64,
    ]);
    expect([EXIT.NO_INPUT, EXIT.SOFTWARE, EXIT.CLOSED_PIPE]).toEqual([66, 70, 141]);
    expect([
      EXIT.GRAPH_INVALID,
      EXIT.GRAPH_UNSUPPORTED,
      EXIT.GRAPH_INVOCATION,
      EXIT.GRAPH_IO,
      EXIT.GRAPH_INTERNAL,
    ]).toEqual([1, 2, 3, 4, 5]);
  });
});
