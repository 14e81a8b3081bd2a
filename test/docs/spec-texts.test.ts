/**
 * The repository stands alone (docs/adr/0322-the-repository-stands-alone.md): every specification text that
 * docs/spec-references.md pins is vendored under spec/ with exactly the bytes its SHA-256 names, and no doc sends a
 * reader to a file outside the repository.
 */
import { createHash } from 'node:crypto';
import { globSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const references = readFileSync(join(ROOT, 'docs', 'spec-references.md'), 'utf8');
/** `name.txt` or `name.md` (N bytes): `<sha256>` cells of the table, for the texts kept under spec/. */
const pinned = [...references.matchAll(/`([a-z0-9.-]+\.(?:txt|md))` \(([\d,]+) bytes\): `([0-9a-f]{64})`/g)].map(
  (m) => ({
    file: m[1] as string,
    size: Number((m[2] as string).replaceAll(',', '')),
    digest: m[3] as string,
  }),
);

describe('the vendored specification texts', () => {
  it('are the texts docs/spec-references.md pins, no more and no fewer', () => {
    expect(pinned.length).toBeGreaterThanOrEqual(5);
    expect(readdirSync(join(ROOT, 'spec')).sort()).toEqual(pinned.map((p) => p.file).sort());
  });

  it.each(pinned)('spec/$file has the pinned size and SHA-256', ({ file, size, digest }) => {
    const bytes = readFileSync(join(ROOT, 'spec', file));
    expect(bytes.length).toBe(size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(digest);
  });
});

describe('the docs', () => {
  it('point at no file outside the repository (../shared/…)', () => {
    const docs = ['README.md', ...globSync('docs/**/*.md', { cwd: ROOT }), ...globSync('*/README.md', { cwd: ROOT })]
      .map((f) => f.split('\\').join('/'))
      // Accepted ADRs are sealed history (ADR 0321): the ones that name ../shared/notes keep their text, and
      // docs/local-aws-stack.md and docs/platform-facts.md now hold those facts.
      .filter((f) => !/^docs\/adr\/\d{4}-/.test(f));
    const outside = docs.filter((f) => /\.\.\/shared\//.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(outside).toEqual([]);
  });
});
