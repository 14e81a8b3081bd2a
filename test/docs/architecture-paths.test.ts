/**
 * docs/architecture.md describes the tree as it is now: every repository path it names in backticks must exist, and
 * every function it names as `` `function` in `file` `` must be defined in that file, so a move, a rename or a
 * deleted design that forgets the page fails `npm test` instead of leaving a newcomer a dead end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const TOP =
  /^(core|adapters|functions|cli|localstack|infra|stack|schema|conformance|bench|test|docs|examples|bin|console)\//;

/** Backticked tokens that look like repository paths (a known top-level directory, then a path). */
export function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/`([A-Za-z0-9_.\-/]+)`/g)) {
    const p = m[1] as string;
    if (TOP.test(p)) out.add(p.replace(/\/$/, ''));
  }
  return [...out].sort();
}

/** Every `` `name` in `file` `` the text names (the name an identifier, the file a path). */
export function namedFunctions(markdown: string): { name: string; file: string }[] {
  return [...markdown.matchAll(/`([A-Za-z_$][\w$]*)` in\s+`([A-Za-z0-9_.\-/]+\.[a-z]+)`/g)].map((m) => ({
    name: m[1] as string,
    file: m[2] as string,
  }));
}

/** Whether a source text defines `name` at its top level: a function, a class, or a const/let binding. */
export function defines(source: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(
    `^(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?(?:function\\*?\\s+${n}\\s*[(<]|class\\s+${n}\\b|(?:const|let)\\s+${n}\\s*[=:])`,
    'm',
  ).test(source);
}

describe('docs/architecture.md', () => {
  const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const path = text.slice(text.indexOf("## A request's path through the code"), text.indexOf('## Where to find'));

  it('names at least the layers it describes', () => {
    expect(namedPaths(text)).toEqual(expect.arrayContaining(['core/ledger', 'core/admission', 'core/replay', 'stack']));
  });

  it('names only paths that exist in the repository', () => {
    expect(namedPaths(text).filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('would catch a path that does not exist', () => {
    expect(namedPaths('see `core/pipeline/request.ts` and `not/a/layer.ts`')).toEqual(['core/pipeline/request.ts']);
  });

  it('gives the request path through the sequence, evaluate and deliver functions and the delivery job', () => {
    const files = namedFunctions(path).map((f) => `${f.name} in ${f.file}`);
    expect(files).toEqual(
      expect.arrayContaining([
        'handler in functions/sequence.ts',
        'handler in functions/evaluate.ts',
        'processRequest in core/pipeline/process-request.ts',
        'deliveryJobBytes in core/pipeline/delivery-job.ts',
        'handler in functions/deliver.ts',
        'deliverJob in core/pipeline/deliver-job.ts',
      ]),
    );
  });

  it('names in each step only functions defined in the file it names', () => {
    const named = namedFunctions(text);
    expect(named.length).toBeGreaterThan(20);
    const missing = named.filter(
      ({ name, file }) => !existsSync(join(ROOT, file)) || !defines(readFileSync(join(ROOT, file), 'utf8'), name),
    );
    expect(missing).toEqual([]);
  });

  it('would catch a function its file does not define', () => {
    expect(namedFunctions('`handleBatch` in `core/pipeline/batch.ts`, then `deliverAll` in\n`x/y.ts`')).toEqual([
      { name: 'handleBatch', file: 'core/pipeline/batch.ts' },
      { name: 'deliverAll', file: 'x/y.ts' },
    ]);
    const source =
      'export async function handleBatch(\nexport const readJob = () => 1;\nclass Box {}\n// function gone(\n';
    expect(['handleBatch', 'readJob', 'Box', 'gone', 'handle'].map((n) => defines(source, n))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
