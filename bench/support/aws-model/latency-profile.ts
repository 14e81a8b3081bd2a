/**
 * The AWS scale model's latency profiles: one distribution per API the pipeline calls
 * (docs/adr/0470-calibrated-latency-profiles.md). `published` is what public measurements give (the default);
 * `optimistic` and `pessimistic` bracket it for the sensitivity table. The source of each `published` figure, or
 * that it is an assumption: docs/deploy.md "Latency profiles".
 */
import { quantileLatency, type LatencyShape } from './latency.js';

export const PROFILE_NAMES = ['optimistic', 'published', 'pessimistic'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface LatencyProfile {
  readonly name: ProfileName;
  /** DynamoDB GetItem or Query, strongly consistent, of ≤ 1 KB, round trip from a Lambda function. */
  readonly dynamoRead: LatencyShape;
  /** DynamoDB PutItem (conditional) of ≤ 1 KB. */
  readonly dynamoWrite: LatencyShape;
  /** Added per KB of item moved beyond the first (the item a write carries, the items a read returns). */
  readonly perKbMs: number;
  /** One SQS API call (SendMessageBatch, DeleteMessageBatch). */
  readonly sqsCall: LatencyShape;
  /** One SNS PublishBatch. */
  readonly snsPublish: LatencyShape;
  /** A message available on a standard queue → the handler runs with it (event source mapping poll + invoke). */
  readonly standardToHandler: LatencyShape;
  /** A FIFO message available (its group freed) → the handler runs with it: an idle poller's take included. */
  readonly fifoToHandler: LatencyShape;
  /** A new execution environment's init, paid once by each instance before its first invocation (scale-out). */
  readonly coldStart: LatencyShape;
}

export const PROFILES: Readonly<Record<ProfileName, LatencyProfile>> = Object.freeze({
  optimistic: {
    name: 'optimistic',
    // The model's previous single distribution (p50 4 / p99 15 ms for every call).
    dynamoRead: { p50Ms: 4, p99Ms: 15 },
    dynamoWrite: { p50Ms: 4, p99Ms: 15 },
    perKbMs: 0.1,
    sqsCall: { p50Ms: 4, p99Ms: 15 },
    snsPublish: { p50Ms: 4, p99Ms: 15 },
    // The published p10 as the median and p90 as the 99th percentile: the fast tenth of the measurements.
    standardToHandler: { p50Ms: 13.7, p99Ms: 33.8 },
    fifoToHandler: { p50Ms: 21.9, p99Ms: 61.2 },
    coldStart: { p50Ms: 100, p99Ms: 250 },
  },
  published: {
    name: 'published',
    // Mean ≈ 8.3 ms: a little under the published write.
    dynamoRead: { p50Ms: 7, p99Ms: 25 },
    // Mean ≈ 9.6 ms: the published ~10 ms average PutItem with keep-alive; p99 at the top of 10–20 ms typical ×1.5.
    dynamoWrite: { p50Ms: 8, p99Ms: 30 },
    perKbMs: 0.25,
    sqsCall: { p50Ms: 8, p99Ms: 30 },
    snsPublish: { p50Ms: 8, p99Ms: 30 },
    standardToHandler: { p10Ms: 13.7, p50Ms: 16.2, p90Ms: 33.8, p99Ms: 105 },
    fifoToHandler: { p10Ms: 21.9, p50Ms: 28.1, p90Ms: 61.2, p99Ms: 645 },
    coldStart: { p50Ms: 250, p99Ms: 800 },
  },
  pessimistic: {
    name: 'pessimistic',
    dynamoRead: { p50Ms: 10, p99Ms: 60 },
    dynamoWrite: { p50Ms: 12, p99Ms: 80 },
    perKbMs: 0.5,
    sqsCall: { p50Ms: 12, p99Ms: 80 },
    snsPublish: { p50Ms: 15, p99Ms: 100 },
    // The published p90 as the median, 1.5 × the published p99 as the 99th percentile.
    standardToHandler: { p50Ms: 33.8, p99Ms: 157.5 },
    fifoToHandler: { p50Ms: 61.2, p99Ms: 967.5 },
    coldStart: { p50Ms: 500, p99Ms: 1500 },
  },
});

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}

export type DynamoOp = 'read' | 'write';
export type QueueKind = 'standard' | 'fifo';

/** The latency of each modelled call, in ms: what a simulated instance waits for. */
export interface CallLatency {
  /** One DynamoDB round trip of ≤ 1 KB. */
  dynamo(op: DynamoOp): number;
  /** What `bytes` of item moved add to a DynamoDB call. */
  itemMs(bytes: number): number;
  sqs(): number;
  sns(): number;
  /** A message available → the handler runs with it. */
  toHandler(queue: QueueKind): number;
  coldStart(): number;
}

/** A profile's distributions, each drawing from the one seeded sequence `rand`. */
export function profileLatency(p: LatencyProfile, rand: () => number): CallLatency {
  const read = quantileLatency(p.dynamoRead, rand);
  const write = quantileLatency(p.dynamoWrite, rand);
  const sqs = quantileLatency(p.sqsCall, rand);
  const sns = quantileLatency(p.snsPublish, rand);
  const standard = quantileLatency(p.standardToHandler, rand);
  const fifo = quantileLatency(p.fifoToHandler, rand);
  const cold = quantileLatency(p.coldStart, rand);
  return {
    dynamo: (op) => (op === 'read' ? read() : write()),
    itemMs: (bytes) => p.perKbMs * Math.max(0, bytes / 1024 - 1),
    sqs,
    sns,
    toHandler: (queue) => (queue === 'fifo' ? fifo() : standard()),
    coldStart: cold,
  };
}

/** Every call the same `ms` (no size term, no cold start): for tests that count calls on the clock. */
export function fixedLatency(ms: number): CallLatency {
  return {
    dynamo: () => ms,
    itemMs: () => 0,
    sqs: () => ms,
    sns: () => ms,
    toHandler: () => ms,
    coldStart: () => 0,
  };
}
