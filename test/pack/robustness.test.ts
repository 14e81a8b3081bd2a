import { describe, expect, test } from 'vitest';
import { validatePack, type PackValidation } from '../../core/pack/index.js';
import { prng } from '../../bench/support/seeded-prng.js';
import { bytes, fixtureBytes, load, type FixtureName, type Pack } from './fixtures/index.js';

function checkShape(r: PackValidation): void {
  expect(['valid', 'carrier', 'structural', 'semantic']).toContain(r.class);
  expect(r.conformant).toBe(r.class === 'valid');
  expect(r.pack !== undefined).toBe(r.conformant);
  if (!r.conformant) expect(r.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  for (const d of r.diagnostics) {
    expect(typeof d.code).toBe('string');
    expect(typeof d.message).toBe('string');
    if (d.pointer !== undefined) expect(d.pointer === '' || d.pointer.startsWith('/')).toBe(true);
  }
}

const FIXTURES: FixtureName[] = ['rich-0.3.0', 'rich-0.2.0-draft', 'extended-16-routes-0.3.0'];
const JUNK = [null, true, 0, -1.5, '', 'x', 'Bad Id', '1e3', [], {}, [null], { op: 'literal', value: true }];

describe('every mutated pack yields exactly one typed verdict and never throws', () => {
  test('2,000 byte-level mutations (flip, delete, insert, truncate) of the sample packs', () => {
    const next = prng(20261202);
    const tokens = [...'{}[]":,\\ ', '\\ud800', '\\u0000', '1e999', 'null', '"__proto__"'];
    for (let i = 0; i < 2000; i++) {
      const src = fixtureBytes(FIXTURES[i % FIXTURES.length]!);
      let text = new TextDecoder().decode(src);
      const at = Math.floor(next() * text.length);
      const kind = Math.floor(next() * 4);
      if (kind === 0) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 5));
      else if (kind === 1) text = text.slice(0, at) + tokens[Math.floor(next() * tokens.length)] + text.slice(at);
      else if (kind === 2) text = text.slice(0, at);
      else text = text.slice(0, at) + String.fromCharCode(32 + Math.floor(next() * 90)) + text.slice(at + 1);
      const b = bytes(text);
      if (kind === 3 && next() < 0.2) b[Math.floor(next() * b.length)] = 0x80 + Math.floor(next() * 0x80);
      checkShape(validatePack(b));
    }
  });

  test('2,000 structure-level mutations (replace or delete a member anywhere) of the sample packs', () => {
    const next = prng(42);
    const counts = { valid: 0, carrier: 0, structural: 0, semantic: 0 };
    for (let i = 0; i < 2000; i++) {
      const p: Pack = load(FIXTURES[i % FIXTURES.length]!);
      // walk to a random container
      let node: Pack = p;
      for (let depth = 0; depth < 6; depth++) {
        const keys = Object.keys(node);
        if (keys.length === 0) break;
        const k = keys[Math.floor(next() * keys.length)]!;
        const child = node[k];
        if (child === null || typeof child !== 'object' || next() < 0.3) {
          if (next() < 0.3 && !Array.isArray(node)) delete node[k];
          else node[k] = JUNK[Math.floor(next() * JUNK.length)];
          break;
        }
        node = child;
      }
      const r = validatePack(bytes(p));
      checkShape(r);
      counts[r.class]++;
    }
    // The mutations reach every non-carrier layer (JSON.stringify never produces carrier errors).
    expect(counts.structural).toBeGreaterThan(0);
    expect(counts.semantic + counts.valid).toBeGreaterThan(0);
  });
});
