/**
 * RFC 8785 (JCS) bytes for the ledger's own records, after checking the ledger's value rules: every member name is
 * ASCII (so UTF-16 and code point orders agree), every string is well-formed Unicode, every number is an integer
 * within ±(2^53−1) (no floats, so JCS number formatting is the plain decimal integer), no undefined, no functions.
 * One pass checks and writes (docs/adr/0055-ledger-canonical-serializer.md).
 */
import { DEFAULT_CARRIER_LIMITS, readJson, type JsonValue } from '../../carrier/index.js';
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

/** The bytes without one final newline: the files Docket writes end with one. */
export const withoutFinalNewline = (b: Uint8Array): Uint8Array =>
  b[b.length - 1] === 0x0a ? b.subarray(0, b.length - 1) : b;

/**
 * Strict read of a record that need not be canonical (a policy people author, a receipt in transit, markers): the
 * strict carrier, integer numbers only, then the record's own first broken rule (`violation`). The error is a detail
 * for people.
 */
export function readLedgerJson<T>(
  bytes: Uint8Array,
  violation: (x: unknown) => string | null = () => null,
): Result<T, string> {
  const read = readJson(bytes);
  if (!read.ok) return err(`carrier: ${read.error.code}`);
  let plain: unknown;
  try {
    plain = toLedgerPlain(read.value);
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
  const v = violation(plain);
  return v === null ? ok(plain as T) : err(v);
}

/**
 * Strict read of a canonical ledger record (entry, checkpoint): the strict carrier (duplicates, lone surrogates,
 * invalid UTF-8 refused), integer numbers only, and the bytes must equal the RFC 8785 form of the value they parse
 * to. The error is a detail for people; callers report it as `malformed`.
 */
export function readCanonicalRecord(raw: Uint8Array): Result<unknown, string> {
  return readLedgerJson(raw, (plain) => {
    try {
      return bytesEqual(utf8Bytes(canonicalText(plain)), raw)
        ? null
        : 'stored bytes are not the RFC 8785 form of their value';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  });
}

/** Member names already found printable ASCII: ledger records reuse a few dozen names, so the regex runs once each. */
const asciiNames = new Set<string>();
function isAsciiName(k: string): boolean {
  if (asciiNames.has(k)) return true;
  if (!ASCII_NAME.test(k)) return false;
  if (asciiNames.size < 4096) asciiNames.add(k);
  return true;
}

// The strict reader's carrier limits (readJson's defaults, Core §10). A value the fast path cannot show to be within
// them is left to the strict reader, which refuses it with the limit's own error; a string's UTF-8 length is at
// most three bytes per UTF-16 code unit.
const LIMITS = DEFAULT_CARRIER_LIMITS;

/**
 * True when a JSON.parse result obeys the ledger value rules (integers within ±(2^53−1), no −0, printable-ASCII
 * member names, well-formed strings), every object's members are in strictly ascending UTF-16 code-unit order, and
 * it is visibly within the carrier's depth, collection and string limits. For such a value RFC 8785 text equals
 * JSON.stringify(value) (§3.2: ECMAScript primitive serialization, sorted members). `open` counts the containers
 * around `x`; the walk stops at the depth limit, so no input can exhaust the stack.
 */
export function isSortedLedgerValue(x: unknown, open = 0): boolean {
  if (x === null || typeof x === 'boolean') return true;
  if (typeof x === 'number') return Number.isSafeInteger(x) && !Object.is(x, -0);
  if (typeof x === 'string') return x.length * 3 <= LIMITS.stringBytes && isWellFormed(x);
  if (typeof x !== 'object' || open >= LIMITS.depth) return false;
  if (Array.isArray(x)) {
    if (x.length > LIMITS.collectionSize) return false;
    for (const v of x) if (!isSortedLedgerValue(v, open + 1)) return false;
    return true;
  }
  let prev: string | null = null;
  let n = 0;
  for (const k in x as Record<string, unknown>) {
    if (!Object.hasOwn(x, k) || ++n > LIMITS.collectionSize) return false;
    if ((prev !== null && !(prev < k)) || !isAsciiName(k)) return false;
    if (!isSortedLedgerValue((x as Record<string, unknown>)[k], open + 1)) return false;
    prev = k;
  }
  return true;
}

/**
 * The checked fast path of the strict canonical read (docs/adr/0093-verify-performance.md): the value of `text` when
 * JSON.parse(text) succeeds, the value is a sorted ledger value within the carrier's limits (isSortedLedgerValue) and
 * JSON.stringify(value) === text; undefined when it cannot show that (decide with readCanonicalRecord). Such a text is
 * strict RFC 8259 JSON with unique member names, no lone surrogate and integer numbers (it is what the one serializer
 * emits), so the strict reader reads it to the same value; conversely a text the strict reader accepts is by
 * definition the canonical text of its value. JSON.parse defines "__proto__" as an own member, like the carrier.
 * Texts it merely cannot confirm (integer-like member names, which V8 enumerates first) are left undecided.
 */
export function provenCanonicalValue(text: string): { readonly value: unknown } | undefined {
  if (text.length * 3 > LIMITS.documentBytes) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isSortedLedgerValue(value) && JSON.stringify(value) === text ? { value } : undefined;
}

/** The strict canonical read of a record given as text: the same answers as readCanonicalRecord(utf8(text)). */
export function readCanonicalText(text: string): Result<unknown, string> {
  const proven = provenCanonicalValue(text);
  return proven !== undefined ? ok(proven.value) : readCanonicalRecord(utf8Bytes(text));
}
