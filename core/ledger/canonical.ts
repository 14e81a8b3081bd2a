/**
 * RFC 8785 (JCS) bytes for the ledger's own records, after checking the ledger's value rules: every member name is
 * ASCII (so UTF-16 and code point orders agree), every string is well-formed Unicode, every number is an integer
 * within ±(2^53−1) (no floats, so JCS number formatting is the plain decimal integer), no undefined, no functions.
 * The `canonicalize` package emits the bytes; this module only refuses what it must not see.
 */
import canonicalize from 'canonicalize';
import { readJson, type JsonValue } from '../carrier/index.js';
import { err, ok, type Result } from '../result.js';
import { bytesEqual, isWellFormed, utf8Bytes } from './bytes.js';

export class LedgerValueError extends Error {
  override readonly name = 'LedgerValueError';
  readonly code = 'ledger-value';
  constructor(readonly pointer: string, readonly rule: string) {
    super(`${pointer || '/'}: ${rule}`);
  }
}

const ASCII_NAME = /^[\x20-\x7e]+$/;

function escapePointerToken(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Throws LedgerValueError at the first value the ledger does not allow. */
export function checkLedgerValue(x: unknown, pointer = ''): void {
  if (x === null || typeof x === 'boolean') return;
  if (typeof x === 'number') {
    if (!Number.isSafeInteger(x)) throw new LedgerValueError(pointer, 'numbers are integers within ±(2^53−1)');
    if (Object.is(x, -0)) throw new LedgerValueError(pointer, 'negative zero is not an integer spelling');
    return;
  }
  if (typeof x === 'string') {
    if (!isWellFormed(x)) throw new LedgerValueError(pointer, 'strings are well-formed Unicode (no lone surrogate)');
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((v, i) => checkLedgerValue(v, `${pointer}/${i}`));
    return;
  }
  if (typeof x === 'object') {
    const proto = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) throw new LedgerValueError(pointer, 'objects are plain records');
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
      if (!ASCII_NAME.test(k)) throw new LedgerValueError(`${pointer}/${escapePointerToken(k)}`, 'member names are printable ASCII');
      if (v === undefined) throw new LedgerValueError(`${pointer}/${escapePointerToken(k)}`, 'no undefined members');
      checkLedgerValue(v, `${pointer}/${escapePointerToken(k)}`);
    }
    return;
  }
  throw new LedgerValueError(pointer, `no ${typeof x} values`);
}

/** RFC 8785 text of a checked ledger value. */
export function canonicalText(x: unknown): string {
  checkLedgerValue(x);
  const text = canonicalize(x);
  if (text === undefined) throw new LedgerValueError('', 'value has a JSON text');
  return text;
}

/** JsonValue → plain data, accepting integers only (the only numbers an entry holds). */
export function toLedgerPlain(v: JsonValue): unknown {
  switch (v.kind) {
    case 'null':
      return null;
    case 'boolean':
      return v.value;
    case 'string':
      return v.value;
    case 'number': {
      if (!/^-?(?:0|[1-9][0-9]{0,15})$/.test(v.lexeme)) throw new LedgerValueError('', `number ${v.lexeme} is not an integer spelling`);
      const n = Number(v.lexeme);
      if (!Number.isSafeInteger(n) || v.lexeme === '-0') throw new LedgerValueError('', `number ${v.lexeme} is outside ±(2^53−1)`);
      return n;
    }
    case 'array':
      return v.items.map(toLedgerPlain);
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, x] of v.members) Object.defineProperty(o, k, { value: toLedgerPlain(x), enumerable: true, writable: true, configurable: true });
      return o;
    }
  }
}

/**
 * Strict read of a canonical ledger record (entry, checkpoint): the strict carrier (duplicates, lone surrogates,
 * invalid UTF-8 refused), integer numbers only, and the bytes must equal the RFC 8785 form of the value they parse
 * to. The error is a detail for people; callers report it as `malformed`.
 */
export function readCanonicalRecord(raw: Uint8Array): Result<unknown, string> {
  const read = readJson(raw);
  if (!read.ok) return err(`carrier: ${read.error.code}`);
  let plain: unknown;
  let canonical: Uint8Array;
  try {
    plain = toLedgerPlain(read.value);
    canonical = utf8Bytes(canonicalText(plain));
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
  if (!bytesEqual(canonical, raw)) return err('stored bytes are not the RFC 8785 form of their value');
  return ok(plain);
}
