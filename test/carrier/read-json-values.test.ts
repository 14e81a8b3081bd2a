import { describe, expect, it } from 'vitest';
import { toPlain, type JsonValue } from '../../core/carrier/index.js';
import { accept, bytes, utf8 } from './helpers.js';

describe('readJson accepts every RFC 8259 value shape', () => {
  it('reads each scalar at the root', () => {
    expect(accept('null')).toMatchObject({ kind: 'null' });
    expect(accept('true')).toMatchObject({ kind: 'boolean', value: true });
    expect(accept('false')).toMatchObject({ kind: 'boolean', value: false });
    expect(accept('"hi"')).toMatchObject({ kind: 'string', value: 'hi' });
    expect(accept('-12.5e+3')).toMatchObject({ kind: 'number', lexeme: '-12.5e+3' });
  });

  it('reads empty and nested containers in authored order', () => {
    const v = accept('{"b":[],"a":{},"c":[1,[2,[3]]]}');
    expect(v.kind).toBe('object');
    if (v.kind !== 'object') return;
    expect([...v.members.keys()]).toEqual(['b', 'a', 'c']);
    expect(toPlain(v)).toEqual(Object.assign(Object.create(null), { b: [], a: Object.create(null), c: [1, [2, [3]]] }));
  });

  it('keeps every number lexeme exactly as written', () => {
    const lexemes = [
      '0',
      '-0',
      '1.0',
      '1.000',
      '1e0',
      '1E0',
      '1e+0',
      '1e-0',
      '10e-1',
      '9007199254740993',
      '0.1',
      '-0.0e-00',
      '123456789012345678901234567890',
    ];
    const v = accept(`[${lexemes.join(',')}]`);
    if (v.kind !== 'array') throw new Error('array expected');
    expect(v.items.map((n) => (n.kind === 'number' ? n.lexeme : n.kind))).toEqual(lexemes);
  });

  it('decodes every escape, including surrogate pairs written in either case', () => {
    const v = accept('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC\\ud83d\\ude00\\uD83D\\uDE00"');
    expect(v).toMatchObject({ kind: 'string', value: '"\\/\b\f\n\r\tAé€😀😀' });
  });

  it('reads raw non-ASCII text of 2, 3 and 4 UTF-8 bytes', () => {
    expect(accept('"é€😀"')).toMatchObject({ value: 'é€😀' });
  });

  it('accepts the four whitespace characters before, between and after tokens', () => {
    const v = accept(' \t\r\n{ \t\r\n"a" \t\r\n: \t\r\n[ 1 , 2 ] \t\r\n} \t\r\n');
    expect(toPlain(v)).toEqual(Object.assign(Object.create(null), { a: [1, 2] }));
  });

  it('treats prototype-named members as ordinary data', () => {
    const v = accept('{"__proto__":{"polluted":true},"constructor":1,"toString":"x","hasOwnProperty":null}');
    if (v.kind !== 'object') throw new Error('object expected');
    expect([...v.members.keys()]).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
    const plain = toPlain(v) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBeNull();
    expect(Object.keys(plain)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(plain.__proto__)).toBeNull();
  });

  it('reads member names that differ only after unescaping when they are distinct', () => {
    const v = accept('{"a":1,"\\u0062":2,"A":3}');
    if (v.kind !== 'object') throw new Error('object expected');
    expect([...v.members.keys()]).toEqual(['a', 'b', 'A']);
  });

  it('accepts a document given as a subarray of a larger buffer', () => {
    const whole = utf8('xx[1,"é"]yy');
    expect(toPlain(accept(whole.subarray(2, whole.length - 2)))).toEqual([1, 'é']);
  });

  it('accepts the NUL character only when it is escaped', () => {
    expect(accept('"\\u0000"')).toMatchObject({ value: '\u0000' });
    expect(accept(bytes(0x22, 0x61, 0x22))).toMatchObject({ value: 'a' });
  });
});

