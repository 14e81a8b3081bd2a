/**
 * The strict JSON carrier reader (Core §2.1, RFC 8259). JSON.parse is never used on untrusted input: it keeps the
 * last duplicate member, accepts lone surrogate escapes and loses number spelling.
 *
 * Strategy (performance): the whole input is validated and decoded once with a fatal TextDecoder (native, about
 * 0.1 µs per 0.5 KB), then a hand-written scanner walks the decoded string with charCodeAt. Unescaped strings are
 * `slice`s of the decoded text (no per-character concatenation); only strings with escapes take the slow path.
 * Source-token byte lengths for the RFC 0008 V charge are exact: an all-ASCII document has bytes == code units;
 * otherwise the scanner counts the extra UTF-8 bytes of every non-ASCII code unit it passes.
 */
import { err, ok, type Result } from '../result.js';
import type { CarrierError, CarrierErrorCode } from './errors.js';
import type { JsonArray, JsonBoolean, JsonNull, JsonNumber, JsonObject, JsonString, JsonValue } from './json-value.js';
import { resolveLimits, type CarrierLimits } from './limits.js';
import { LINEAR_LIMIT, MemberMap, indexOf } from './member-map.js';
import { firstInvalidUtf8, utf8ByteLength } from './utf8.js';

export interface ReadJsonOptions {
  readonly limits?: Partial<CarrierLimits>;
  /**
   * Accept a \u escape in D800–DFFF that does not form a pair, as the 0.2.0-draft carrier did (Core §11
   * "Carrier"). The resulting JavaScript string then holds a lone surrogate. Never set this for 0.3.0 input.
   */
  readonly allowLoneSurrogates?: boolean;
}

// ignoreBOM: true keeps a leading U+FEFF in the text so the scanner can refuse it (docs/adr/0010); the default
// (false) would silently strip it, and the digest of the bytes would then describe a different text.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Shared immutable scalar nodes: V(null) = 1 + 4, V(true) = 1 + 4, V(false) = 1 + 5 (RFC 0008 Limit accounting). */
export const JSON_NULL: JsonNull = Object.freeze({ kind: 'null', v: 5 });
export const JSON_TRUE: JsonBoolean = Object.freeze({ kind: 'boolean', value: true, v: 5 });
export const JSON_FALSE: JsonBoolean = Object.freeze({ kind: 'boolean', value: false, v: 6 });

/** Reads one strict JSON text. Never throws for bad input; a misconfigured `limits` throws CarrierLimitsError. */
export function readJson(bytes: Uint8Array, options?: ReadJsonOptions): Result<JsonValue, CarrierError> {
  const limits = resolveLimits(options?.limits);
  // §2.1/§10: refuse before reading when the document is over its limit; never read a prefix.
  if (bytes.length > limits.documentBytes) return err(documentTooLarge(bytes.length, limits.documentBytes));
  if (bytes.length === 0) return err({ code: 'empty-input', message: 'input is empty', offset: 0 });
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return err({
      code: 'invalid-utf8',
      message: 'input is not well-formed UTF-8',
      ...(at >= 0 ? { offset: at } : {}),
    });
  }
  return new Scanner(text, text.length === bytes.length, limits, options?.allowLoneSurrogates === true).run();
}

/**
 * The refusal of a document of `length` bytes over the `limit` (§10): what readJson answers for such bytes, for a
 * reader that counted a document's bytes without keeping them (a streamed batch line, ADR 0200).
 */
export function documentTooLarge(length: number, limit: number): CarrierError {
  return { code: 'limit-document-bytes', message: `document is ${length} bytes; the limit is ${limit}`, offset: limit };
}

