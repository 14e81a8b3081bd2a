/**
 * The capacity units a DynamoDB client's calls consume, as the table reports them: a middleware that asks every
 * operation that can answer it for `ReturnConsumedCapacity: TOTAL` and sums the units returned, reads and writes apart
 * (docs/deploy.md "Observe it"; docs/adr/0481-live-check-reads-the-functions-own-metrics.md). The functions drain the
 * meter once per invocation into their metrics, so the sum of what they publish is every unit their calls consumed.
 *
 * A call that fails (a conditional write refused with ConditionalCheckFailedException, a throttled call) reports no
 * units in its error, on AWS as on the emulator: the meter counts the units of calls that succeeded.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface ConsumedUnits {
  readonly read: number;
  readonly write: number;
}

export interface CapacityMeter {
  /** The units consumed since the last drain (or since the meter was attached), and a fresh count from zero. */
  drain(): ConsumedUnits;
}

/** Operations that take ReturnConsumedCapacity, by the capacity they consume. */
const READS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

interface Capacity {
  readonly CapacityUnits?: number;
  readonly ReadCapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
}

/** The units of one answer: one ConsumedCapacity (single-item calls) or one per table (batch and transact calls). */
export function unitsOf(consumed: unknown, kind: 'read' | 'write'): number {
  const list = Array.isArray(consumed) ? consumed : consumed === undefined || consumed === null ? [] : [consumed];
  let units = 0;
  for (const c of list as Capacity[]) {
    const own = kind === 'read' ? c?.ReadCapacityUnits : c?.WriteCapacityUnits;
    const n = typeof own === 'number' ? own : c?.CapacityUnits;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) units += n;
  }
  return units;
}

/**
 * Attaches the meter to `client`. Call it before the client's first request: clients built with `cacheMiddleware`
 * (adapters/aws-clients.ts) resolve each command's middleware once, at its first use.
 */
export function meterConsumedCapacity(client: DynamoDBClient): CapacityMeter {
  let read = 0;
  let write = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? '';
      const kind = READS.has(name) ? 'read' : WRITES.has(name) ? 'write' : undefined;
      if (kind === undefined) return next(args);
      const input = args.input as { ReturnConsumedCapacity?: string };
      // A caller that asked for INDEXES keeps it: its answer holds the total too.
      const unasked = input.ReturnConsumedCapacity === undefined || input.ReturnConsumedCapacity === 'NONE';
      const out = await next(unasked ? { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } } : args);
      const units = unitsOf((out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity, kind);
      if (kind === 'read') read += units;
      else write += units;
      return out;
    },
    { step: 'initialize', name: 'docketConsumedCapacity' },
  );
  return {
    drain() {
      const d = { read, write };
      read = 0;
      write = 0;
      return d;
    },
  };
}
