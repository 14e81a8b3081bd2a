import { describe, expect, test } from 'vitest';
import { scanRoot } from '../../core/pack/root-scan.js';

const bounds = { documentBytes: 1 << 20, depth: 64 };
const scan = (text: string, b = bounds) => scanRoot(new TextEncoder().encode(text), b);

describe('the bounded root scan (§4.1, §11)', () => {
  test('finds both selectors as strings wherever they sit among the root members', () => {
    expect(scan('{"a":{"specVersion":"x"},"profile":"extended","b":[1,{"c":"}"}],"specVersion":"0.3.0"}')).toEqual({
      readable: true,
      root: 'object',
      specVersion: { kind: 'string', value: '0.3.0' },
      profile: { kind: 'string', value: 'extended' },
    });
  });

  test('reports absent selectors and ignores nested members of the same name', () => {
    expect(scan(' { "x" : { "specVersion" : "0.3.0" } } ')).toMatchObject({
      specVersion: { kind: 'absent' },
      profile: { kind: 'absent' },
    });
  });

  test('reports the JSON type of a non-string selector', () => {
    expect(scan('{"specVersion":3,"profile":null}')).toMatchObject({
      specVersion: { kind: 'other', jsonType: 'number' },
      profile: { kind: 'other', jsonType: 'null' },
    });
    expect(scan('{"specVersion":["0.3.0"],"profile":{"a":1}}')).toMatchObject({
      specVersion: { kind: 'other', jsonType: 'array' },
      profile: { kind: 'other', jsonType: 'object' },
    });
  });

  test('decodes escapes in member names and selector values', () => {
    expect(scan('{"spec\\u0056ersion":"0.3\\u002e0"}')).toMatchObject({
      specVersion: { kind: 'string', value: '0.3.0' },
    });
  });

  test('skips strings holding brackets, quotes and non-ASCII text exactly', () => {
    expect(scan('{"t":"é ] } \\" [ {","specVersion":"0.2.0-draft"}')).toMatchObject({
      specVersion: { kind: 'string', value: '0.2.0-draft' },
    });
  });

  test('a non-object root is reported as such', () => {
    expect(scan('  [1,2]')).toEqual({ readable: true, root: 'not-object' });
    expect(scan('"0.3.0"')).toEqual({ readable: true, root: 'not-object' });
  });

  for (const [label, text] of [
    ['a repeated specVersion', '{"specVersion":"0.3.0","specVersion":"0.2.0-draft"}'],
    ['a repeated profile', '{"profile":"base","profile":"extended"}'],
    ['an unterminated object', '{"specVersion":"0.3.0"'],
    ['an unterminated string', '{"specVersion":"0.3.0}'],
    ['a missing colon', '{"specVersion" "0.3.0"}'],
    ['trailing data after the root', '{"specVersion":"0.3.0"} x'],
    ['empty input', '   '],
    ['an invalid escape in the selector', '{"specVersion":"0.3\\x0"}'],
  ] as const) {
    test(`${label} makes the selector unreadable`, () => {
      expect(scan(text)).toEqual({ readable: false });
    });
  }

  test('invalid UTF-8 inside the selector makes it unreadable', () => {
    const b = new TextEncoder().encode('{"specVersion":"0.3.0x"}');
    b[20] = 0xff;
    expect(scanRoot(b, bounds)).toEqual({ readable: false });
  });

  test('is bounded by the document byte limit before reading anything', () => {
    expect(scan('{"specVersion":"0.3.0"}', { documentBytes: 10, depth: 64 })).toEqual({ readable: false });
  });

  test('is bounded by the depth limit while skipping values', () => {
    const deep = '{"x":' + '['.repeat(10) + ']'.repeat(10) + ',"specVersion":"0.3.0"}';
    expect(scan(deep, { documentBytes: 1000, depth: 11 })).toMatchObject({ readable: true });
    expect(scan(deep, { documentBytes: 1000, depth: 10 })).toEqual({ readable: false });
  });
});
