import { describe, expect, it } from 'vitest';
import { readJson, type CarrierErrorCode } from '../../core/carrier/index.js';
import { CARRIER_ERROR_CODES } from '../../core/carrier/errors.js';
import { accept, bytes, refuse, utf8 } from './helpers.js';

describe('readJson refuses inputs that are not one complete JSON text', () => {
  it('refuses zero bytes as empty-input at offset 0', () => {
    expect(refuse(new Uint8Array(0))).toMatchObject({ code: 'empty-input', offset: 0 });
  });

  it('refuses whitespace-only input as empty-input', () => {
    expect(refuse(' \n\t\r ')).toMatchObject({ code: 'empty-input', offset: 5 });
  });

  it('refuses data after the value as trailing-data with the offset of the first extra byte', () => {
    expect(refuse('{} {}')).toMatchObject({ code: 'trailing-data', offset: 3 });
    expect(refuse('1 2')).toMatchObject({ code: 'trailing-data', offset: 2 });
    expect(refuse('truex')).toMatchObject({ code: 'trailing-data', offset: 4 });
    expect(refuse('null\u0000')).toMatchObject({ code: 'trailing-data', offset: 4 });
    expect(refuse('"a"]')).toMatchObject({ code: 'trailing-data', offset: 3 });
  });

  it('reports byte offsets, not UTF-16 indexes, after non-ASCII text', () => {
    // "é😀" is 2 + 4 bytes but 1 + 2 UTF-16 units; the extra ] sits at byte 8.
    expect(refuse('"é😀"]')).toMatchObject({ code: 'trailing-data', offset: 8 });
  });

  it('refuses a truncated document rather than reading its prefix', () => {
    for (const text of [
      '{',
      '{"a"',
      '{"a":',
      '{"a":1',
      '{"a":1,',
      '[',
      '[1',
      '[1,',
      '"abc',
      '"\\',
      '"\\u00',
      'tru',
      'nul',
      'fals',
      '-',
      '1.',
      '1e',
      '1e+',
    ]) {
      expect(refuse(text).code, text).toBe('syntax');
    }
  });

  it('refuses RFC 8259 grammar violations as syntax', () => {
    const cases = [
      '[1,]',
      '{"a":1,}',
      '[,1]',
      '{,}',
      '{"a" 1}',
      '{"a":1 "b":2}',
      '[1 2]',
      '{a:1}',
      "{'a':1}",
      "'a'",
      'True',
      'NULL',
      'nan',
      'NaN',
      'Infinity',
      '-Infinity',
      '+1',
      '01',
      '-01',
      '00',
      '.5',
      '1.e3',
      '0x10',
      '1e',
      '--1',
      '"\\x41"',
      '"\\u12G4"',
      '"\\U0041"',
      '"\\\'"',
      '"a\u0001b"',
      '"tab\there"',
      '"nl\nhere"',
      '\u000b1',
      '\u00a01',
      '\f1',
      '[1]]',
      '{"a":1}}',
      '[}',
      '{]',
      '/*c*/1',
      '1//c',
    ];
    for (const text of cases) {
      const code = refuse(text).code;
      expect(['syntax', 'trailing-data'], text).toContain(code);
    }
    // The ones that could be mistaken for a prefix read are refused as syntax, not trailing data.
    expect(refuse('01').code).toBe('syntax');
    expect(refuse('"a\u0001b"')).toMatchObject({ code: 'syntax', offset: 2 });
    expect(refuse('[1,]')).toMatchObject({ code: 'syntax', offset: 3 });
  });

  it('refuses a leading byte order mark as syntax (docs/adr/0010)', () => {
    const e = refuse(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d));
    expect(e).toMatchObject({ code: 'syntax', offset: 0 });
    expect(e.message).toMatch(/byte order mark/);
    // Inside a string, U+FEFF is an ordinary character.
    expect(accept(bytes(0x22, 0xef, 0xbb, 0xbf, 0x22))).toMatchObject({ value: '\ufeff', v: 1 + 5 });
  });

  it('refuses a byte order mark between tokens as syntax', () => {
    expect(refuse('[1,\ufeff2]')).toMatchObject({ code: 'syntax', offset: 3 });
  });
});

