/**
 * Product code and the docs that describe it cite only decisions in force (docs/adr/README.md): a comment or a doc
 * that names a wholly superseded ADR, or an ADR that no longer exists, sends the reader to a rule that does not hold.
 * Cite the successor instead. A partially superseded ADR may still be cited for the part that stands. ADRs
 * themselves are history and may cite anything.
 */
import { globSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const ADR_DIR = join(ROOT, 'docs', 'adr');
const PRODUCT = ['core', 'functions', 'adapters', 'cli', 'infra', 'localstack', 'stack', 'bench', 'console', 'scripts'];
const SOURCE = /\.(ts|tsx|mjs|cjs|js|html|css)$/;
const SKIPPED = /(\.test\.ts$|\/generated\/|\/node_modules\/)/;

const adrFiles = readdirSync(ADR_DIR).filter((f) => /^\d{4}-.*\.md$/.test(f));
const existing = new Set(adrFiles.map((f) => f.slice(0, 4)));
const superseded = new Set(
  adrFiles
    .filter((f) => /^- Status: superseded by /m.test(readFileSync(join(ADR_DIR, f), 'utf8')))
    .map((f) => f.slice(0, 4)),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (SKIPPED.test(`${path}${d.isDirectory() ? '/' : ''}`)) return [];
    return d.isDirectory() ? sourceFiles(path) : SOURCE.test(d.name) ? [path] : [];
  });
}

/** Every ADR number a text cites: `ADR 0053`, `ADRs 0131, 0132 and 0133`, `ADRs 0063–0068`, `docs/adr/0053-…`. */
export function citedAdrs(text: string): string[] {
  const lists = [...text.matchAll(/\bADRs?\s+(\d{4}(?:(?:,\s*|\s+and\s+|\s*[–-]\s*)\d{4})*)/g)].map((m) => m[1]!);
  const paths = [...text.matchAll(/\badr\/(\d{4})-/g)].map((m) => m[1]!);
  return [...lists.flatMap((l) => l.match(/\d{4}/g) ?? []), ...paths];
}

describe('ADR citations in product code', () => {
  const files = PRODUCT.flatMap((d) => sourceFiles(join(ROOT, d)));

  it('are read from the whole product tree', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(superseded.size).toBeGreaterThan(5);
  });

  it('name only ADRs that exist and are not wholly superseded', () => {
    const stale = files.flatMap((f) =>
      [...new Set(citedAdrs(readFileSync(f, 'utf8')))]
        .filter((n) => !existing.has(n) || superseded.has(n))
        .map((n) => `${relative(ROOT, f)}: ADR ${n} (${existing.has(n) ? 'superseded' : 'no such ADR'})`),
    );
    expect(stale).toEqual([]);
  });

  it('in the docs (README.md, docs/*.md, each directory README) name only ADRs in force', () => {
    const docs = ['README.md', ...globSync('docs/*.md', { cwd: ROOT }), ...globSync('*/README.md', { cwd: ROOT })];
    expect(docs).toContain('docs/architecture.md');
    const stale = docs.flatMap((f) =>
      [...new Set(citedAdrs(readFileSync(join(ROOT, f), 'utf8')))]
        .filter((n) => !existing.has(n) || superseded.has(n))
        .map((n) => `${f}: ADR ${n} (${existing.has(n) ? 'superseded' : 'no such ADR'})`),
    );
    expect(stale).toEqual([]);
  });

  it('are found in every form a comment uses', () => {
    expect(
      citedAdrs('(ADR 0053) ADRs 0131, 0132 and 0140; ADRs 0063–0068; docs/adr/0161-log-selection-in-turn.md'),
    ).toEqual(['0053', '0131', '0132', '0140', '0063', '0068', '0161']);
  });
});
