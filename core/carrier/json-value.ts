/**
 * The strict carrier's value tree (Core §2.1). JSON.parse is not used anywhere on untrusted input: it keeps the last
 * duplicate member, accepts lone surrogates and loses number spelling.
 *
 * Every node records `v`, the RFC 0008 "Limit accounting" V(value) charge computed from its exact source tokens
 * while it was read, so the work meter can price a selected value without re-reading it:
 *   V(scalar) = 1 + byteLength(exact source token)            (a string's quotes and escapes as written)
 *   V(array)  = 1 + elementCount + Σ V(element)
 *   V(object) = 1 + memberCount + Σ (byteLength(decoded member name, UTF-8) + V(value))
 * Objects are Maps so member names such as "__proto__" and "constructor" are ordinary data and never reach a
 * prototype chain; insertion (authored) order is kept for display only.
 */
export type JsonValue = JsonNull | JsonBoolean | JsonNumber | JsonString | JsonArray | JsonObject;

export interface JsonNull {
  readonly kind: 'null';
  readonly v: number;
}
export interface JsonBoolean {
  readonly kind: 'boolean';
  readonly value: boolean;
  readonly v: number;
}
/** A number keeps its exact lexeme; its mathematical value is compared from the lexeme (core/carrier/exact-number.ts). */
export interface JsonNumber {
  readonly kind: 'number';
  readonly lexeme: string;
  readonly v: number;
}
export interface JsonString {
  readonly kind: 'string';
  readonly value: string;
  readonly v: number;
}
export interface JsonArray {
  readonly kind: 'array';
  readonly items: readonly JsonValue[];
  readonly v: number;
}
export interface JsonObject {
  readonly kind: 'object';
  readonly members: ReadonlyMap<string, JsonValue>;
  readonly v: number;
}
