/**
 * Conversions between the carrier's value tree and plain JavaScript data.
 */
import type { JsonValue } from './json-value.js';
import { MemberMap } from './member-map.js';
import { JSON_FALSE, JSON_NULL, JSON_TRUE } from './read-json.js';
import { utf8ByteLength } from './utf8.js';

/**
 * The tree as plain data: objects get every member as an own data property, so "__proto__" and "constructor" stay
 * data and nothing is inherited, and a null prototype — or, when `ordinary`, Object.prototype: ajv's uniqueItems
 * (fast-deep-equal) calls `valueOf` and so throws on a null prototype (core/pack/structural.ts). Numbers become JS
 * numbers (lossy: never use the result for §7.4 comparisons — use the tree).
 */
export function toPlain(v: JsonValue, ordinary = false): unknown {
  switch (v.kind) {
    case 'null':
      return null;
    case 'boolean':
    case 'string':
      return v.value;
    case 'number':
      return Number(v.lexeme);
    case 'array':
      return v.items.map((item) => toPlain(item, ordinary));
    case 'object': {
      const out = (ordinary ? {} : Object.create(null)) as Record<string, unknown>;
      for (const [name, value] of v.members) {
        // Assignment makes an own data property of every name but "__proto__", whose inherited setter on an ordinary
        // object would change the prototype instead: that one name is defined explicitly.
        if (name === '__proto__')
          Object.defineProperty(out, name, {
            value: toPlain(value, ordinary),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[name] = toPlain(value, ordinary);
      }
      return out;
    }
  }
}

/** Thrown for JavaScript data that has no JSON meaning (undefined, functions, NaN, cycles, …): a caller bug. */
export class NotJsonDataError extends TypeError {
  readonly code = 'not-json-data';
}

/**
 * Trusted JavaScript data → tree (for building tests and internal documents; untrusted bytes go through readJson).
 * Numbers get the lexeme `String(n)` (a valid RFC 8259 number for every finite double, e.g. "1e+21"); V charges are
 * those of the JSON.stringify serialization, which is the text this value would be carried as.
 */
export function fromPlain(x: unknown): JsonValue {
  return build(x, new Set<object>());
}

function build(x: unknown, seen: Set<object>): JsonValue {
  if (x === null) return JSON_NULL;
  switch (typeof x) {
    case 'boolean':
      return x ? JSON_TRUE : JSON_FALSE;
    case 'number': {
      if (!Number.isFinite(x)) throw new NotJsonDataError(`${x} has no JSON representation`);
      const lexeme = String(x);
      return { kind: 'number', lexeme, v: 1 + lexeme.length };
    }
    case 'string':
      return { kind: 'string', value: x, v: 1 + utf8ByteLength(JSON.stringify(x)) };
    case 'object': {
      if (seen.has(x)) throw new NotJsonDataError('cyclic data has no JSON representation');
      seen.add(x);
      try {
        if (Array.isArray(x)) {
          const items = x.map((item: unknown) => build(item, seen));
          return { kind: 'array', items, v: items.reduce((sum, item) => sum + 1 + item.v, 1) };
        }
        const proto: unknown = Object.getPrototypeOf(x);
        if (proto !== Object.prototype && proto !== null) {
          throw new NotJsonDataError('only arrays and plain objects have a JSON representation');
        }
        const names = Object.keys(x); // own enumerable string keys: unique by construction
        const values: JsonValue[] = [];
        let v = 1;
        for (const name of names) {
          const value = build((x as Record<string, unknown>)[name], seen);
          values.push(value);
          v += 1 + utf8ByteLength(name) + value.v;
        }
        return { kind: 'object', members: new MemberMap(names, values), v };
      } finally {
        seen.delete(x);
      }
    }
    default:
      throw new NotJsonDataError(`a ${typeof x} has no JSON representation`);
  }
}