/** Internal control flow only: thrown inside the scanner, turned into a CarrierError by `run`. */
class Refusal {
  constructor(
    readonly code: CarrierErrorCode,
    readonly message: string,
    readonly index: number,
  ) {}
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** The character each two-character escape denotes (RFC 8259 §7), indexed by the code unit after the backslash. */
const SHORT_ESCAPES: string[] = [];
for (const [e, c] of ['""', '\\\\', '//', 'b\b', 'f\f', 'n\n', 'r\r', 't\t']) SHORT_ESCAPES[e!.charCodeAt(0)] = c!;

const NAME_CACHE_SIZE = 1024; // a power of two
const NAME_CACHE_MAX_LENGTH = 32;
/** Interned member names (see Scanner.memberName). Holds at most 1,024 names of at most 32 ASCII characters. */
const nameCache: (string | undefined)[] = new Array<string | undefined>(NAME_CACHE_SIZE).fill(undefined);

/** A fresh flat string with the code units s[start..end): never a slice that would pin `s` in memory. */
function flatCopy(s: string, start: number, end: number): string {
  const codes: number[] = [];
  for (let i = start; i < end; i++) codes.push(s.charCodeAt(i));
  return String.fromCharCode(...codes); // builds a new sequential string
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** Extra UTF-8 bytes (beyond one) a UTF-16 code unit of valid text costs; a surrogate half costs 1 (pair = 4). */
function extraBytes(c: number): number {
  if (c < 0x80) return 0;
  if (c < 0x800) return 1;
  if (c >= 0xd800 && c <= 0xdfff) return 1;
  return 2;
}

class Scanner {
  private i = 0;
  /** Shared stacks for the elements/members of open containers (see array()). */
  private readonly values: JsonValue[] = [];
  private readonly names: string[] = [];
  /** Stack tops: entries above them are stale and never read (cheaper than truncating `length`). */
  private valuesTop = 0;
  private namesTop = 0;
  /** Byte length of the last scanned string token, quotes and escapes as written (for V). */
  private tokenBytes = 0;
  /** UTF-8 byte length of the last scanned string's decoded value (for member-name V and the string limit). */
  private valueBytes = 0;

  constructor(
    private readonly s: string,
    private readonly ascii: boolean,
    private readonly limits: CarrierLimits,
    private readonly allowLone: boolean,
  ) {}

  run(): Result<JsonValue, CarrierError> {
    try {
      this.ws();
      if (this.i >= this.s.length)
        return err({ code: 'empty-input', message: 'input holds only whitespace', offset: this.byteOffset(this.i) });
      const value = this.value(0);
      this.ws();
      if (this.i < this.s.length) {
        return err({ code: 'trailing-data', message: 'data after the JSON value', offset: this.byteOffset(this.i) });
      }
      return ok(value);
    } catch (e) {
      if (e instanceof Refusal) return err({ code: e.code, message: e.message, offset: this.byteOffset(e.index) });
      throw e;
    }
  }

  private byteOffset(index: number): number {
    return this.ascii ? index : utf8ByteLength(this.s.slice(0, index));
  }

  private fail(code: CarrierErrorCode, message: string, index: number = this.i): never {
    // Refusal is not an Error on purpose: no stack is captured, so refusing hostile input stays cheap, and it is
    // caught inside this reader and turned into a typed result before anything else sees it.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw new Refusal(code, message, index);
  }

  /** Skips RFC 8259 whitespace (space, tab, LF, CR only) and returns the next code unit (NaN at the end). */
  private ws(): number {
    const s = this.s;
    let i = this.i;
    let c = s.charCodeAt(i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++i);
    this.i = i;
    return c;
  }

  private value(depth: number): JsonValue {
    const c = this.ws();
    switch (c) {
      case 0x7b:
        return this.object(depth + 1);
      case 0x5b:
        return this.array(depth + 1);
      case 0x22: {
        const value = this.string();
        return { kind: 'string', value, v: 1 + this.tokenBytes } satisfies JsonString;
      }
      case 0x74:
        return this.literal('true', JSON_TRUE);
      case 0x66:
        return this.literal('false', JSON_FALSE);
      case 0x6e:
        return this.literal('null', JSON_NULL);
      case 0x2d:
        return this.number();
      default:
        if (isDigit(c)) return this.number();
        if (c !== c) this.fail('syntax', 'unexpected end of input; a value was expected');
        if (c === 0xfeff && this.i === 0)
          this.fail('syntax', 'a byte order mark is not part of a JSON text (docs/adr/0010)');
        return this.fail('syntax', `unexpected character ${describe(c)}; a value was expected`);
    }
  }

  private literal<T extends JsonValue>(word: string, node: T): T {
    if (!this.s.startsWith(word, this.i)) this.fail('syntax', `invalid literal; expected ${word}`);
    this.i += word.length;
    return node;
  }

  private array(depth: number): JsonArray {
    if (depth > this.limits.depth) this.fail('limit-depth', `nesting deeper than the limit of ${this.limits.depth}`);
    this.i++;
    let v = 1;
    if (this.ws() === 0x5d) {
      this.i++;
      return { kind: 'array', items: [], v };
    }
    // Elements go on a shared stack and leave it as one exact-size slice: no growth slack per array.
    const stack = this.values;
    const base = this.valuesTop;
    for (;;) {
      // A further element is coming (a trailing comma stays a syntax error, reported by value()).
      if (this.valuesTop - base === this.limits.collectionSize && this.startsValue(this.ws())) {
        this.fail('limit-collection-size', `array has more than the limit of ${this.limits.collectionSize} elements`);
      }
      const item = this.value(depth);
      stack[this.valuesTop++] = item;
      v += 1 + item.v; // V(array) = 1 + count + ΣV (RFC 0008)
      const c = this.ws();
      if (c === 0x2c) {
        this.i++;
        continue;
      }
      if (c === 0x5d) {
        this.i++;
        const items = stack.slice(base, this.valuesTop);
        this.valuesTop = base;
        return { kind: 'array', items, v };
      }
      this.fail('syntax', c !== c ? 'unterminated array' : `unexpected character ${describe(c)}; expected , or ]`);
    }
  }

  private startsValue(c: number): boolean {
    return c === c && c !== 0x5d && c !== 0x2c && c !== 0x7d;
  }

  private object(depth: number): JsonObject {
    if (depth > this.limits.depth) this.fail('limit-depth', `nesting deeper than the limit of ${this.limits.depth}`);
    this.i++;
    let v = 1;
    let c = this.ws();
    if (c === 0x7d) {
      this.i++;
      return { kind: 'object', members: new MemberMap([], []), v };
    }
    const names = this.names;
    const values = this.values;
    const base = this.namesTop;
    const valueBase = this.valuesTop;
    let index: Map<string, number> | undefined;
    for (;;) {
      if (c !== 0x22)
        this.fail(
          'syntax',
          c !== c ? 'unterminated object' : `unexpected character ${describe(c)}; expected a member name`,
        );
      const count = this.namesTop - base;
      if (count === this.limits.collectionSize) {
        this.fail('limit-collection-size', `object has more than the limit of ${this.limits.collectionSize} members`);
      }
      const nameAt = this.i;
      const name = this.memberName();
      const nameBytes = this.valueBytes;
      // §2.1: member names are unique, compared after unescaping. Linear up to LINEAR_LIMIT, then a Map index.
      if (index !== undefined) {
        if (index.has(name)) this.duplicate(name, nameAt);
        index.set(name, count);
      } else {
        for (let k = base; k < this.namesTop; k++) if (names[k] === name) this.duplicate(name, nameAt);
        if (count === LINEAR_LIMIT) index = indexOf(names.slice(base, this.namesTop)).set(name, count);
      }
      names[this.namesTop++] = name;
      if (this.ws() !== 0x3a) this.fail('syntax', 'expected : after a member name');
      this.i++;
      const value = this.value(depth);
      values[this.valuesTop++] = value;
      v += 1 + nameBytes + value.v; // V(object) = 1 + count + Σ(bytes(name) + V(value)) (RFC 0008)
      c = this.ws();
      if (c === 0x2c) {
        this.i++;
        c = this.ws();
        continue;
      }
      if (c === 0x7d) {
        this.i++;
        const members = new MemberMap(names.slice(base, this.namesTop), values.slice(valueBase, this.valuesTop), index);
        this.namesTop = base;
        this.valuesTop = valueBase;
        return { kind: 'object', members, v };
      }
      this.fail('syntax', c !== c ? 'unterminated object' : `unexpected character ${describe(c)}; expected , or }`);
    }
  }

  private duplicate(name: string, at: number): never {
    return this.fail('duplicate-member', `duplicate member name ${JSON.stringify(name)}`, at);
  }

  /**
   * A member name. Short unescaped ASCII names are interned through a small module-level cache (names repeat
   * across the documents an evaluator reads), which saves an allocation per member; the cache holds flat copies
   * only, so it never keeps a document's text alive.
   */
  private memberName(): string {
    const s = this.s;
    const start = this.i + 1;
    let i = start;
    let hash = 0;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c || c < 0x20 || c >= 0x80 || c !== c || i - start === NAME_CACHE_MAX_LENGTH) return this.string();
      hash = (Math.imul(hash, 31) + c) | 0;
      i++;
    }
    const length = i - start;
    if (length > this.limits.stringBytes) this.stringTooLong(start - 1);
    this.valueBytes = length;
    this.tokenBytes = length + 2;
    this.i = i + 1;
    const slot = hash & (NAME_CACHE_SIZE - 1);
    const cached = nameCache[slot];
    if (cached !== undefined && cached.length === length && s.startsWith(cached, start)) return cached;
    const fresh = flatCopy(s, start, i);
    nameCache[slot] = fresh;
    return fresh;
  }