describe('readJson refuses duplicate member names (§2.1)', () => {
  it('refuses a duplicate at the root at the offset of the second name', () => {
    expect(refuse('{"a":1,"a":2}')).toMatchObject({ code: 'duplicate-member', offset: 7 });
  });

  it('refuses a duplicate at depth', () => {
    expect(refuse('{"x":[{"y":{"a":1,"b":2,"a":3}}]}').code).toBe('duplicate-member');
  });

  it('compares names after unescaping: "a" and "\\u0061" are the same name', () => {
    expect(refuse('{"a":1,"\\u0061":2}').code).toBe('duplicate-member');
    expect(refuse('{"\\/":1,"/":2}').code).toBe('duplicate-member');
    expect(refuse('{"😀":1,"\\ud83d\\ude00":2}').code).toBe('duplicate-member');
    expect(refuse('{"é":1,"\\u00E9":2}').code).toBe('duplicate-member');
  });

  it('refuses duplicates even when the values are equal, and for prototype-named members', () => {
    expect(refuse('{"a":1,"a":1}').code).toBe('duplicate-member');
    expect(refuse('{"__proto__":1,"__proto__":2}').code).toBe('duplicate-member');
  });

  it('allows the same name in sibling and nested objects', () => {
    expect(accept('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}').kind).toBe('object');
  });

  it('does not treat names differing by Unicode normalization as duplicates', () => {
    // U+00E9 vs "e" + U+0301: distinct code point sequences, distinct names.
    expect(accept('{"\u00e9":1,"e\u0301":2}').kind).toBe('object');
  });
});

describe('readJson requires surrogate escapes to pair (§2.1)', () => {
  it('accepts a valid pair', () => {
    expect(accept('"\\ud800\\udc00"')).toMatchObject({ value: '\u{10000}' });
    expect(accept('"\\udbff\\udfff"')).toMatchObject({ value: '\u{10ffff}' });
  });

  it('refuses a lone high surrogate escape at the escape offset', () => {
    expect(refuse('"\\ud800"')).toMatchObject({ code: 'lone-surrogate', offset: 1 });
    expect(refuse('"ab\\udbff"')).toMatchObject({ code: 'lone-surrogate', offset: 3 });
  });

  it('refuses a lone low surrogate escape', () => {
    expect(refuse('"\\udc00"')).toMatchObject({ code: 'lone-surrogate', offset: 1 });
    expect(refuse('"x\\udfff"').code).toBe('lone-surrogate');
  });

  it('refuses a reversed pair', () => {
    expect(refuse('"\\udc00\\ud800"').code).toBe('lone-surrogate');
  });

  it('refuses a high escape followed by a non-surrogate escape, a raw character or another high escape', () => {
    expect(refuse('"\\ud800\\u0041"').code).toBe('lone-surrogate');
    expect(refuse('"\\ud800A"').code).toBe('lone-surrogate');
    expect(refuse('"\\ud800\\ud800\\udc00"')).toMatchObject({ code: 'lone-surrogate', offset: 1 });
    expect(refuse('"\\ud800\\n"').code).toBe('lone-surrogate');
  });

  it('refuses a high escape followed by a raw astral character (escaped + raw mix)', () => {
    expect(refuse('"\\ud83d😀"').code).toBe('lone-surrogate');
    expect(refuse('"😀\\ude00"').code).toBe('lone-surrogate');
  });

  it('refuses a lone surrogate escape in a member name', () => {
    expect(refuse('{"\\ud800":1}').code).toBe('lone-surrogate');
  });

  it('accepts lone surrogates with allowLoneSurrogates, as the 0.2.0-draft carrier did', () => {
    const options = { allowLoneSurrogates: true };
    expect(accept('"\\ud800"', options)).toMatchObject({ value: '\ud800', v: 1 + 8 });
    expect(accept('"\\udc00\\ud800"', options)).toMatchObject({ value: '\udc00\ud800' });
    expect(accept('"\\ud800\\udc00"', options)).toMatchObject({ value: '\u{10000}' });
    // A lone surrogate counts 3 bytes (generalized UTF-8) toward a member name's V charge.
    expect(accept('{"\\ud800":1}', options).v).toBe(1 + 1 + 3 + 2);
  });

  it('keeps duplicate detection and every other rule under allowLoneSurrogates', () => {
    const options = { allowLoneSurrogates: true };
    expect(refuse('{"\\ud800":1,"\\uD800":2}', options).code).toBe('duplicate-member');
    expect(refuse('"\\ud800" x', options).code).toBe('trailing-data');
  });
});

