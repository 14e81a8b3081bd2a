import { describe, expect, test } from 'vitest';
import { fromPlain } from '../../core/carrier/index.js';
import {
  EMPTY,
  FULL,
  Meter,
  complement,
  complementIntervals,
  complementValues,
  decimalSet,
  intersect,
  isEmpty,
  unite,
  valuesSet,
  inIntervals,
} from '../../core/pack/value-set.js';

const m = () => new Meter(1_000_000);
const ge = (v: string) => ({ lo: { value: v, inclusive: true } });
const lt = (v: string) => ({ hi: { value: v, inclusive: false } });

describe('value sets for the §3.3.1 exact analysis', () => {
  test('the complement of a ray is the opposite ray with the other inclusivity', () => {
    expect(complementIntervals([ge('40')])).toEqual([lt('40')]);
    expect(complementIntervals([])).toEqual([{}]);
    expect(complementIntervals([{}])).toEqual([]);
    expect(
      complementIntervals([{ lo: { value: '1', inclusive: false }, hi: { value: '2', inclusive: true } }]),
    ).toEqual([{ hi: { value: '1', inclusive: true } }, { lo: { value: '2', inclusive: false } }]);
  });

  test('a half-open band and its complement unite to the whole line and share nothing', () => {
    const band = intersect(decimalSet([ge('40')]), decimalSet([lt('70')]), m());
    expect(band.intervals).toEqual([{ lo: { value: '40', inclusive: true }, hi: { value: '70', inclusive: false } }]);
    const rest = decimalSet(complementIntervals(band.intervals));
    expect(isEmpty(intersect(band, rest, m()))).toBe(true);
    expect(unite(band, rest, m()).intervals).toEqual([{}]);
  });

  test('touching intervals merge only when the shared point belongs to one of them', () => {
    expect(unite(decimalSet([lt('5')]), decimalSet([ge('5')]), m()).intervals).toEqual([{}]);
    const open = unite(decimalSet([lt('5')]), decimalSet([{ lo: { value: '5', inclusive: false } }]), m());
    expect(open.intervals).toHaveLength(2);
    expect(inIntervals(open.intervals, '5.0')).toBe(false);
  });

  test('decimal spellings keep string identity for equality and value identity for order', () => {
    const one = valuesSet([fromPlain('1.0')], m());
    expect(isEmpty(intersect(one, valuesSet([fromPlain('1.00')], m()), m()))).toBe(true);
    expect(isEmpty(intersect(one, decimalSet([ge('1')]), m()))).toBe(false);
    expect(isEmpty(intersect(complementValues(one), valuesSet([fromPlain('1.0')], m()), m()))).toBe(true);
    const allButOne = complementValues(one);
    expect(
      isEmpty(
        intersect(
          allButOne,
          decimalSet([{ lo: { value: '1', inclusive: true }, hi: { value: '1', inclusive: true } }]),
          m(),
        ),
      ),
    ).toBe(false);
  });

  test('numbers are equal by exact value, never through a double', () => {
    const a = valuesSet([fromPlain(1)], m());
    expect(isEmpty(intersect(a, valuesSet([fromPlain(1.0)], m()), m()))).toBe(false);
    const big = (lexeme: string) => valuesSet([{ kind: 'number', lexeme, v: 1 + lexeme.length }], m());
    expect(isEmpty(intersect(big('9007199254740993'), big('9007199254740992'), m()))).toBe(true);
    expect(isEmpty(intersect(big('1e2'), big('100.0'), m()))).toBe(false);
  });

  test('FULL, EMPTY and complement behave as the universe with ⊥, the empty set and set complement', () => {
    expect(isEmpty(EMPTY)).toBe(true);
    expect(isEmpty(FULL)).toBe(false);
    expect(isEmpty(complement(FULL))).toBe(true);
    const s = valuesSet([fromPlain('x'), fromPlain(2)], m());
    expect(isEmpty(intersect(s, complement(s), m()))).toBe(true);
    expect(isEmpty(complement(unite(s, complement(s), m())))).toBe(true);
  });

  test('the meter refuses work beyond its limit', () => {
    const tiny = new Meter(3);
    expect(() =>
      valuesSet(
        ['a', 'b', 'c', 'd'].map((x) => fromPlain(x)),
        tiny,
      ),
    ).toThrow();
  });
});
