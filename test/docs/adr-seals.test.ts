/**
 * Accepted ADRs never change (docs/adr/0321-accepted-adrs-are-sealed.md): each ADR's text, its Status line aside,
 * matches the digest sealed in docs/adr/sealed.sha256. The check is proven on planted edits in a copy of docs/adr.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSeals, digestOf, MANIFEST, readManifest, seal, sealedText } from './adr-seal.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'adr');
const ADR = '0010-carrier-refuses-bom.md';

describe('the sealed ADRs', () => {
  it('are every ADR in docs/adr, each unchanged since it was sealed', () => {
    const findings = checkSeals(DIR);
    expect(findings.map((f) => f.message)).toEqual([]);
  });

  it('cover well over a hundred ADRs', () => {
    expect(readManifest(readFileSync(join(DIR, MANIFEST), 'utf8')).size).toBeGreaterThan(140);
  });
});

describe('the seal check on a copy of docs/adr', () => {
  let copy: string;
  beforeEach(() => {
    copy = mkdtempSync(join(tmpdir(), 'docket-adr-seal-'));
    cpSync(DIR, copy, { recursive: true });
  });
  afterEach(() => rmSync(copy, { recursive: true, force: true }));
  const edit = (file: string, f: (text: string) => string) =>
    writeFileSync(join(copy, file), f(readFileSync(join(copy, file), 'utf8')));

  it('fails on a planted edit to the text of an accepted ADR, naming the ADR and what to do instead', () => {
    edit(ADR, (t) => t.replace('## Decision', '## Decision\nA sentence added after acceptance.'));
    const findings = checkSeals(copy);
    expect(findings.map((f) => [f.file, f.kind])).toEqual([[ADR, 'changed']]);
    expect(findings[0]?.message).toMatch(/new ADR that supersedes it/);
  });

  it('fails on a changed byte that leaves the text the same length (a digit, not a sentence)', () => {
    edit(ADR, (t) => t.replace('2026-12-02', '2026-12-03'));
    expect(checkSeals(copy).map((f) => f.kind)).toEqual(['changed']);
  });

  it.each(['superseded by 0999', 'partially superseded by 0999', 'partially superseded by 0998, 0999'])(
    'accepts the Status line alone moving to "%s"',
    (status) => {
      edit(ADR, (t) => t.replace('- Status: accepted', `- Status: ${status}`));
      expect(checkSeals(copy)).toEqual([]);
    },
  );

  it('names `npm run adr:seal` for a new ADR not sealed yet, and is clean once it is sealed', () => {
    writeFileSync(join(copy, '0999-a-new-decision.md'), '# ADR 0999: A new decision\n\n- Status: accepted\n');
    const before = checkSeals(copy);
    expect(before.map((f) => [f.file, f.kind])).toEqual([['0999-a-new-decision.md', 'unsealed']]);
    expect(before[0]?.message).toContain('npm run adr:seal');
    expect(seal(copy)).toEqual({ added: ['0999-a-new-decision.md'], findings: [] });
    expect(checkSeals(copy)).toEqual([]);
  });

  it('never rewrites the seal of a changed ADR when sealing, and says so', () => {
    edit(ADR, (t) => `${t}\nOne more line.\n`);
    const manifest = readFileSync(join(copy, MANIFEST), 'utf8');
    const r = seal(copy);
    expect(r.added).toEqual([]);
    expect(r.findings.map((f) => [f.file, f.kind])).toEqual([[ADR, 'changed']]);
    expect(readFileSync(join(copy, MANIFEST), 'utf8')).toBe(manifest);
  });

  it('fails when a sealed ADR is deleted', () => {
    rmSync(join(copy, ADR));
    expect(checkSeals(copy).map((f) => [f.file, f.kind])).toEqual([[ADR, 'missing']]);
  });

  it('refuses a manifest line that is not "<sha256>  <file>", or files out of order', () => {
    appendFileSync(join(copy, MANIFEST), 'not a seal\n');
    expect(() => checkSeals(copy)).toThrow(/line \d+ is not/);
    expect(() => readManifest(`${'a'.repeat(64)}  0002-b.md\n${'b'.repeat(64)}  0001-a.md\n`)).toThrow(/out of order/);
  });
});

describe('the sealed text of an ADR', () => {
  it('is the text with its Status line normalized, so only that line may change', () => {
    const text = '# ADR 0001: X\n\n- Status: accepted\n- Date: 2026-12-02\n\n## Context\nWhy.\n';
    expect(sealedText(text)).toBe('# ADR 0001: X\n\n- Status: (sealed)\n- Date: 2026-12-02\n\n## Context\nWhy.\n');
    expect(digestOf(text)).toBe(digestOf(text.replace('accepted', 'superseded by 0002')));
    expect(digestOf(text)).not.toBe(digestOf(text.replace('Why.', 'Why not.')));
    expect(digestOf(text)).toMatch(/^[0-9a-f]{64}$/);
  });
});