  /** Scans a string token at the opening quote; sets tokenBytes/valueBytes; returns the decoded value. */
  private string(): string {
    const s = this.s;
    const open = this.i;
    const start = open + 1;
    let i = start;
    let extra = 0;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) return this.escapedString(open, i, extra);
      if (c < 0x20 || c !== c) this.unterminatedOrControl(c, i);
      if (c >= 0x80) extra += extraBytes(c);
      i++;
    }
    const valueBytes = i - start + extra;
    if (valueBytes > this.limits.stringBytes) this.stringTooLong(open);
    this.valueBytes = valueBytes;
    this.tokenBytes = valueBytes + 2;
    this.i = i + 1;
    return s.slice(start, i);
  }

  private unterminatedOrControl(c: number, i: number): never {
    if (c !== c) this.fail('syntax', 'unterminated string', i);
    return this.fail('syntax', `unescaped control character ${describe(c)} in a string`, i);
  }

  private stringTooLong(open: number): never {
    return this.fail('limit-string-bytes', `string longer than the limit of ${this.limits.stringBytes} bytes`, open);
  }

  /** Slow path: a string with at least one escape. `i` is at the first backslash; `extra` counts raw bytes so far. */
  private escapedString(open: number, i: number, extra: number): string {
    const s = this.s;
    let out = '';
    let segment = open + 1;
    let rawExtra = extra; // extra UTF-8 bytes of raw (unescaped) non-ASCII code units in the token
    let decodedBytes = i - segment + extra; // UTF-8 bytes of the decoded value so far
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20 || c !== c) this.unterminatedOrControl(c, i);
      if (c !== 0x5c) {
        if (c >= 0x80) {
          const x = extraBytes(c);
          rawExtra += x;
          decodedBytes += 1 + x;
        } else decodedBytes++;
        i++;
        continue;
      }
      if (i > segment) out += s.slice(segment, i);
      const e = s.charCodeAt(i + 1);
      if (e === 0x75) {
        const u = this.hex4(i + 2);
        if (u >= 0xd800 && u <= 0xdfff) {
          // §2.1: a high surrogate escape must be followed at once by a low surrogate escape.
          const high = u <= 0xdbff;
          const low = high && s.charCodeAt(i + 6) === 0x5c && s.charCodeAt(i + 7) === 0x75 ? this.hex4(i + 8) : -1;
          if (low >= 0xdc00 && low <= 0xdfff) {
            out += String.fromCharCode(u, low);
            decodedBytes += 4;
            i += 12;
            segment = i;
            continue;
          }
          const missing = high
            ? 'without a low surrogate escape after it'
            : 'without a high surrogate escape before it';
          if (!this.allowLone)
            this.fail('lone-surrogate', `\\u${hex(u)} is a ${high ? 'high' : 'low'} surrogate escape ${missing}`, i);
          decodedBytes += 3;
        } else {
          decodedBytes += u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
        }
        out += String.fromCharCode(u);
        i += 6;
        segment = i;
        continue;
      }
      const short = SHORT_ESCAPES[e];
      if (short === undefined) {
        if (e !== e) this.fail('syntax', 'unterminated string', i + 1);
        this.fail('syntax', `invalid escape \\${describe(e)}`, i);
      }
      out += short;
      decodedBytes++;
      i += 2;
      segment = i;
    }
    if (i > segment) out += s.slice(segment, i);
    if (decodedBytes > this.limits.stringBytes) this.stringTooLong(open);
    this.valueBytes = decodedBytes;
    this.tokenBytes = i + 1 - open + rawExtra;
    this.i = i + 1;
    return out;
  }

  /** Four hex digits at index j (RFC 8259 §7: case-insensitive). */
  private hex4(j: number): number {
    const s = this.s;
    const a = hexValue(s.charCodeAt(j));
    const b = hexValue(s.charCodeAt(j + 1));
    const c = hexValue(s.charCodeAt(j + 2));
    const d = hexValue(s.charCodeAt(j + 3));
    if ((a | b | c | d) < 0) this.fail('syntax', '\\u must be followed by four hexadecimal digits', j - 2);
    return (a << 12) | (b << 8) | (c << 4) | d;
  }

  /** RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?; the lexeme is kept exactly. */
  private number(): JsonNumber {
    const s = this.s;
    const start = this.i;
    let i = start;
    let c = s.charCodeAt(i);
    if (c === 0x2d) c = s.charCodeAt(++i);
    if (c === 0x30) {
      c = s.charCodeAt(++i);
      if (isDigit(c)) this.fail('syntax', 'a number must not have a leading zero', start);
    } else if (c >= 0x31 && c <= 0x39) {
      do c = s.charCodeAt(++i);
      while (isDigit(c));
    } else {
      this.fail('syntax', 'a digit was expected in the number', i);
    }
    if (c === 0x2e) {
      c = s.charCodeAt(++i);
      if (!isDigit(c)) this.fail('syntax', 'a digit was expected after the decimal point', i);
      do c = s.charCodeAt(++i);
      while (isDigit(c));
    }
    if (c === 0x65 || c === 0x45) {
      c = s.charCodeAt(++i);
      if (c === 0x2b || c === 0x2d) c = s.charCodeAt(++i);
      if (!isDigit(c)) this.fail('syntax', 'a digit was expected in the exponent', i);
      do c = s.charCodeAt(++i);
      while (isDigit(c));
    }
    const length = i - start; // ASCII: code units == bytes
    if (length > this.limits.numberBytes) {
      this.fail(
        'limit-number-bytes',
        `number token of ${length} bytes exceeds the limit of ${this.limits.numberBytes}`,
        start,
      );
    }
    this.i = i;
    return { kind: 'number', lexeme: s.slice(start, i), v: 1 + length };
  }
}

function hex(u: number): string {
  return u.toString(16).toUpperCase().padStart(4, '0');
}

function describe(c: number): string {
  if (c !== c) return 'end of input';
  if (c >= 0x21 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  return `U+${hex(c)}`;
}
