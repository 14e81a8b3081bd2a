import { describe, expect, it } from 'vitest';
import { readJson, toPlain } from '../../core/carrier/index.js';
import { CARRIER_ERROR_CODES } from '../../core/carrier/errors.js';
import { prng } from '../../bench/support/seeded-prng.js';
import { utf8 } from './helpers.js';

const SEEDS = [
  '{"a":[1,2.5e-3,"x\\u00e9\\ud83d\\ude00",true,null],"b":{"c":false,"d":"é€😀"}}',
  '[{"id":1,"tags":["a","b"]},{"id":2,"tags":[]},-0.0,"\\n\\t\\"\\\\"]',
  '{"__proto__":{"x":1},"constructor":"c","n":123456789012345678901234567890}',
  ' "just a string with \\u0041 escapes" ',
];

/** Deep data comparison that ignores prototypes (toPlain gives null-prototype objects). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
function sortKeys(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (x !== null && typeof x === 'object') {
    return Object.keys(x)
      .sort()
      .map((k) => [k, sortKeys((x as Record<string, unknown>)[k])]);
  }
  return x;
}

describe('readJson on 20,000 seeded byte-level mutations', () => {
  it('never throws, always returns one typed result, and never accepts what JSON.parse refuses', () => {
    const r = prng(1234);
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const interesting = [
      0x00, 0x09, 0x20, 0x22, 0x2c, 0x2d, 0x2e, 0x30, 0x31, 0x3a, 0x45, 0x5b, 0x5c, 0x5d, 0x65, 0x75, 0x7b, 0x7d, 0x80,
      0xbf, 0xc3, 0xe2, 0xed, 0xef, 0xf0, 0xff,
    ];
    const counts = new Map<string, number>();
    for (let n = 0; n < 20000; n++) {
      const seed = utf8(SEEDS[n % SEEDS.length]!);
      const b = Array.from(seed);
      const edits = 1 + Math.floor(r() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(r() * (b.length + 1));
        const op = Math.floor(r() * 4);
        const byte = interesting[Math.floor(r() * interesting.length)]!;
        if (op === 0) b.splice(at, 1);
        else if (op === 1) b.splice(at, 0, byte);
        else if (op === 2) b[Math.min(at, b.length - 1)] = byte;
        else b.splice(at, Math.floor(r() * 4), ...b.slice(Math.floor(r() * b.length), Math.floor(r() * b.length)));
      }
      const input = Uint8Array.from(b);
      const result = readJson(input);
      const key = result.ok ? 'ok' : result.error.code;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      let text: string | undefined;
      try {
        text = fatal.decode(input);
      } catch {
        text = undefined;
      }
      let parsed: { value: unknown } | undefined;
      try {
        if (text !== undefined) parsed = { value: JSON.parse(text) as unknown };
      } catch {
        parsed = undefined;
      }
      if (result.ok) {
        // Strict acceptance implies JSON.parse acceptance of the same text with the same data.
        expect(parsed, Array.from(input).join(',')).toBeDefined();
        expect(same(toPlain(result.value), parsed!.value), Array.from(input).join(',')).toBe(true);
      } else {
        expect(CARRIER_ERROR_CODES).toContain(result.error.code);
        expect(result.error.message.length).toBeGreaterThan(0);
        if (text === undefined) expect(result.error.code).toBe('invalid-utf8');
        // What JSON.parse accepts but the carrier refuses is exactly §2.1's additions (or a BOM, ADR 0010).
        if (parsed !== undefined) {
          expect(['duplicate-member', 'lone-surrogate', 'syntax'], Array.from(input).join(',')).toContain(
            result.error.code,
          );
          if (result.error.code === 'syntax') expect(text!.charCodeAt(0)).toBe(0xfeff);
        }
      }
    }
    // The mutations reach acceptance and most refusal kinds, so the assertions above were exercised.
    expect(counts.get('ok') ?? 0).toBeGreaterThan(500);
    for (const code of ['invalid-utf8', 'syntax', 'trailing-data', 'duplicate-member', 'lone-surrogate']) {
      expect(counts.get(code) ?? 0, code).toBeGreaterThan(0);
    }
  });
});

describe('interned member names', () => {
  it('reads back 5,000 distinct names correctly although they collide in the 1,024-slot cache', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `name${(i * 7919) % 100000}`);
    for (let round = 0; round < 2; round++) {
      for (let start = 0; start < names.length; start += 50) {
        const chunk = names.slice(start, start + 50);
        const r = readJson(utf8(`{${chunk.map((k, i) => `"${k}":${i}`).join(',')}}`));
        if (!r.ok || r.value.kind !== 'object') throw new Error('object expected');
        expect([...r.value.members.keys()]).toEqual(chunk);
      }
    }
  });

  it('keeps names of 31, 32 and 33 characters and names with escapes or non-ASCII exact', () => {
    const names = ['x'.repeat(31), 'y'.repeat(32), 'z'.repeat(33), 'a\\u0062c', 'é', 'ab"c'.replace('"', '\\"')];
    const r = readJson(utf8(`{${names.map((k, i) => `"${k}":${i}`).join(',')}}`));
    if (!r.ok || r.value.kind !== 'object') throw new Error('object expected');
    expect([...r.value.members.keys()]).toEqual(['x'.repeat(31), 'y'.repeat(32), 'z'.repeat(33), 'abc', 'é', 'ab"c']);
  });
});
