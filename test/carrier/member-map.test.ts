import { describe, expect, it } from 'vitest';
import { fromPlain, type JsonValue } from '../../core/carrier/index.js';
import { MemberMap } from '../../core/carrier/member-map.js';
import { accept, refuse } from './helpers.js';

const members = (text: string): ReadonlyMap<string, JsonValue> => {
  const v = accept(text);
  if (v.kind !== 'object') throw new Error('object expected');
  return v.members;
};
const object = (n: number, name = (i: number): string => `k${i}`): string =>
  `{${Array.from({ length: n }, (_, i) => `"${name(i)}":${i}`).join(',')}}`;

describe('object members behave as a read-only Map in authored order', () => {
  for (const n of [0, 1, 8, 9, 50]) {
    it(`answers size, get, has, keys, values, entries and forEach for ${n} members`, () => {
      const m = members(object(n, (i) => `n${(i * 7) % 1000}`));
      expect(m.size).toBe(n);
      const names = Array.from({ length: n }, (_, i) => `n${(i * 7) % 1000}`);
      expect([...m.keys()]).toEqual(names);
      expect([...m.values()].map((x) => (x.kind === 'number' ? x.lexeme : '?'))).toEqual(
        names.map((_, i) => String(i)),
      );
      expect([...m].map(([k]) => k)).toEqual(names);
      expect([...m.entries()].map(([k]) => k)).toEqual(names);
      const seen: string[] = [];
      m.forEach((_, k, map) => {
        seen.push(k);
        expect(map).toBe(m);
      });
      expect(seen).toEqual(names);
      names.forEach((name, i) => {
        expect(m.has(name)).toBe(true);
        expect(m.get(name)).toMatchObject({ lexeme: String(i) });
      });
      expect(m.get('absent')).toBeUndefined();
      expect(m.has('absent')).toBe(false);
    });
  }

  it('never answers from the prototype chain, at any size', () => {
    for (const n of [0, 3, 20]) {
      const m = members(object(n));
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'size', 'get']) {
        expect(m.has(name), `${n} ${name}`).toBe(false);
        expect(m.get(name)).toBeUndefined();
      }
    }
  });

  it('detects duplicates in small and indexed objects, including the one that crosses the index threshold', () => {
    for (const n of [2, 8, 9, 10, 40]) {
      const names = Array.from({ length: n }, (_, i) => `k${i}`);
      for (const dup of [0, n - 1]) {
        const text = `{${[...names, names[dup]!].map((k, i) => `"${k}":${i}`).join(',')}}`;
        expect(refuse(text).code, `${n} dup of ${dup}`).toBe('duplicate-member');
      }
    }
  });

  it('is the representation of both the reader and fromPlain', () => {
    const read = accept('{"a":1}');
    const built = fromPlain({ a: 1 });
    expect(read.kind === 'object' && read.members instanceof MemberMap).toBe(true);
    expect(built.kind === 'object' && built.members instanceof MemberMap).toBe(true);
  });

  it('compares equal under vitest toEqual when built from the same data by the reader and fromPlain', () => {
    expect(accept('{"a":[1,{"b":"c"}],"d":null}')).toEqual(fromPlain({ a: [1, { b: 'c' }], d: null }));
    expect(accept('{"a":1}')).not.toEqual(fromPlain({ a: 2 }));
  });
});
