/**
 * The one serializer of an assembled node document (A2 "Numbers survive assembly verbatim"): the carrier tree as
 * RFC 8259 text with no whitespace, members in their order (a caller's own members as written, injected ones
 * after), number lexemes verbatim and strings through JSON.stringify, which escapes only what JSON requires (no
 * HTML escaping). Used to measure a document that may pass the carrier limits and to hand such a document to the
 * evaluator's preflight as text (ADR 0315).
 */
import type { JsonValue } from '../carrier/index.js';

export function jsonText(v: JsonValue): string {
  switch (v.kind) {
    case 'null':
      return 'null';
    case 'boolean':
      return v.value ? 'true' : 'false';
    case 'number':
      return v.lexeme;
    case 'string':
      return JSON.stringify(v.value);
    case 'array': {
      let out = '[';
      for (let i = 0; i < v.items.length; i++) out += (i === 0 ? '' : ',') + jsonText(v.items[i]!);
      return `${out}]`;
    }
    case 'object': {
      let out = '{';
      let first = true;
      for (const [name, value] of v.members) {
        out += `${first ? '' : ','}${JSON.stringify(name)}:${jsonText(value)}`;
        first = false;
      }
      return `${out}}`;
    }
  }
}

const encoder = new TextEncoder();
export const jsonBytes = (v: JsonValue): Uint8Array => encoder.encode(jsonText(v));
