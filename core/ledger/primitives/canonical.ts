/**
 * RFC 8785 (JCS) bytes for the ledger's own records, after checking the ledger's value rules: every member name is
 * ASCII (so UTF-16 and code point orders agree), every string is well-formed Unicode, every number is an integer
 * within ±(2^53−1) (no floats, so JCS number formatting is the plain decimal integer), no undefined, no functions.
 * One pass checks and writes (docs/adr/0055-ledger-canonical-serializer.md).
 */
import { readJson, type JsonValue } from '../../carrier/index.js';
import { err, ok, type Result } from '../../result.js';
import { bytesEqual, isWellFormed, utf8Bytes } from './bytes.js';

export class LedgerValueError extends Error {
  override readonly name = 'LedgerValueError';
  readonly code = 'ledger-value';
  constructor(
    readonly pointer: string,
    readonly rule: string,
  ) {
    super(`${pointer || '/'}: ${rule}`);
  }
}

const ASCII_NAME = /^[\x20-\x7e]+$/;

function escapePointerToken(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * RFC 8785 text of a ledger value, checking the value rules in the same pass (docs/adr/0055-ledger-canonical-serializer.md).
 * Within the ledger's domain RFC 8785 reduces to: members sorted by UTF-16 code units (Array#sort's default order),
 * strings as ECMAScript JSON.stringify writes them (well-formed strings only), integers in plain decimal, no
 * whitespace. test/ledger/canonical.test.ts cross-checks this against the `canonicalize` package.
 */
export function canonicalText(x: unknown): string {
  return write(x, '');
}

/** The canonical `"name":value` member texts of an object, in RFC 8785 order (for splicing in a signature). */
export function canonicalMembers(o: Readonly<Record<string, unknown>>): [string, string][] {
  const keys = Object.keys(o).sort();
  const out: [string, string][] = [];
  for (const k of keys) {
    const v = o[k];
    const prefix = memberPrefix(k, '');
    if (v === undefined) throw new LedgerValueError(`/${escapePointerToken(k)}`, 'no undefined members');
    out.push([k, prefix + write(v, k)]);
  }
  return out;
}

export const joinMembers = (members: readonly (readonly [string, string])[]): string =>
  `{${members.map((m) => m[1]).join(',')}}`;

/** `"name":` texts of member names already checked (the ledger's records reuse a few dozen names). */
const nameCache = new Map<string, string>();

function memberPrefix(k: string, at: string): string {
  let p = nameCache.get(k);
  if (p === undefined) {
    if (!ASCII_NAME.test(k))
      throw new LedgerValueError(`${at}/${escapePointerToken(k)}`, 'member names are printable ASCII');
    p = `${JSON.stringify(k)}:`;
    if (nameCache.size < 4096) nameCache.set(k, p);
  }
  return p;
}

function write(x: unknown, at: string): string {
  if (x === null) return 'null';
  switch (typeof x) {
    case 'boolean':
      return x ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(x) || Object.is(x, -0))
        throw new LedgerValueError(at, 'numbers are integers within ±(2^53−1)');
      return String(x);
    case 'string':
      if (!isWellFormed(x)) throw new LedgerValueError(at, 'strings are well-formed Unicode (no lone surrogate)');
      return JSON.stringify(x);
    case 'object': {
      if (Array.isArray(x)) {
        let s = '[';
        for (let i = 0; i < x.length; i++) s += (i === 0 ? '' : ',') + write(x[i], at);
        return `${s}]`;
      }
      const proto = Object.getPrototypeOf(x);
      if (proto !== Object.prototype && proto !== null) throw new LedgerValueError(at, 'objects are plain records');
      const o = x as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      let s = '{';
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        const v = o[k];
        const prefix = memberPrefix(k, at);
        if (v === undefined) throw new LedgerValueError(`${at}/${escapePointerToken(k)}`, 'no undefined members');
        s += (i === 0 ? prefix : `,${prefix}`) + write(v, k);
      }
      return `${s}}`;
    }
    default:
      throw new LedgerValueError(at, `no ${typeof x} values`);
  }
}

export function toLedgerPlain(v: JsonValue): unknown {
  switch (v.kind) {
    case 'null':
      return null;
    case 'boolean':
      return v.value;
    case 'string':
      return v.value;
    case 'number': {
      if (!/^-?(?:0|[1-9][0-9]{0,15})$/.test(v.lexeme))
        throw new LedgerValueError('', `number ${v.lexeme} is not an integer spelling`);
      const n = Number(v.lexeme);
      if (!Number.isSafeInteger(n) || v.lexeme === '-0')
        throw new LedgerValueError('', `number ${v.lexeme} is outside ±(2^53−1)`);
      return n;
    }
    case 'array':
      return v.items.map(toLedgerPlain);
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, x] of v.members) {
        // "__proto__" must become an own data member, never the prototype (Core §10: names are data).
        if (k === '__proto__')
          Object.defineProperty(o, k, {
            value: toLedgerPlain(x),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else o[k] = toLedgerPlain(x);
      }
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
