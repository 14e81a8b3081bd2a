import { describe, expect, it } from 'vitest';
import { readJson, toPlain, utf8ByteLength, type JsonValue } from '../../core/carrier/index.js';
import { firstInvalidUtf8 } from '../../core/carrier/utf8.js';
import { prng } from '../../bench/support/seeded-prng.js';
import { utf8 } from './helpers.js';

/** Generates a random JSON text (no duplicate names) with random whitespace, escapes and number spellings. */
function generator(seed: number): () => string {
  const r = prng(seed);
  const int = (n: number): number => Math.floor(r() * n);
  const ws = (): string => ['', '', '', ' ', '\n', '\t', '\r\n  '][int(7)]!;
  const alphabet = [
    'a',
    'Z',
    '0',
    ' ',
    'é',
    '€',
    '😀',
    '"',
    '\\',
    '/',
    '\n',
    '\t',
    '\u0001',
    '\u007f',
    '\u2028',
    '\ufeff',
    '中',
  ];
  const rawString = (): string => Array.from({ length: int(8) }, () => alphabet[int(alphabet.length)]!).join('');
  const spell = (s: string): string => {
    // JSON.stringify, then randomly re-spell some characters as \u escapes (pairs for astral characters).
    let out = '"';
    for (const ch of s) {
      const cp = ch.codePointAt(0)!;
      if (r() < 0.3) {
        const units = cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp];
        out += units.map((u) => `\\u${u.toString(16).padStart(4, '0')}`).join('');
      } else out += JSON.stringify(ch).slice(1, -1);
    }
    return out + '"';
  };
  const number = (): string => {
    const sign = r() < 0.3 ? '-' : '';
    const intPart = r() < 0.2 ? '0' : String(1 + int(9)) + String(int(1e6)).slice(0, int(7));
    const frac = r() < 0.4 ? '.' + String(int(1e6)).padStart(int(3) + 1, '0') : '';
    const exp = r() < 0.3 ? ['e', 'E'][int(2)]! + ['', '+', '-'][int(3)]! + String(int(30)) : '';
    return sign + intPart + frac + exp;
  };
  const value = (depth: number): string => {
    const k = depth > 4 ? int(4) : int(6);
    switch (k) {
      case 0:
        return ['null', 'true', 'false'][int(3)]!;
      case 1:
        return number();
      case 2:
      case 3:
        return spell(rawString());
      case 4:
        return `[${ws()}${Array.from({ length: int(5) }, () => value(depth + 1)).join(`${ws()},${ws()}`)}${ws()}]`;
      default: {
        const names = new Set<string>();
        while (names.size < int(5)) names.add(rawString());
        const members = [...names].map((n) => `${spell(n)}${ws()}:${ws()}${value(depth + 1)}`);
        return `{${ws()}${members.join(`${ws()},${ws()}`)}${ws()}}`;
      }
    }
  };
  return () => ws() + value(0) + ws();
}

/** V recomputed from JSON.parse's result plus the source text, independently of the reader. */
function normalize(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(normalize);
  if (x !== null && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(x).sort())
      Object.defineProperty(out, k, { value: normalize((x as Record<string, unknown>)[k]), enumerable: true });
    return out;
  }
  return x;
}

function lexemes(v: JsonValue, out: string[] = []): string[] {
  if (v.kind === 'number') out.push(v.lexeme);
  if (v.kind === 'array') v.items.forEach((i) => lexemes(i, out));
  if (v.kind === 'object') v.members.forEach((i) => lexemes(i, out));
  return out;
}

describe('readJson agrees with JSON.parse on valid documents without duplicates', () => {
  it('gives the same data as JSON.parse for 3,000 seeded documents', () => {
    const next = generator(20261202);
    for (let i = 0; i < 3000; i++) {
      const text = next();
      const r = readJson(utf8(text));
      if (!r.ok) throw new Error(`refused #${i} ${r.error.code} ${r.error.message}: ${text}`);
      expect(normalize(toPlain(r.value)), text).toEqual(normalize(JSON.parse(text)));
    }
  });

  it('keeps every number lexeme in document order', () => {
    const next = generator(42);
    for (let i = 0; i < 500; i++) {
      const text = next();
      const r = readJson(utf8(text));
      if (!r.ok) throw new Error(r.error.code);
      const found = lexemes(r.value);
      // Numbers are the only tokens matching this outside strings; strip strings first.
      const withoutStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
      const expected = withoutStrings.match(/-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/g) ?? [];
      expect(found).toEqual(expected);
    }
  });

  it('charges the root V equal to the recurrence over exact source tokens', () => {
    // Reconstructs V from the text: every string token's bytes as written, every lexeme, structure counts.
    const next = generator(7);
    for (let i = 0; i < 500; i++) {
      const text = next();
      const r = readJson(utf8(text));
      if (!r.ok) throw new Error(r.error.code);
      expect(r.value.v).toBe(referenceV(text));
    }
  });
});

/** An independent V computation over the text using a tiny tokenizer (valid input only). */
function referenceV(text: string): number {
  let i = 0;
  const skip = (): void => {
    while (/[ \t\r\n]/.test(text[i] ?? '')) i++;
  };
  const stringToken = (): string => {
    const m = /^"(?:[^"\\]|\\.)*"/su.exec(text.slice(i))!;
    i += m[0].length;
    return m[0];
  };
  const value = (): number => {
    skip();
    const c = text[i]!;
    if (c === '"') return 1 + utf8ByteLength(stringToken());
    if (c === '[') {
      i++;
      skip();
      let v = 1;
      if (text[i] === ']') {
        i++;
        return v;
      }
      for (;;) {
        v += 1 + value();
        skip();
        if (text[i++] === ']') return v;
      }
    }
    if (c === '{') {
      i++;
      skip();
      let v = 1;
      if (text[i] === '}') {
        i++;
        return v;
      }
      for (;;) {
        skip();
        const name = JSON.parse(stringToken()) as string;
        skip();
        i++; // colon
        v += 1 + utf8ByteLength(name) + value();
        skip();
        if (text[i++] === '}') return v;
      }
    }
    const m = /^(?:true|false|null|-?[0-9.eE+-]+)/.exec(text.slice(i))!;
    i += m[0].length;
    return 1 + m[0].length;
  };
  return value();
}

describe('UTF-8 validation agrees with the fatal TextDecoder', () => {
  it('finds an ill-formed sequence exactly when TextDecoder refuses, on 20,000 seeded byte strings', () => {
    const r = prng(99);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const interesting = [
      0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x9f, 0x90,
      0x8f,
    ];
    let invalid = 0;
    for (let n = 0; n < 20000; n++) {
      const b = Uint8Array.from(
        { length: 1 + Math.floor(r() * 6) },
        () => interesting[Math.floor(r() * interesting.length)]!,
      );
      let ok = true;
      try {
        decoder.decode(b);
      } catch {
        ok = false;
      }
      if (!ok) invalid++;
      expect(firstInvalidUtf8(b) === -1, Array.from(b).join(',')).toBe(ok);
      // The reader agrees: a string holding those bytes is refused as invalid-utf8 exactly when they are ill-formed.
      const doc = Uint8Array.from([0x22, ...b.filter((x) => x >= 0x80), 0x22]);
      const res = readJson(doc);
      let docOk = true;
      try {
        decoder.decode(doc);
      } catch {
        docOk = false;
      }
      if (!docOk) expect(res.ok ? 'accepted' : res.error.code).toBe('invalid-utf8');
    }
    expect(invalid).toBeGreaterThan(1000);
  });
});
