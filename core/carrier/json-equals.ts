/**
 * Core §7.4 type-preserving JSON equality: null equals null; Booleans and strings by value; numbers by exact
 * mathematical value (never through a double); arrays recursively in order; objects recursively by member name
 * and value regardless of member order. No coercion between JSON types. Recursion depth is bounded by the
 * carrier's depth limit (at most CARRIER_LIMIT_CEILINGS.depth).
 */
import { compareNumberLexemes } from './exact-number.js';
import type { JsonValue } from './json-value.js';

export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'null':
      return b.kind === 'null';
    case 'boolean':
      return b.kind === 'boolean' && a.value === b.value;
    case 'string':
      return b.kind === 'string' && a.value === b.value;
    case 'number':
      return b.kind === 'number' && (a.lexeme === b.lexeme || compareNumberLexemes(a.lexeme, b.lexeme) === 0);
    case 'array': {
      if (b.kind !== 'array' || a.items.length !== b.items.length) return false;
      for (let i = 0; i < a.items.length; i++) if (!jsonEquals(a.items[i]!, b.items[i]!)) return false;
      return true;
    }
    case 'object': {
      if (b.kind !== 'object' || a.members.size !== b.members.size) return false;
      for (const [name, value] of a.members) {
        const other = b.members.get(name); // Map lookup: never the prototype chain
        if (other === undefined || !jsonEquals(value, other)) return false;
      }
      return true;
    }
  }
}
