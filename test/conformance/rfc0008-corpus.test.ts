import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRfc0008Corpus } from '../../conformance/generator/emit.js';
import { findRepoRoot, runCorpus, runEvaluationCase } from '../../conformance/runner.js';

const ROOT = findRepoRoot();
const CORPUS = join(ROOT, 'conformance');
const DRAFT = join(CORPUS, 'rfc0008');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('the RFC 0008 draft corpus', () => {
  it('is exactly what the committed generator produces', () => {
    const generated = generateRfc0008Corpus();
    const committed = walk(DRAFT)
      .map((f) => relative(CORPUS, f))
      .sort();
    expect(committed).toEqual([...generated.keys()].sort());
    for (const [path, bytes] of generated)
      expect(Buffer.compare(readFileSync(join(CORPUS, path)), Buffer.from(bytes)), path).toBe(0);
  });

  it('names the draft feature it requires in both manifests', () => {
    for (const suite of ['document', 'evaluation']) {
      const m = JSON.parse(readFileSync(join(DRAFT, suite, 'manifest.json'), 'utf8'));
      expect(m.requiresDraftFeatures).toEqual(['rfc0008-quantifiers']);
    }
  });

  it('is not run without the opt-in, so the Core corpus count is unchanged', () => {
    const r = runCorpus({ suite: 'evaluation', only: 'q-' });
    expect(r.results.every((x) => x.suite === 'evaluation')).toBe(true);
    expect(r.results.some((x) => x.id.startsWith('q-limit'))).toBe(false);
  });

  it('passes every row under the opt-in, including both rows of each limit-accounting total', () => {
    const r = runCorpus({ draftFeatures: ['rfc0008-quantifiers'], only: 'q-' });
    const draft = r.results.filter((x) => x.suite.startsWith('rfc0008'));
    expect(draft.filter((x) => !x.passed)).toEqual([]);
    expect(draft.filter((x) => x.id.endsWith('-at-total')).length).toBe(18);
    expect(draft.filter((x) => x.id.endsWith('-below-total')).length).toBe(18);
    expect(draft.length).toBeGreaterThanOrEqual(110);
  });

  it('fails its rows when run by a reader without the feature: the packs are not conformant', () => {
    const m = JSON.parse(readFileSync(join(DRAFT, 'evaluation', 'manifest.json'), 'utf8'));
    const c = m.cases.find((x: { id: string }) => x.id === 'q-exists-one-of-three');
    const r = runEvaluationCase(ROOT, c, 'rfc0008', []);
    expect(r.passed).toBe(false);
    expect(r.actual).toMatch(/^error pack-not-conformant\/preflight/);
  });
});
