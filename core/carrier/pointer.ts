/**
 * RFC 6901 JSON Pointer (Core §7.4: fact.path). Parsing is separate from resolution so an authored pointer is
 * compiled once (RFC 0008 charges its compile once per evaluation) and resolved many times.
 */
import { err, ok, type Result } from '../result.js';
import type { JsonValue } from './json-value.js';

export type PointerErrorCode =
  /** A non-empty pointer must start with "/" (RFC 6901 §3). */
  | 'pointer-not-absolute'
  /** "~" must be followed by "0" or "1" (RFC 6901 §3: escaped = "~" ( "0" / "1" )). */
  | 'pointer-invalid-escape';

export interface PointerError {
  readonly code: PointerErrorCode;
  readonly message: string;
  /** UTF-16 index into the pointer string where the problem is. */
  readonly offset: number;
}

/** RFC 6901 §3–4: "" is the root (no tokens); otherwise "/"-separated tokens with ~1 → "/" then ~0 → "~". */
export function readPointer(p: string): Result<string[], PointerError> {
  if (p === '') return ok([]);
  if (p.charCodeAt(0) !== 0x2f) {
    return err({ code: 'pointer-not-absolute', message: 'a JSON Pointer must be empty or start with "/"', offset: 0 });
  }
  const tokens: string[] = [];
  let start = 1;
  for (;;) {
    const end = p.indexOf('/', start);
    const raw = end === -1 ? p.slice(start) : p.slice(start, end);
    const token = decodeToken(raw);
    if (typeof token === 'number') {
      return err({
        code: 'pointer-invalid-escape',
        message: '"~" must be followed by "0" or "1" in a JSON Pointer',
        offset: start + token,
      });
    }
    tokens.push(token);
    if (end === -1) return ok(tokens);
    start = end + 1;
  }
}

/** The decoded token, or the index of a bad "~". Decoding is single-pass, so "~01" is "~1", never "/". */
function decodeToken(raw: string): string | number {
  let at = raw.indexOf('~');
  if (at === -1) return raw;
  let out = '';
  let from = 0;
  while (at !== -1) {
    const next = raw.charCodeAt(at + 1);
    if (next !== 0x30 && next !== 0x31) return at;
    out += raw.slice(from, at) + (next === 0x30 ? '~' : '/');
    from = at + 2;
    at = raw.indexOf('~', from);
  }
  return out + raw.slice(from);
}

/** RFC 6901 §3 escaping of one reference token, for naming a location. */
export const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The tokens of a pointer a schema already admitted as well-formed (none, should it not be). */
export function pointerTokens(p: string): string[] {
  const r = readPointer(p);
  return r.ok ? r.value : [];
}

/** RFC 6901 §4 array index: "0" or a digit string without a leading zero. */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * Resolves parsed tokens against a tree; undefined when unresolved (Core §7.4: that makes the condition unknown).
 * Object members are Map lookups only, so "__proto__", "constructor" or "toString" resolve only when the document
 * has such a member. Array tokens must be an RFC 6901 index within bounds; "-" (the element after the last) never
 * resolves; a token applied to a scalar does not resolve.
 */
export function resolvePointer(root: JsonValue, tokens: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (node.kind === 'object') {
      node = node.members.get(token);
      if (node === undefined) return undefined;
    } else if (node.kind === 'array') {
      if (!ARRAY_INDEX.test(token)) return undefined;
      const index = Number(token); // may exceed 2^53 for a long token; then it is out of bounds anyway
      if (index >= node.items.length) return undefined;
      node = node.items[index]!;
    } else {
      return undefined;
    }
  }
  return node;
}
