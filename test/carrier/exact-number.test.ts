import { describe, expect, it } from 'vitest';
import { compareDecimalStrings, isDecimalString } from '../../core/carrier/index.js';
import { NotADecimalStringError } from '../../core/carrier/decimal-string.js';
import { NotANumberLexemeError, compareNumberLexemes, parseNumberLexeme } from '../../core/carrier/exact-number.js';
import { prng } from '../../bench/support/seeded-prng.js';

describe('compareNumberLexemes compares exact mathematical values', () => {
  it('treats different spellings of one value as equal', () => {
    const one = [
      '1',
      '1.0',
      '1.000',
      '1e0',
      '1E0',
      '1e+0',
      '10e-1',
      '0.1e1',
      '100e-2',
      '0.001e3',
      `1.${'0'.repeat(4000)}`,
    ];
    for (const a of one) for (const b of one) expect(compareNumberLexemes(a, b), `${a} vs ${b}`).toBe(0);
  });

  it('treats zero, negative zero and zero with any exponent as equal', () => {
    for (const z of ['0', '-0', '0.0', '-0.000', '0e5', '-0E-99999999999999999999', '0e99999999999999999999']) {
      expect(compareNumberLexemes(z, '0'), z).toBe(0);
    }
  });

  it('orders by sign first', () => {
    expect(compareNumberLexemes('-1', '1')).toBe(-1);
    expect(compareNumberLexemes('1', '-1')).toBe(1);
    expect(compareNumberLexemes('-1e-999', '0')).toBe(-1);
    expect(compareNumberLexemes('1e-999', '-0')).toBe(1);
  });

  it('distinguishes integers a double would conflate', () => {
    expect(9007199254740993 === 9007199254740992).toBe(true); // the loss being guarded against
    expect(compareNumberLexemes('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareNumberLexemes('-9007199254740993', '-9007199254740992')).toBe(-1);
    expect(compareNumberLexemes('0.30000000000000001', '0.3')).toBe(1);
  });

  it('compares huge exponents without materialising them', () => {
    expect(compareNumberLexemes('1e999999999', '2e999999999')).toBe(-1);
    expect(compareNumberLexemes('2e999999999', '1e999999999')).toBe(1);
    expect(compareNumberLexemes('10e999999999', '1e1000000000')).toBe(0);
    expect(compareNumberLexemes('1e99999999999999999999999', '9e99999999999999999999998')).toBe(1);
    expect(compareNumberLexemes('-1e99999999999999999999999', '-9e99999999999999999999998')).toBe(-1);
    expect(compareNumberLexemes('1e-999999999', '1e-1000000000')).toBe(1);
  });

  it('orders by magnitude before digits, with a digit prefix being smaller', () => {
    expect(compareNumberLexemes('99', '100')).toBe(-1);
    expect(compareNumberLexemes('1.5', '1.55')).toBe(-1);
    expect(compareNumberLexemes('-1.5', '-1.55')).toBe(1);
    expect(compareNumberLexemes('0.0001', '0.001')).toBe(-1);
    expect(compareNumberLexemes('123.456', '123.4559999999999999999999')).toBe(1);
  });

  it('agrees with double comparison on a seeded sample of safe values', () => {
    const r = prng(7);
    for (let i = 0; i < 2000; i++) {
      const x = Math.round((r() - 0.5) * 2e6) / 100;
      const y = i % 5 === 0 ? x : Math.round((r() - 0.5) * 2e6) / 100;
      const expected = x < y ? -1 : x > y ? 1 : 0;
      expect(compareNumberLexemes(String(x), String(y))).toBe(expected);
      expect(compareNumberLexemes(x.toExponential(), y.toFixed(4))).toBe(expected);
    }
  });

  it('is antisymmetric and transitive on a chain of mixed spellings', () => {
    const ascending = [
      '-1e3',
      '-999.99',
      '-1',
      '-0.5e-3',
      '0',
      '1e-400',
      '0.5',
      '1',
      '1.0000000000000000001',
      '2',
      '1e21',
      '1e400',
    ];
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        const expected = i < j ? -1 : i > j ? 1 : 0;
        expect(compareNumberLexemes(ascending[i]!, ascending[j]!), `${ascending[i]} vs ${ascending[j]}`).toBe(expected);
      }
    }
  });

  it('throws NotANumberLexemeError for a string that is not an RFC 8259 number', () => {
    for (const bad of ['', '+1', '01', '1.', '.5', 'NaN', 'Infinity', '0x1', '1e', ' 1', '1 ']) {
      expect(() => compareNumberLexemes(bad, '1'), bad).toThrow(NotANumberLexemeError);
      expect(() => compareNumberLexemes('1', bad), bad).toThrow(NotANumberLexemeError);
      expect(parseNumberLexeme(bad)).toBeUndefined();
    }
    expect(() => compareNumberLexemes('01', '01')).toThrow(NotANumberLexemeError);
  });

  it('normalizes lexemes to sign, significant digits and a BigInt exponent', () => {
    expect(parseNumberLexeme('-12.3400e2')).toEqual({ negative: true, digits: '1234', exponent: 0n });
    expect(parseNumberLexeme('1200')).toEqual({ negative: false, digits: '12', exponent: 2n });
    expect(parseNumberLexeme('-0.0')).toEqual({ negative: false, digits: '', exponent: 0n });
    expect(parseNumberLexeme('1.5')).toEqual({ negative: false, digits: '15', exponent: -1n });
  });
});

describe('isDecimalString follows the §2.2 grammar', () => {
  it('accepts decimals with optional sign and fraction', () => {
    for (const ok of ['0', '-0', '1', '10', '123.45', '-0.5', '0.000', '9'.repeat(500) + '.' + '1'.repeat(500)]) {
      expect(isDecimalString(ok), ok).toBe(true);
    }
  });

  it('refuses exponents, plus signs, leading zeroes, bare points, NaN, infinities and whitespace', () => {
    for (const bad of [
      '',
      '-',
      '+1',
      '01',
      '-01',
      '1e3',
      '1E3',
      '1.',
      '.5',
      '1.2.3',
      'NaN',
      'Infinity',
      ' 1',
      '1 ',
      '1\n',
      '١',
      '1,5',
      '0x1',
    ]) {
      expect(isDecimalString(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('compareDecimalStrings orders §2.2 decimals exactly (§7.4)', () => {
  it('compares by mathematical value: "1.0" and "1.00" are neither greater', () => {
    expect(compareDecimalStrings('1.0', '1.00')).toBe(0);
    expect(compareDecimalStrings('-0', '0.0')).toBe(0);
  });

  it('orders long decimals that doubles cannot tell apart', () => {
    const a = '12345678901234567890.000000000000000000001';
    const b = '12345678901234567890.000000000000000000002';
    expect(Number(a) === Number(b)).toBe(true);
    expect(compareDecimalStrings(a, b)).toBe(-1);
    expect(compareDecimalStrings(b, a)).toBe(1);
    expect(compareDecimalStrings('-' + a, '-' + b)).toBe(1);
  });

  it('orders by sign and magnitude', () => {
    expect(compareDecimalStrings('-10', '-9.99')).toBe(-1);
    expect(compareDecimalStrings('100', '99.999999999999999999')).toBe(1);
    expect(compareDecimalStrings('0.1', '0.09')).toBe(1);
  });

  it('throws NotADecimalStringError outside the grammar, even for valid JSON numbers', () => {
    expect(() => compareDecimalStrings('1e3', '1')).toThrow(NotADecimalStringError);
    expect(() => compareDecimalStrings('1', '01')).toThrow(NotADecimalStringError);
  });
});
