/**
 * Picks a member of a non-empty ValueSet and builds a facts document placing it at a fact path, for the
 * §3.3.1 "witness facts input". Decimal witnesses are computed exactly with BigInt on scaled integers (never floats).
 */
import type { JsonValue } from '../carrier/json-value.js';
import { fromPlain, jsonEquals, pointerTokens } from '../carrier/index.js';
import { type Interval, type ValueSet, inIntervals } from './value-set.js';

/** A member of `s` (⊥ is represented by undefined), or null when `s` is empty. */
export function pickMember(s: ValueSet): { value: JsonValue | undefined } | null {
  for (const i of s.intervals) {
    const d = decimalIn(i, s.removed);
    if (d !== undefined) return { value: fromPlain(d) };
  }
  if (s.added.length > 0) return { value: fromPlain(s.added[0]) };
  if (!s.others.co && s.others.values.length > 0) return { value: s.others.values[0] };
  if (s.others.co) {
    for (const candidate of [null, true, false, 'overlap', 'overlap-0', 'overlap-1']) {
      const v = fromPlain(candidate);
      if (!s.others.values.some((x) => jsonEquals(x, v))) return { value: v };
    }
    // s.others.values is finite; 'overlap-N' for a large enough N is always outside it.
    return { value: fromPlain(`overlap-${s.others.values.length + 2}`) };
  }
  if (s.missing) return { value: undefined };
  return null;
}

/** A decimal spelling inside interval `i` that is not in `removed`. */
function decimalIn(i: Interval, removed: readonly string[]): string | undefined {
  let d: string;
  if (i.lo?.inclusive) d = i.lo.value;
  else if (i.hi?.inclusive) d = i.hi.value;
  else if (i.lo === undefined && i.hi === undefined) d = '0';
  else {
    const k = Math.max(scaleOf(i.lo?.value), scaleOf(i.hi?.value)) + 1;
    if (i.lo !== undefined && i.hi !== undefined) d = formatScaled(toScaled(i.lo.value, k) + 1n, k);
    else if (i.lo !== undefined) d = formatScaled(toScaled(i.lo.value, k) + 10n ** BigInt(k), k);
    else d = formatScaled(toScaled(i.hi!.value, k) - 10n ** BigInt(k), k);
  }
  // Every value has infinitely many spellings; append zeros until the spelling is not a removed one.
  for (let n = 0; n <= removed.length; n++) {
    if (!removed.includes(d) && inIntervals([i], d)) return d;
    d = d.includes('.') ? d + '0' : d + '.0';
  }
  return undefined;
}

function scaleOf(d: string | undefined): number {
  if (d === undefined) return 0;
  const dot = d.indexOf('.');
  return dot < 0 ? 0 : d.length - dot - 1;
}

function toScaled(d: string, k: number): bigint {
  const neg = d.startsWith('-');
  const body = neg ? d.slice(1) : d;
  const [int, frac = ''] = body.split('.');
  const n = BigInt(int + frac.padEnd(k, '0'));
  return neg ? -n : n;
}

function formatScaled(n: bigint, k: number): string {
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(k + 1, '0');
  const int = digits.slice(0, digits.length - k);
  const frac = digits.slice(digits.length - k);
  return (neg ? '-' : '') + int + (k > 0 ? '.' + frac : '');
}

/**
 * A facts document (plain JSON) in which `path` selects `value` (or does not resolve, for ⊥). Every token becomes
 * an object member, which RFC 6901 resolves for numeric-looking tokens too.
 */
export function factsPlacing(path: string | undefined, value: unknown, missing: boolean): unknown {
  if (path === undefined || missing) return {};
  const tokens = pointerTokens(path);
  let doc: unknown = value;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const o: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(o, tokens[i]!, { value: doc, enumerable: true, writable: true, configurable: true });
    doc = o;
  }
  return doc;
}
