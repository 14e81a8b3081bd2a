import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalText, LedgerValueError, readCanonicalRecord } from '../../core/ledger/primitives/canonical.js';

function rng(label: string): () => number {
  let i = 0;
  return () => createHash('sha256').update(`${label}:${i++}`).digest().readUInt32BE(0) / 2 ** 32;
}

const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  '€',
  '\u2028',
  '😀',
  '\ufeff',
];

function randomValue(r: () => number, depth: number): unknown {
  const pick = Math.floor(r() * (depth > 3 ? 5 : 7));
  const str = (): string =>
    Array.from({ length: Math.floor(r() * 6) }, () => ALPHABET[Math.floor(r() * ALPHABET.length)]).join('');
  switch (pick) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return Math.floor((r() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
    case 3:
      return Math.floor(r() * 1000) - 500;
    case 4:
      return str();
    case 5:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(r() * 5); i++)
        o[`${String.fromCharCode(0x21 + Math.floor(r() * 94))}${str().replace(/[^\x20-\x7e]/g, 'x')}`] = randomValue(
          r,
          depth + 1,
        );
      return o;
    }
  }
}

describe('the ledger canonical serializer', () => {
  it('writes exactly what the canonicalize package (RFC 8785) writes, over 5,000 random ledger values', () => {
    const r = rng('jcs');
    for (let i = 0; i < 5000; i++) {
      const v = randomValue(r, 0);
      expect(canonicalText(v)).toBe(canonicalize(v));
    }
  });

  it('orders member names by UTF-16 code units and escapes strings as RFC 8785 requires', () => {
    expect(canonicalText({ b: 1, a: [true, null], A: '\u0000"\\\u2028😀' })).toBe(
      '{"A":"\\u0000\\"\\\\\u2028😀","a":[true,null],"b":1}',
    );
  });

  const refused: [string, unknown][] = [
    ['a float', { a: 1.5 }],
    ['an unsafe integer', { a: 2 ** 53 }],
    ['negative zero', [-0]],
    ['a lone surrogate', ['\ud800']],
    ['a non-ASCII member name', { é: 1 }],
    ['an undefined member', { a: undefined }],
    ['a class instance', { a: new Date(0) }],
    ['a function', { a: () => 1 }],
  ];
  for (const [what, v] of refused) {
    it(`refuses ${what}`, () => {
      expect(() => canonicalText(v)).toThrow(LedgerValueError);
    });
  }

  it('reads a member named __proto__ as data, never as a prototype', () => {
    const r = readCanonicalRecord(new TextEncoder().encode('{"__proto__":{"x":1},"a":1}'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect((v as { x?: unknown }).x).toBeUndefined();
  });

  it('reads back only canonical bytes', () => {
    const enc = new TextEncoder();
    expect(readCanonicalRecord(enc.encode('{"a":1,"b":[2]}')).ok).toBe(true);
    for (const bad of ['{"b":[2],"a":1}', '{"a":1, "b":[2]}', '{"a":1e0}', '{"a":"\\u0041"}', '{"a":1,"a":1}']) {
      expect(readCanonicalRecord(enc.encode(bad)).ok).toBe(false);
    }
  });
});
