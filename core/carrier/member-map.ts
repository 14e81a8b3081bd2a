/**
 * The members of a JSON object: a read-only Map in authored order, stored compactly.
 *
 * Objects dominate the heap of a read document, and a V8 Map costs about 300 bytes for five members (hash table
 * plus entries). Most JSON objects are small, so MemberMap keeps two parallel arrays and looks names up linearly up
 * to LINEAR_LIMIT members (as fast as hashing at that size), adding a Map index only above it. Lookups compare
 * own data only — there is no prototype chain anywhere — so "__proto__" or "constructor" are ordinary names.
 * Rationale and measurements: docs/adr/0014-compact-member-maps.md.
 */
import type { JsonValue } from './json-value.js';

/** Up to this many members, a lookup is a linear scan; above it, a Map index is built once. */
export const LINEAR_LIMIT = 8;

export class MemberMap implements ReadonlyMap<string, JsonValue> {
  readonly #names: string[];
  readonly #values: JsonValue[];
  #index: Map<string, number> | undefined;

  /** Takes ownership of the arrays; names must be unique (the reader and fromPlain guarantee it). */
  constructor(names: string[], values: JsonValue[], index?: Map<string, number>) {
    this.#names = names;
    this.#values = values;
    this.#index = index ?? (names.length > LINEAR_LIMIT ? indexOf(names) : undefined);
  }

  get size(): number {
    return this.#names.length;
  }

  get(name: string): JsonValue | undefined {
    const at = this.#find(name);
    return at < 0 ? undefined : this.#values[at];
  }

  has(name: string): boolean {
    return this.#find(name) >= 0;
  }

  #find(name: string): number {
    if (this.#index !== undefined) return this.#index.get(name) ?? -1;
    const names = this.#names;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return i;
    return -1;
  }

  forEach(
    callback: (value: JsonValue, name: string, map: ReadonlyMap<string, JsonValue>) => void,
    thisArg?: unknown,
  ): void {
    for (let i = 0; i < this.#names.length; i++) callback.call(thisArg, this.#values[i]!, this.#names[i]!, this);
  }

  *entries(): MapIterator<[string, JsonValue]> {
    for (let i = 0; i < this.#names.length; i++) yield [this.#names[i]!, this.#values[i]!];
  }

  *keys(): MapIterator<string> {
    yield* this.#names;
  }

  *values(): MapIterator<JsonValue> {
    yield* this.#values;
  }

  [Symbol.iterator](): MapIterator<[string, JsonValue]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'MemberMap';
  }
}

export function indexOf(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < names.length; i++) index.set(names[i]!, i);
  return index;
}
