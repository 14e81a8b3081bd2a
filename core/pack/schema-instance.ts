/**
 * The instance handed to ajv. toPlain's null-prototype objects are the safe projection, but ajv's uniqueItems uses
 * fast-deep-equal, which calls `valueOf` on objects and so throws on a null prototype. Here objects get an ordinary
 * prototype and every member is an own data property ("__proto__" defined explicitly, never assigned), so "__proto__" stays data
 * and nothing inherited is enumerable; ajv reads only own enumerable members and the schema's property names.
 * Numbers become JS numbers: the schema only checks their JSON type (no numeric keyword applies to a pack number).
 */
import type { JsonValue } from '../carrier/json-value.js';

export function toSchemaInstance(v: JsonValue): unknown {
  switch (v.kind) {
    case 'null':
      return null;
    case 'boolean':
    case 'string':
      return v.value;
    case 'number':
      return Number(v.lexeme);
    case 'array':
      return v.items.map(toSchemaInstance);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, value] of v.members) {
        // Assignment creates an own data property for every name except "__proto__", whose inherited setter would
        // change the prototype instead; that one name is defined explicitly.
        if (name === '__proto__') {
          Object.defineProperty(out, name, {
            value: toSchemaInstance(value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          out[name] = toSchemaInstance(value);
        }
      }
      return out;
    }
  }
}
