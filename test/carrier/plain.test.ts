import { describe, expect, it } from 'vitest';
import { fromPlain, readJson, toPlain } from '../../core/carrier/index.js';
import { NotJsonDataError } from '../../core/carrier/plain.js';
import { accept, utf8 } from './helpers.js';

describe('toPlain', () => {
  it('builds null-prototype objects whose members are all own data properties', () => {
    const plain = toPlain(accept('{"__proto__":1,"constructor":{"prototype":2}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBeNull();
    expect(Object.getOwnPropertyNames(plain)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(plain, '__proto__')).toMatchObject({ value: 1, enumerable: true });
    expect((plain.constructor as unknown as Record<string, unknown>).prototype).toBe(2);
  });

  it('turns numbers into JavaScript numbers and keeps arrays as arrays', () => {
    expect(toPlain(accept('[1.5,-0,1e2,"s",true,null]'))).toEqual([1.5, -0, 100, 's', true, null]);
  });
});

describe('fromPlain', () => {
  it('builds trees whose V charges equal those of reading the serialized text', () => {
    const data = {
      a: [1, 2.5, -3e-7, 'é😀', 'line\nbreak', true, false, null],
      b: { c: {}, d: [] },
      '': 'empty',
      ü: 1e21,
    };
    const text = JSON.stringify(data);
    const fromText = accept(text);
    const built = fromPlain(data);
    expect(built.v).toBe(fromText.v);
    expect(toPlain(built)).toEqual(toPlain(fromText));
  });

  it('keeps own __proto__ members as data', () => {
    const data = JSON.parse('{"__proto__":{"x":1}}') as unknown;
    const tree = fromPlain(data);
    expect(tree.kind).toBe('object');
    if (tree.kind === 'object') expect([...tree.members.keys()]).toEqual(['__proto__']);
  });

  it('throws NotJsonDataError for values without a JSON meaning', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    for (const bad of [
      undefined,
      Number.NaN,
      Infinity,
      () => 1,
      Symbol('s'),
      1n,
      new Date(0),
      new Map(),
      cyclic,
      { a: undefined },
    ]) {
      expect(() => fromPlain(bad), String(typeof bad)).toThrow(NotJsonDataError);
    }
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(fromPlain([shared, shared]).v).toBe(readJsonV('[{"x":1},{"x":1}]'));
  });
});

function readJsonV(text: string): number {
  const r = readJson(utf8(text));
  if (!r.ok) throw new Error(r.error.code);
  return r.value.v;
}
