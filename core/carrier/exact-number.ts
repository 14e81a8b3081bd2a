/**
 * Exact mathematical comparison of JSON numbers from their lexemes (Core §7.4: "JSON numbers compare by their
 * mathematical value without lossy conversion"). Nothing is converted to a double and nothing is materialised:
 * a number is reduced to sign, a significant-digit string and a BigInt exponent, so `1`, `1.0`, `1e0` and `10e-1`
 * are equal and `1e999999999` < `2e999999999` is decided without building a billion digits.
 */

/** value = (negative ? -1 : 1) × digits × 10^exponent; digits has no leading or trailing zeros; zero is digits "". */
export interface ExactNumber {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: bigint;
}

/** RFC 8259 §6 number grammar, anchored (JavaScript `$` without the m flag matches only at the very end). */
const NUMBER_LEXEME = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;
/** Integers of at most 15 digits are exact as doubles: the fast path compares them as numbers. */
const SMALL_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;

/** Parses an RFC 8259 number lexeme into its exact value; undefined when `s` is not one. */
export function parseNumberLexeme(s: string): ExactNumber | undefined {
  const m = NUMBER_LEXEME.exec(s);
  if (m === null) return undefined;
  const integer = m[2]!;
  const fraction = m[3] ?? '';
  const all = integer + fraction;
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 0x30) first++;
  if (first === all.length) return { negative: false, digits: '', exponent: 0n }; // -0 == 0
  let last = all.length;
  while (all.charCodeAt(last - 1) === 0x30) last--;
  const exponent = BigInt(m[4] ?? '0') - BigInt(fraction.length) + BigInt(all.length - last);
  return { negative: m[1] === '-', digits: all.slice(first, last), exponent };
}

/** Total order of exact values: -1, 0 or 1. */
export function compareExactNumbers(a: ExactNumber, b: ExactNumber): -1 | 0 | 1 {
  const sa = a.digits === '' ? 0 : a.negative ? -1 : 1;
  const sb = b.digits === '' ? 0 : b.negative ? -1 : 1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  // Position of the most significant digit decides first; equal positions compare digit strings, where a proper
  // prefix is the smaller magnitude (the longer one has a further non-zero digit).
  const ma = a.exponent + BigInt(a.digits.length);
  const mb = b.exponent + BigInt(b.digits.length);
  let magnitude: -1 | 0 | 1;
  if (ma !== mb) magnitude = ma < mb ? -1 : 1;
  else if (a.digits === b.digits) magnitude = 0;
  else magnitude = a.digits < b.digits ? -1 : 1;
  if (sa === 1 || magnitude === 0) return magnitude; // never -0
  return magnitude === 1 ? -1 : 1;
}

/** A bug, not bad input: callers pass lexemes the carrier already admitted. */
export class NotANumberLexemeError extends TypeError {
  readonly code = 'not-a-number-lexeme';
}

/**
 * Compares two RFC 8259 number lexemes by exact mathematical value. Throws NotANumberLexemeError when either is
 * not a lexeme (carrier-admitted JsonNumber lexemes always are).
 */
export function compareNumberLexemes(a: string, b: string): -1 | 0 | 1 {
  if (a === b) {
    if (!NUMBER_LEXEME.test(a)) throw new NotANumberLexemeError(`not an RFC 8259 number: ${JSON.stringify(a)}`);
    return 0;
  }
  if (SMALL_INTEGER.test(a) && SMALL_INTEGER.test(b)) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = parseNumberLexeme(a);
  const y = parseNumberLexeme(b);
  if (x === undefined) throw new NotANumberLexemeError(`not an RFC 8259 number: ${JSON.stringify(a)}`);
  if (y === undefined) throw new NotANumberLexemeError(`not an RFC 8259 number: ${JSON.stringify(b)}`);
  return compareExactNumbers(x, y);
}
