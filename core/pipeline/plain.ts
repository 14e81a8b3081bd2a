/**
 * A JsonValue tree → plain JS data, for records whose numbers are all small integers (our own messages). Objects are
 * built with own data properties only, so a member named "__proto__" stays data.
 */
import type { JsonValue } from '../carrier/json-value.js';

export function toPlainValue(v: JsonValue): unknown {
  switch (v.kind) {
    case 'null':
      return null;
    case 'boolean':
    case 'string':
      return v.value;
    case 'number':
      return Number(v.lexeme);
    case 'array':
      return v.items.map(toPlainValue);
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, x] of v.members) Object.defineProperty(o, k, { value: toPlainValue(x), enumerable: true, writable: true, configurable: true });
      return o;
    }
  }
}
