import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, EX, lines, TRIAGE } from './helpers.js';

const OVERLAP = JSON.stringify({
  specVersion: '0.3.0',
  id: 'urn:x:overlap',
  version: '1.0.0',
  title: 'Overlap',
  decision: { intent: 'i', question: 'q' },
  outcomes: [
    { id: 'low', label: 'Low' },
    { id: 'high', label: 'High' },
  ],
  rules: [
    {
      id: 'a',
      description: 'd',
      when: { op: 'fact', path: '/score', operator: 'greater-than-or-equal', value: '40' },
      outcome: 'low',
      onUnknown: 'ignore',
    },
    {
      id: 'b',
      description: 'd',
      when: { op: 'fact', path: '/score', operator: 'greater-than-or-equal', value: '70' },
      outcome: 'high',
      onUnknown: 'ignore',
    },
  ],
});

describe('docket validate', () => {
  it('prints one JSON object with conformant, class and diagnostics and exits 0 for a conformant pack', async () => {
    const r = await cli(['validate', TRIAGE, '--json']);
    expect(r.code).toBe(0);
    expect(lines(r.out)).toHaveLength(1);
    const v = JSON.parse(r.out);
    expect(v.conformant).toBe(true);
    expect(v.class).toBe('valid');
    expect(Array.isArray(v.diagnostics)).toBe(true);
    for (const d of v.diagnostics) {
      expect(Object.keys(d).slice(0, 1)).toEqual(['code']);
      expect(typeof d.message).toBe('string');
    }
  });

  it('names the carrier layer and exits 1 for a pack with a duplicate member', async () => {
    const r = await cli(['validate', '-', '--json'], '{"specVersion":"0.3.0","specVersion":"0.3.0"}');
    expect(r.code).toBe(1);
    const v = JSON.parse(r.out);
    expect(v).toMatchObject({ conformant: false, class: 'carrier' });
    expect(v.diagnostics.length).toBeGreaterThan(0);
  });

  it('names the structural and semantic layers for documents failing there', async () => {
    const structural = await cli(['validate', '-', '--json'], '[]');
    expect(JSON.parse(structural.out).class).toBe('structural');
    const pack = JSON.parse(readFileSync(join(EX, 'vendor-onboarding-target.json'), 'utf8'));
    pack.rules[0].outcome = 'not-declared';
    const semantic = await cli(['validate', '-', '--json'], JSON.stringify(pack));
    expect(semantic.code).toBe(1);
    expect(JSON.parse(semantic.out)).toMatchObject({ conformant: false, class: 'semantic' });
  });

  it('reports an exact overlap as a warning by default and as a failure under --strict', async () => {
    const plain = await cli(['validate', '-', '--json'], OVERLAP);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.out).diagnostics.map((d: { code: string }) => d.code)).toContain('JPS-RULES-OVERLAP');
    const strict = await cli(['validate', '-', '--json', '--strict'], OVERLAP);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.out).conformant).toBe(false);
  });

  it('prints a readable report without --json', async () => {
    const ok = await cli(['validate', join(EX, 'routes-all-filtered.json')]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('conformant (specVersion 0.3.0, profile base)');
    const bad = await cli(['validate', '-'], '{');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('not conformant (fails the carrier layer)');
  });

  it('reads the file as bytes, so invalid UTF-8 is refused rather than replaced', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"title":"'), 0xff, ...new TextEncoder().encode('"}')]);
    const r = await cli(['validate', '-', '--json'], bytes);
    expect(JSON.parse(r.out).class).toBe('carrier');
  });

  it('exits 64 with usage on stderr for a missing argument, an extra argument or an unknown flag', async () => {
    for (const argv of [['validate'], ['validate', 'a.json', 'b.json'], ['validate', TRIAGE, '--fast']]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(64);
      expect(r.out).toBe('');
      expect(r.err).toContain('usage: docket validate');
    }
  });

  it('exits 66 when the pack file cannot be read', async () => {
    const r = await cli(['validate', join(EX, 'no-such-pack.json')]);
    expect(r.code).toBe(66);
    expect(r.err).toContain('no such file');
  });
});
