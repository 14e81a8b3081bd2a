import { describe, expect, it } from 'vitest';
import { readPointer, resolvePointer, type JsonValue } from '../../core/carrier/index.js';
import { accept } from './helpers.js';

const tokens = (p: string): string[] => {
  const r = readPointer(p);
  if (!r.ok) throw new Error(`pointer refused: ${r.error.code}`);
  return r.value;
};
const at = (doc: JsonValue, p: string): JsonValue | undefined => resolvePointer(doc, tokens(p));

describe('readPointer parses RFC 6901 syntax', () => {
  it('reads the empty pointer as the root and "/" as one empty token', () => {
    expect(tokens('')).toEqual([]);
    expect(tokens('/')).toEqual(['']);
    expect(tokens('//')).toEqual(['', '']);
    expect(tokens('/a////b')).toEqual(['a', '', '', '', 'b']);
  });

  it('decodes ~1 to "/" and ~0 to "~", in one pass', () => {
    expect(tokens('/a~1b/m~0n')).toEqual(['a/b', 'm~n']);
    expect(tokens('/~01')).toEqual(['~1']);
    expect(tokens('/~10')).toEqual(['/0']);
    expect(tokens('/~0~1~0')).toEqual(['~/~']);
  });

  it('keeps every other character, including non-ASCII, spaces, quotes and backslashes', () => {
    expect(tokens('/ é/"\\/%25')).toEqual([' é', '"\\', '%25']);
  });

  it('refuses a pointer that does not start with "/"', () => {
    expect(readPointer('a/b')).toMatchObject({ ok: false, error: { code: 'pointer-not-absolute', offset: 0 } });
    expect(readPointer('#/a')).toMatchObject({ ok: false, error: { code: 'pointer-not-absolute' } });
  });

  it('refuses "~" followed by anything but 0 or 1, and a trailing "~"', () => {
    expect(readPointer('/a~2')).toMatchObject({ ok: false, error: { code: 'pointer-invalid-escape', offset: 2 } });
    expect(readPointer('/ok/b~')).toMatchObject({ ok: false, error: { code: 'pointer-invalid-escape', offset: 5 } });
    expect(readPointer('/~a')).toMatchObject({ ok: false, error: { code: 'pointer-invalid-escape', offset: 1 } });
    expect(readPointer('/~~0')).toMatchObject({ ok: false, error: { code: 'pointer-invalid-escape', offset: 1 } });
  });
});

describe('resolvePointer resolves against the tree (§7.4)', () => {
  const doc = accept('{"a":{"b":[10,{"c":"x"}]},"":{"":1},"a/b":2,"m~n":3,"__proto__":{"p":4},"0":"zero","arr":[[5]]}');

  it('selects the root with the empty pointer', () => {
    expect(at(doc, '')).toBe(doc);
  });

  it('walks members and array indexes', () => {
    expect(at(doc, '/a/b/0')).toMatchObject({ lexeme: '10' });
    expect(at(doc, '/a/b/1/c')).toMatchObject({ value: 'x' });
    expect(at(doc, '/arr/0/0')).toMatchObject({ lexeme: '5' });
    expect(at(doc, '/0')).toMatchObject({ value: 'zero' });
  });

  it('resolves empty and escaped member names', () => {
    expect(at(doc, '/')).toMatchObject({ kind: 'object' });
    expect(at(doc, '//')).toMatchObject({ lexeme: '1' });
    expect(at(doc, '/a~1b')).toMatchObject({ lexeme: '2' });
    expect(at(doc, '/m~0n')).toMatchObject({ lexeme: '3' });
  });

  it('resolves prototype names only when the document has them', () => {
    expect(at(doc, '/__proto__/p')).toMatchObject({ lexeme: '4' });
    for (const p of ['/constructor', '/toString', '/hasOwnProperty', '/a/constructor', '/a/__proto__', '/valueOf']) {
      expect(at(doc, p), p).toBeUndefined();
    }
  });

  it('refuses array tokens that are not canonical indexes or are out of bounds', () => {
    for (const p of [
      '/a/b/2',
      '/a/b/-',
      '/a/b/01',
      '/a/b/-1',
      '/a/b/+1',
      '/a/b/1.0',
      '/a/b/1e0',
      '/a/b/ 1',
      '/a/b/',
      '/a/b/length',
      '/a/b/99999999999999999999999',
      '/a/b/0x1',
    ]) {
      expect(at(doc, p), p).toBeUndefined();
    }
  });

  it('does not traverse scalars, including string indexes', () => {
    expect(at(doc, '/a/b/1/c/0')).toBeUndefined();
    expect(at(doc, '/a/b/0/0')).toBeUndefined();
    expect(at(doc, '/a/b/0/length')).toBeUndefined();
    expect(at(doc, '/missing/x')).toBeUndefined();
  });

  it('resolves "-" as a member name on objects', () => {
    expect(at(accept('{"-":true}'), '/-')).toMatchObject({ value: true });
  });

  it('resolves against a scalar root only with the empty pointer', () => {
    const scalar = accept('7');
    expect(resolvePointer(scalar, [])).toBe(scalar);
    expect(resolvePointer(scalar, [''])).toBeUndefined();
  });
});
