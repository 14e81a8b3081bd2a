/** Diagnostics are capped per code with a count of the rest (ADR 0153, docs/limits.md). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePack } from '../../core/pack/index.js';
import { DiagnosticCap, MAX_DIAGNOSTICS_PER_CODE } from '../../core/pack/diagnostic-cap.js';

const TRIAGE = join(import.meta.dirname, '..', '..', 'examples', 'data-request-intake-triage.json');
const diag = (code: string, severity: 'error' | 'warning' = 'warning') => ({ code, severity, message: code });

describe('the per-code diagnostic cap', () => {
  it('keeps the first diagnostics of each code and counts the rest in one note per code', () => {
    const cap = new DiagnosticCap(3);
    for (let i = 0; i < 1_234_567 % 1000; i++) cap.push(diag('A'));
    cap.push(diag('B'));
    const out = cap.result();
    expect(out.filter((d) => d.code === 'A')).toHaveLength(3);
    expect(out.filter((d) => d.code === 'B')).toHaveLength(1);
    expect(out.at(-1)).toMatchObject({
      code: 'JPS-DIAGNOSTICS-OMITTED',
      message: 'A: 564 more',
      omittedCode: 'A',
      omitted: 564,
    });
    expect(out).toHaveLength(5);
  });

  it('builds an offered diagnostic only while its code is under the cap, and counts the rest with their severity', () => {
    const cap = new DiagnosticCap(2);
    let built = 0;
    for (let i = 0; i < 1000; i++)
      cap.offer('A', i === 900 ? 'error' : 'warning', () => {
        built++;
        return diag('A');
      });
    expect(built).toBe(2);
    expect(cap.result().at(-1)).toMatchObject({ omittedCode: 'A', omitted: 998, severity: 'error' });
  });

  it('groups the count by thousands and keeps the severity of what it omitted', () => {
    const cap = new DiagnosticCap(0);
    for (let i = 0; i < 396_487; i++) cap.push(diag('JPS-RULES-OVERLAP', i === 5 ? 'error' : 'warning'));
    expect(cap.result()).toEqual([
      {
        code: 'JPS-DIAGNOSTICS-OMITTED',
        severity: 'error',
        message: 'JPS-RULES-OVERLAP: 396,487 more',
        omittedCode: 'JPS-RULES-OVERLAP',
        omitted: 396_487,
      },
    ]);
  });

  it('bounds the overlap warnings of a pack whose rules overlap pairwise', () => {
    const p = JSON.parse(readFileSync(TRIAGE, 'utf8')) as { rules: { id: string }[] };
    const first = p.rules[0]!;
    for (let i = 0; i < 300; i++) p.rules.push({ ...first, id: `copy-${i}` });
    const v = validatePack(new TextEncoder().encode(JSON.stringify(p)));
    expect(v.conformant).toBe(true);
    expect(v.diagnostics.filter((d) => d.code === 'JPS-RULES-OVERLAP')).toHaveLength(MAX_DIAGNOSTICS_PER_CODE);
    const note = v.diagnostics.find((d) => d.code === 'JPS-DIAGNOSTICS-OMITTED');
    expect(note?.message).toMatch(/^JPS-RULES-OVERLAP: \d{1,3}(,\d{3})* more$/);
    expect(note?.['omitted']).toBeGreaterThan(0);
  });
});