describe('readJson refuses ill-formed UTF-8 and never substitutes U+FFFD', () => {
  const cases: [string, number[], number][] = [
    ['a lone continuation byte', [0x22, 0x80, 0x22], 1],
    ['an overlong two-byte "/" (C0 AF)', [0x22, 0xc0, 0xaf, 0x22], 1],
    ['an overlong two-byte NUL (C1 80)', [0x22, 0xc1, 0x80, 0x22], 1],
    ['an overlong three-byte sequence (E0 80 AF)', [0x22, 0xe0, 0x80, 0xaf, 0x22], 1],
    ['an overlong four-byte sequence (F0 80 80 AF)', [0x22, 0xf0, 0x80, 0x80, 0xaf, 0x22], 1],
    ['a UTF-8-encoded high surrogate (ED A0 80)', [0x22, 0xed, 0xa0, 0x80, 0x22], 1],
    ['a UTF-8-encoded low surrogate (ED B0 80)', [0x22, 0xed, 0xb0, 0x80, 0x22], 1],
    ['an encoded surrogate pair (CESU-8)', [0x22, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, 0x22], 1],
    ['a code point above U+10FFFF (F4 90 80 80)', [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1],
    ['a lead byte F5', [0x22, 0xf5, 0x80, 0x80, 0x80, 0x22], 1],
    ['a byte FF', [0x22, 0x61, 0xff, 0x22], 2],
    ['a byte FE outside strings', [0x5b, 0xfe, 0x5d], 1],
    ['a truncated two-byte sequence', [0x22, 0xc3, 0x22], 1],
    ['a truncated three-byte sequence', [0x22, 0xe2, 0x82, 0x22], 1],
    ['a truncated four-byte sequence', [0x22, 0xf0, 0x9f, 0x98, 0x22], 1],
    ['a sequence cut off by the end of input', [0x22, 0x61, 0xe2, 0x82], 2],
    ['invalid bytes after a valid value', [0x31, 0x20, 0xff], 2],
  ];
  for (const [name, input, offset] of cases) {
    it(`refuses ${name} as invalid-utf8 at byte ${offset}`, () => {
      expect(refuse(bytes(...input))).toMatchObject({ code: 'invalid-utf8', offset });
    });
  }

  it('accepts the boundary scalars U+0080, U+07FF, U+0800, U+FFFF, U+10000 and U+10FFFF', () => {
    const text = '"\u0080\u07ff\u0800\uffff\u{10000}\u{10ffff}"';
    const v = accept(utf8(text));
    expect(v).toMatchObject({ value: JSON.parse(text) as string, v: 1 + 2 + 2 + 2 + 3 + 3 + 4 + 4 });
  });

  it('reports invalid UTF-8 before any syntax problem in the same input', () => {
    expect(refuse(bytes(0x5b, 0x2c, 0xff)).code).toBe('invalid-utf8');
  });
});

describe('every carrier error code is reachable', () => {
  it('produces each of the eleven codes from some input', () => {
    const small = { documentBytes: 8, depth: 1, stringBytes: 2, numberBytes: 2, collectionSize: 1 };
    const produced = new Set<CarrierErrorCode>();
    const inputs: [Uint8Array, Parameters<typeof readJson>[1]][] = [
      [new Uint8Array(0), undefined],
      [bytes(0xff), undefined],
      [utf8('[1,]'), undefined],
      [utf8('1 1'), undefined],
      [utf8('{"a":1,"a":1}'), undefined],
      [utf8('"\\udc00"'), undefined],
      [utf8('[1,2,3,4,5]'), { limits: small }],
      [utf8('[[]]'), { limits: small }],
      [utf8('"abc"'), { limits: small }],
      [utf8('123'), { limits: small }],
      [utf8('[1,2]'), { limits: small }],
    ];
    for (const [input, options] of inputs) {
      const r = readJson(input, options);
      if (!r.ok) produced.add(r.error.code);
    }
    expect([...produced].sort()).toEqual([...CARRIER_ERROR_CODES].sort());
  });

  it('gives every refusal a non-empty message and a byte offset inside the input or at its end', () => {
    for (const text of ['', 'x', '[1,', '{"a":1,"a":2}', '"\\ud800"', '1 1', '[1,2]']) {
      const input = utf8(text);
      const r = readJson(input, { limits: { collectionSize: 1 } });
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.error.message.length).toBeGreaterThan(0);
      expect(r.error.offset).toBeGreaterThanOrEqual(0);
      expect(r.error.offset).toBeLessThanOrEqual(input.length);
    }
  });
});