describe('readJson charges V as RFC 0008 "Limit accounting" defines it', () => {
  const v = (text: string): number => accept(text).v;

  it('charges a string 1 plus its token bytes with the quotes: "ab" costs 1 + 4', () => {
    expect(v('"ab"')).toBe(5);
    expect(v('"a"')).toBe(4);
  });

  it('charges escapes as written, so "a" and its escaped spelling differ', () => {
    expect(v('"\\u0061"')).toBe(1 + 8);
    expect(v('"\\n"')).toBe(1 + 4);
  });

  it('charges raw non-ASCII text by its UTF-8 bytes', () => {
    expect(v('"é"')).toBe(1 + 4); // 2 bytes + quotes
    expect(v('"€"')).toBe(1 + 5);
    expect(v('"😀"')).toBe(1 + 6);
    expect(v('"\\ud83d\\ude00"')).toBe(1 + 14);
  });

  it('charges a number by its lexeme, so a 1,000-byte spelling of one costs 1 + 1000', () => {
    expect(v('1')).toBe(2);
    expect(v('0')).toBe(2);
    const padded = `1.${'0'.repeat(998)}`;
    expect(padded.length).toBe(1000);
    expect(v(padded)).toBe(1001);
  });

  it('charges true 5, null 5 and false 6', () => {
    expect(v('true')).toBe(5);
    expect(v('null')).toBe(5);
    expect(v('false')).toBe(6);
  });

  it('charges a 1,000-byte string value 1,003', () => {
    expect(v(`"${'x'.repeat(1000)}"`)).toBe(1003);
  });

  it('charges structure: V of k empty arrays is 1 + 2k, so V(W10000) = 20,001', () => {
    expect(v('[]')).toBe(1);
    expect(v('{}')).toBe(1);
    expect(v('[[],[],[]]')).toBe(7);
    expect(v(`[${Array.from({ length: 10000 }, () => '[]').join(',')}]`)).toBe(20001);
  });

  it('charges an object 1 + count + Σ(name bytes unquoted + V(value))', () => {
    expect(v('{"v":0}')).toBe(1 + 1 + 1 + 2);
    expect(v('{"é":true}')).toBe(1 + 1 + 2 + 5);
    // The name is charged by its decoded bytes, not its escaped spelling.
    expect(v('{"\\u00e9":true}')).toBe(1 + 1 + 2 + 5);
  });

  it('charges E(n) rows alike whichever member holds the 1 (order-independence)', () => {
    const rows = (n: number, at: number): string =>
      `{"rows":[${Array.from({ length: n }, (_, i) => (i === at ? '{"v":1}' : '{"v":0}')).join(',')}]}`;
    const first = v(rows(200, 0));
    const last = v(rows(200, 199));
    expect(first).toBe(last);
    // 1 + 1 + bytes("rows") + V(array) with V(array) = 1 + 200 + 200 × 5
    expect(first).toBe(1 + 1 + 4 + (1 + 200 + 200 * 5));
  });

  it('does not charge whitespace between tokens', () => {
    expect(v(' [ 1 , { "a" : "b" } ] ')).toBe(v('[1,{"a":"b"}]'));
  });

  it('computes V for nested values as the sum of the recurrence', () => {
    const tree = accept('{"a":[1,"xy",null],"b":{"c":false}}');
    const manual = (x: JsonValue): number => {
      switch (x.kind) {
        case 'array':
          return 1 + x.items.length + x.items.reduce((s, i) => s + manual(i), 0);
        case 'object':
          return (
            1 +
            x.members.size +
            [...x.members].reduce((s, [k, i]) => s + new TextEncoder().encode(k).length + manual(i), 0)
          );
        default:
          return x.v;
      }
    };
    expect(tree.v).toBe(manual(tree));
    // root 1 + 2 members; "a": 1 + [1 + 3 + V(1)=2 + V("xy")=5 + V(null)=5]; "b": 1 + {1 + 1 + (1 + V(false)=6)}
    expect(tree.v).toBe(1 + 2 + (1 + (1 + 3 + 2 + 5 + 5)) + (1 + (1 + 1 + (1 + 6))));
  });
});
