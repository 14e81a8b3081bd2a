/**
 * Where a handoff consumer records the handoff ids it handled (docs/pipeline.md "Verifying a handoff": a genuine
 * message re-sent is indistinguishable from redelivery, so consumers deduplicate on `handoffId`, ADR 0074;
 * docs/adr/0443-handoff-consumer-claims-before-it-handles.md). A claim is taken before `handle` runs and is either
 * completed (the id is then `done` for good) or released (a failed handling is retried). A claim left by a crashed
 * invocation lapses after its lease, so the handoff is handled again rather than lost: at least once, never zero.
 *
 * Two stores: in memory (one Lambda execution environment; the default, for tests and a single container) and a
 * DynamoDB table with conditional writes (the production choice: every concurrent invocation shares it).
 */
import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

/** `new`: this caller handles it now. `done`: handled before, acknowledge. `in-progress`: another caller holds it. */
export type ClaimOutcome = 'new' | 'done' | 'in-progress';

export interface SeenHandoffs {
  /** Claims `handoffId` at `nowMs` (epoch milliseconds). */
  claim(handoffId: string, nowMs: number): Promise<ClaimOutcome>;
  /** The claimed handoff was handled: later claims answer `done`. */
  complete(handoffId: string, nowMs: number): Promise<void>;
  /** The claimed handoff's handling failed: the next claim answers `new`. */
  release(handoffId: string): Promise<void>;
}

/** How long a claim holds before another caller may take it over (default 15 minutes: Lambda's longest run). */
export const DEFAULT_LEASE_SECONDS = 900;

/** A Map in this process: handled ids are kept up to `maxEntries` (oldest forgotten first). */
export function memorySeenHandoffs(
  options: { readonly leaseSeconds?: number; readonly maxEntries?: number } = {},
): SeenHandoffs {
  const lease = (options.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
  const max = options.maxEntries ?? 100_000;
  const ids = new Map<string, { state: 'in-progress' | 'done'; until: number }>();
  return {
    async claim(id, now) {
      const held = ids.get(id);
      if (held?.state === 'done') return 'done';
      if (held !== undefined && held.until > now) return 'in-progress';
      ids.delete(id);
      ids.set(id, { state: 'in-progress', until: now + lease });
      if (ids.size > max) ids.delete(ids.keys().next().value as string);
      return 'new';
    },
    async complete(id) {
      ids.set(id, { state: 'done', until: Infinity });
    },
    async release(id) {
      if (ids.get(id)?.state === 'in-progress') ids.delete(id);
    },
  };
}

export interface DynamoDbSeenOptions {
  readonly client: DynamoDBClient;
  /** A table whose partition key is the string attribute `handoffId` (enable TTL on `expiresAt` to age ids out). */
  readonly tableName: string;
  readonly leaseSeconds?: number;
  /** How long a handled id is kept (the `expiresAt` TTL attribute, epoch seconds); default 14 days, SQS's longest retention. */
  readonly keepSeconds?: number;
}

const isConditionalFailure = (e: unknown): boolean =>
  e instanceof ConditionalCheckFailedException ||
  (e as { name?: string } | null)?.name === 'ConditionalCheckFailedException';

/**
 * One item per handoff id: `state` `in-progress` with `leaseUntil`, then `done`. The claim is a conditional put
 * (absent, or an in-progress claim whose lease has passed); completion and release are conditional on the claim
 * still being in progress, so a lapsed claim taken over by another caller is not disturbed.
 */
export function dynamoDbSeenHandoffs(o: DynamoDbSeenOptions): SeenHandoffs {
  const lease = o.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const keep = o.keepSeconds ?? 14 * 24 * 3600;
  const seconds = (ms: number): number => Math.floor(ms / 1000);
  const key = (id: string) => ({ handoffId: { S: id } });
  return {
    async claim(id, now) {
      try {
        await o.client.send(
          new PutItemCommand({
            TableName: o.tableName,
            Item: {
              ...key(id),
              state: { S: 'in-progress' },
              leaseUntil: { N: String(seconds(now) + lease) },
              expiresAt: { N: String(seconds(now) + keep) },
            },
            ConditionExpression: 'attribute_not_exists(handoffId) OR (#s = :p AND leaseUntil < :now)',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: { ':p': { S: 'in-progress' }, ':now': { N: String(seconds(now)) } },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return 'new';
      } catch (e) {
        if (!isConditionalFailure(e)) throw e;
        // The item that failed the condition, as DynamoDB returns it; an emulator without
        // ReturnValuesOnConditionCheckFailure (dynalite) returns none, so it is then read.
        const old =
          (e as { Item?: Record<string, { S?: string }> }).Item ??
          (await o.client.send(new GetItemCommand({ TableName: o.tableName, Key: key(id), ConsistentRead: true })))
            .Item;
        return old?.state?.S === 'done' ? 'done' : 'in-progress';
      }
    },
    async complete(id, now) {
      await o.client.send(
        new UpdateItemCommand({
          TableName: o.tableName,
          Key: key(id),
          UpdateExpression: 'SET #s = :d, expiresAt = :e REMOVE leaseUntil',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':d': { S: 'done' }, ':e': { N: String(seconds(now) + keep) } },
        }),
      );
    },
    async release(id) {
      try {
        await o.client.send(
          new DeleteItemCommand({
            TableName: o.tableName,
            Key: key(id),
            ConditionExpression: '#s = :p',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: { ':p': { S: 'in-progress' } },
          }),
        );
      } catch (e) {
        if (!isConditionalFailure(e)) throw e;
      }
    },
  };
}
