/**
 * docs/architecture.md describes the tree as it is now: every repository path it names in backticks must exist, so
 * a move that forgets the page fails `npm test` instead of leaving a newcomer a dead end.
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

describe('docs/architecture.md', () => {
  const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

  it('names at least the layers it describes', () => {
    expect(namedPaths(text)).toEqual(expect.arrayContaining(['core/ledger', 'core/admission', 'core/replay', 'stack']));
  });

  it('names only paths that exist in the repository', () => {
    expect(namedPaths(text).filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('would catch a path that does not exist', () => {
    expect(namedPaths('see `core/pipeline/request.ts` and `not/a/layer.ts`')).toEqual(['core/pipeline/request.ts']);
  });
});
