/**
 * Code and docs cite the spec (docs/spec-references.md), an ADR or a doc — never an issue number, which a reader of
 * the repository cannot open. ADRs accepted before this rule keep their text (an accepted ADR is never edited; the
 * index docs/adr/README.md says what their issue numbers mean), so only ADRs dated after it are checked.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SKIP = new Set(['node_modules', 'dist', 'cdk.out', '.docket', '.git']);
const TEXT = /\.(ts|js|mjs|md|json)$/;
const RULE_DATE = '2026-12-03';
const ISSUE = /\b[Ii]ssues? #?\d+/;
const GLOSSARY = '## Issue numbers in ADRs accepted before';

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (TEXT.test(name) && name !== 'package-lock.json') yield path;
  }
}

/** An ADR accepted before the rule: frozen text. */
function frozenAdr(rel: string, text: string): boolean {
  if (!/^docs\/adr\/\d{4}-/.test(rel)) return false;
  const date = /^- Date: (\d{4}-\d{2}-\d{2})$/m.exec(text)?.[1];
  return date !== undefined && date < RULE_DATE;
}

describe('issue numbers in code and docs', () => {
  it('the pattern finds an issue reference and ignores other numbers', () => {
    expect(ISSUE.test('see issue 3 item 6')).toBe(true);
    expect(ISSUE.test('Issue 4 item 8, the handler')).toBe(true);
    expect(ISSUE.test('RFC 0008 §3 and ADR 0054')).toBe(false);
  });

  it('no source file, test, bench or doc cites an issue number', () => {
    const offenders: string[] = [];
    for (const path of files(ROOT)) {
      const rel = relative(ROOT, path).split('\\').join('/');
      if (rel === 'test/docs/no-issue-references.test.ts') continue;
      let text = readFileSync(path, 'utf8');
      if (frozenAdr(rel, text)) continue;
      // The index's table that translates the frozen ADRs' issue numbers is the one place allowed to name them.
      if (rel === 'docs/adr/README.md') text = text.split(GLOSSARY)[0] as string;
      text.split('\n').forEach((line, i) => {
        if (ISSUE.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
