/**
 * Exact source slices of the members of a top-level JSON object.
 *
 * The request message carries the facts and evidence documents as members (docs/adr/0070-request-format-and-exact-slices.md).
 * Their digests and their evaluation must use the exact bytes the requester wrote — never a re-serialization — so
 * we cut the member value out of the request bytes. This scanner runs only on bytes the strict carrier has already
 * accepted (Core §2.1), so it needs no error handling of its own: it only tracks strings and nesting. Scanning bytes
 * (not code units) is safe because every structural character is ASCII and no UTF-8 multi-byte sequence contains a
 * byte below 0x80.
 */

export interface Span {
  /** Byte offset of the first byte of the member value. */
  readonly start: number;
  /** Byte offset one past its last byte. */
  readonly end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isWs = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Index just past the closing quote of the string starting at `i` (bytes[i] is the opening quote). */
function skipString(bytes: Uint8Array, i: number): number {
  let j = i + 1;
  for (;;) {
    const b = bytes[j];
    if (b === BACKSLASH) j += 2;
    else if (b === QUOTE) return j + 1;
    else j += 1;
  }
}

/** Index just past the value starting at `i` (a carrier-valid value). */
function skipValue(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  if (b === QUOTE) return skipString(bytes, i);
  if (b === OPEN_OBJ || b === OPEN_ARR) {
    let depth = 0;
    let j = i;
    for (;;) {
      const c = bytes[j];
      if (c === QUOTE) {
        j = skipString(bytes, j);
        continue;
      }
      if (c === OPEN_OBJ || c === OPEN_ARR) depth += 1;
      else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
        depth -= 1;
        if (depth === 0) return j + 1;
      }
      j += 1;
    }
  }
  // Scalar: runs until a structural character or whitespace.
  let j = i;
  while (j < bytes.length) {
    const c = bytes[j]!;
    if (c === COMMA || c === CLOSE_OBJ || c === CLOSE_ARR || isWs(c)) break;
    j += 1;
  }
  return j;
}

/**
 * Byte spans of every member value of the top-level object, keyed by the member's decoded name.
 * Precondition: `bytes` is one carrier-valid JSON text whose root is an object (checked by the caller).
 */
export function topLevelMemberSpans(bytes: Uint8Array): Map<string, Span> {
  const spans = new Map<string, Span>();
  let i = 0;
  while (isWs(bytes[i]!)) i += 1;
  i += 1; // '{'
  for (;;) {
    while (isWs(bytes[i]!) || bytes[i] === COMMA) i += 1;
    if (bytes[i] === CLOSE_OBJ) return spans;
    const nameStart = i;
    i = skipString(bytes, i);
    // The name token is a carrier-valid JSON string, so JSON.parse of that token alone decodes its escapes exactly.
    const name = JSON.parse(decoder.decode(bytes.subarray(nameStart, i))) as string;
    while (isWs(bytes[i]!) || bytes[i] === COLON) i += 1;
    const start = i;
    i = skipValue(bytes, i);
    spans.set(name, { start, end: i });
  }
}
