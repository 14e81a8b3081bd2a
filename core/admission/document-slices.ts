/**
 * The envelope of a request whose documents are not strict JSON texts (docs/adr/0176-malformed-documents-are-recorded.md).
 *
 * When the strict carrier refuses a request, the refusal may lie inside the `facts` or `evidence` document — bytes
 * the evaluator must judge itself (Core §8.2: malformed facts are a `malformed-input` error, not a transport fault).
 * This scanner cuts the request into its top-level members WITHOUT judging the two document values: each member
 * value is the run of bytes up to the next `,` or `}` outside strings and brackets. It returns the two document
 * slices and an envelope in which each document value is replaced by `null`, which the caller then reads with the
 * strict carrier: the envelope's own members (format, requestId, pack, workBudget, correlation, and every name) are
 * held to exactly the rules of a fully strict request, and a duplicate top-level name stays a refusal.
 *
 * Returns null when the bytes cannot be cut that way (no object, an unterminated string or bracket, a name that is
 * not a string, no `:`, data after the object, no document member): the request stays unreadable. An empty document
 * value (`"facts":,`) is cut as zero bytes, which the evaluator refuses like any empty facts file.
 */
import { concatBytes } from '@noble/hashes/utils.js';

export interface DocumentSlices {
  /** The request with each `facts` / `evidence` value replaced by `null`, for the strict reader. */
  readonly envelope: Uint8Array;
  /** The exact bytes of each document member value (without the JSON whitespace around it), by member name. */
  readonly documents: ReadonlyMap<string, Uint8Array>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
const CLOSE_OBJ = 0x7d;
const NULL = new Uint8Array([0x6e, 0x75, 0x6c, 0x6c]);
const DOCUMENTS: readonly string[] = ['facts', 'evidence'];
const decoder = new TextDecoder('utf-8', { fatal: true });

const isWs = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** Index just past the closing quote of the string opening at `i`, or -1 when it never closes. */
function stringEnd(b: Uint8Array, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    if (b[j] === BACKSLASH) j += 1;
    else if (b[j] === QUOTE) return j + 1;
  }
  return -1;
}

/** Index of the `,` or `}` that ends the member value starting at `i` (depth 0, outside strings), or -1. */
function valueEnd(b: Uint8Array, i: number): number {
  let depth = 0;
  for (let j = i; j < b.length; j++) {
    const c = b[j]!;
    if (c === QUOTE) {
      const e = stringEnd(b, j);
      if (e < 0) return -1;
      j = e - 1;
    } else if (OPEN.has(c)) depth += 1;
    else if (CLOSE.has(c)) {
      if (depth === 0) return c === CLOSE_OBJ ? j : -1;
      depth -= 1;
    } else if (c === COMMA && depth === 0) return j;
  }
  return -1;
}

/** The member name token at [start, end) decoded, or null when it is not plain JSON string syntax. */
function nameOf(b: Uint8Array, start: number, end: number): string | null {
  try {
    const v: unknown = JSON.parse(decoder.decode(b.subarray(start, end)));
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** `names`: the document members (an evaluation request's facts and evidence; a graph request's inputs, ADR 0360). */
export function documentSlices(b: Uint8Array, names: readonly string[] = DOCUMENTS): DocumentSlices | null {
  let i = 0;
  while (isWs(b[i])) i += 1;
  if (b[i] !== 0x7b) return null;
  i += 1;
  const parts: Uint8Array[] = [b.subarray(0, i)];
  const documents = new Map<string, Uint8Array>();
  let from = i; // start of the envelope bytes not yet copied
  for (;;) {
    while (isWs(b[i])) i += 1;
    if (b[i] !== QUOTE) return null;
    const nameEnd = stringEnd(b, i);
    if (nameEnd < 0) return null;
    const name = nameOf(b, i, nameEnd);
    if (name === null) return null;
    i = nameEnd;
    while (isWs(b[i])) i += 1;
    if (b[i] !== COLON) return null;
    i += 1;
    const end = valueEnd(b, i);
    if (end < 0) return null;
    if (names.includes(name)) {
      let s = i;
      let e = end;
      while (s < e && isWs(b[s])) s += 1;
      while (e > s && isWs(b[e - 1])) e -= 1;
      // A repeated document name keeps the first slice; the strict envelope read refuses the duplicate anyway.
      if (!documents.has(name)) documents.set(name, b.subarray(s, e));
      parts.push(b.subarray(from, s), NULL);
      from = e;
    }
    i = end;
    if (b[i] === CLOSE_OBJ) break;
    i += 1; // ','
  }
  i += 1;
  for (let j = i; j < b.length; j++) if (!isWs(b[j])) return null;
  if (documents.size === 0) return null;
  parts.push(b.subarray(from));
  return { envelope: concatBytes(...parts), documents };
}
