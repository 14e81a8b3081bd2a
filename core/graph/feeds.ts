/**
 * Fact and evidence feeds (A2, A3, A7, B2): writing a value at an RFC 6901 pointer of a node's facts, creating
 * missing intermediates as objects only and never overwriting; and the caller-collision check, decided from the
 * declared feeds and the supplied inputs alone, before any node runs (A7, RFC 0002:55-62).
 */
import { utf8ByteLength, type JsonObject, type JsonValue } from '../carrier/index.js';

/**
 * An object node with its RFC 0008 V charge computed as the carrier computes it while reading (core/carrier/
 * json-value.ts): V(object) = 1 + memberCount + Σ (byteLength(name) + V(value)). Untouched subtrees keep the charges
 * of their source tokens, so a node is charged for the caller's facts exactly as a single evaluation of them is.
 */
function objectOf(members: Map<string, JsonValue>): JsonObject {
  let v = 1 + members.size;
  for (const [name, value] of members) v += utf8ByteLength(name) + value.v;
  return { kind: 'object', members, v };
}

/** A string node as the carrier reads its minimal JSON text: V = 1 + byteLength(token). */
export const stringValue = (s: string): JsonValue => ({
  kind: 'string',
  value: s,
  v: 1 + utf8ByteLength(JSON.stringify(s)),
});

/** Why a pointer cannot take a feed in this document, or undefined when it can (A7 "callerCollision"). */
export function collision(root: JsonValue, tokens: readonly string[]): string | undefined {
  if (root.kind !== 'object') return 'the node facts are not an object';
  let node: JsonObject = root;
  for (let i = 0; i < tokens.length; i++) {
    const next = node.members.get(tokens[i]!);
    if (next === undefined) return undefined;
    if (i === tokens.length - 1) return 'the caller already supplies a value there';
    if (next.kind !== 'object') return 'an intermediate value is not an object';
    node = next;
  }
  return 'the pointer names the whole document';
}

/** A shallow copy of an object's members; forEach, not `new Map(iterable)`, whose iterator protocol costs more. */
function copyOf(members: ReadonlyMap<string, JsonValue>): Map<string, JsonValue> {
  const copy = new Map<string, JsonValue>();
  members.forEach((value, name) => copy.set(name, value));
  return copy;
}

/** Thrown when a feed meets a value the static and collision checks promised absent: a bug, never input. */
export class FeedInvariantError extends Error {
  override readonly name = 'FeedInvariantError';
  readonly code = 'feed-invariant';
}

/**
 * A copy of `root` (an object) with `value` at `tokens`, sharing every untouched subtree. Arrays are never traversed
 * and a numeric token names an object member (A2).
 */
export function inject(root: JsonValue, tokens: readonly string[], value: JsonValue, at = 0): JsonObject {
  if (root.kind !== 'object') throw new FeedInvariantError('a fed document is not an object');
  const members = copyOf(root.members);
  const token = tokens[at]!;
  const existing = members.get(token);
  if (at === tokens.length - 1) {
    if (existing !== undefined) throw new FeedInvariantError('a feed would overwrite a value');
    members.set(token, value);
  } else {
    members.set(token, inject(existing ?? objectOf(new Map()), tokens, value, at + 1));
  }
  return objectOf(members);
}

/** The evidence document of a node: its caller's own object with the feeds' contributions added (A2). */
export function withEvidence(base: JsonObject | undefined, add: ReadonlyMap<string, JsonValue>): JsonObject {
  const members = base === undefined ? new Map<string, JsonValue>() : copyOf(base.members);
  for (const [id, state] of add) members.set(id, state);
  return objectOf(members);
}
