/**
 * Core §2.2 decimal strings and their §7.4 ordering. The grammar is a subset of the RFC 8259 number grammar (no
 * exponent), so ordering reuses the exact number comparison: long decimals are ordered exactly, never via doubles.
 */
import { compareNumberLexemes } from './exact-number.js';

/** §2.2: decimal = [ "-" ] ( "0" / non-zero-digit *DIGIT ) [ "." 1*DIGIT ] */
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

export function isDecimalString(s: string): boolean {
  return DECIMAL.test(s);
}

/** A bug, not bad input: §7.4 defines ordering only when both sides satisfy §2.2, and callers check first. */
export class NotADecimalStringError extends TypeError {
  readonly code = 'not-a-decimal-string';
}

/**
 * §7.4: orders two §2.2 decimal strings by mathematical value ("1.0" and "1.00" compare equal here, although
 * `equals` treats them as different strings). Throws NotADecimalStringError when either is not a decimal string.
 */
export function compareDecimalStrings(a: string, b: string): -1 | 0 | 1 {
  if (!DECIMAL.test(a)) throw new NotADecimalStringError(`not a §2.2 decimal: ${JSON.stringify(a)}`);
  if (!DECIMAL.test(b)) throw new NotADecimalStringError(`not a §2.2 decimal: ${JSON.stringify(b)}`);
  return compareNumberLexemes(a, b);
}
