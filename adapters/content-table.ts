/**
 * Shared plumbing of the two content-addressed tables (pack registry, request archive): key layout (pk S / sk S,
 * see infra/names.ts), SHA-256 digests and the exact-bytes attribute. Bytes are stored as a binary attribute so what
 * comes back is exactly what went in; every read re-hashes them, so a tampered or corrupted item is refused, never
 * served (docs/adr/0062-content-addressed-tables.md).
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';

export type Item = Record<string, AttributeValue>;

/** The sort key attribute's name and the value each item family uses. */
export interface KeyLayout {
  readonly partitionKey: string;
  /** null for a table keyed by partition key alone. */
  readonly sortKey: string | null;
}

export const DEFAULT_KEY_LAYOUT: KeyLayout = Object.freeze({ partitionKey: 'pk', sortKey: 'sk' });

/** DynamoDB's item size limit is 400 KB including attribute names; keep a margin for the other attributes. */
export const MAX_STORED_BYTES = 400 * 1024 - 1024;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export const DIGEST_PATTERN = /^[0-9a-f]{64}$/;

export function key(layout: KeyLayout, pk: string, sk: string): Item {
  const k: Item = { [layout.partitionKey]: { S: pk } };
  if (layout.sortKey !== null) k[layout.sortKey] = { S: sk };
  return k;
}

export function notExistsCondition(layout: KeyLayout): { ConditionExpression: string; ExpressionAttributeNames: Record<string, string> } {
  return { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': layout.partitionKey } };
}

export function isConditionalFailure(e: unknown): boolean {
  return e instanceof ConditionalCheckFailedException || (e as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

export function bytesOf(item: Item, name: string): Uint8Array | undefined {
  const v = item[name];
  return v && v.B instanceof Uint8Array ? v.B : undefined;
}
