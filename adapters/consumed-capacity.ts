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

/** Units consumed, in all and by table name (batch and transact calls name each table they touched). */
export interface ConsumedCapacityTotals extends ConsumedUnits {
  readonly tables: Readonly<Record<string, ConsumedUnits>>;
}

export interface CapacityMeter {
  /** The units consumed since the last drain (or since the meter was attached), and a fresh count from zero. */
  drain(): ConsumedCapacityTotals;
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
  readonly TableName?: string;
  readonly CapacityUnits?: number;
  readonly ReadCapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
}

/** The units of one answer by table: one ConsumedCapacity (single-item calls) or one per table (batch, transact). */
export function unitsByTable(consumed: unknown, kind: 'read' | 'write'): Map<string, number> {
  const list = Array.isArray(consumed) ? consumed : consumed === undefined || consumed === null ? [] : [consumed];
  const units = new Map<string, number>();
  for (const c of list as Capacity[]) {
    const own = kind === 'read' ? c?.ReadCapacityUnits : c?.WriteCapacityUnits;
    const n = typeof own === 'number' ? own : c?.CapacityUnits;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) continue;
    const table = typeof c?.TableName === 'string' ? c.TableName : '';
    units.set(table, (units.get(table) ?? 0) + n);
  }
  return units;
}

/**
 * Attaches the meter to `client`. Call it before the client's first request: clients built with `cacheMiddleware`
 * (adapters/aws-clients.ts) resolve each command's middleware once, at its first use.
 */
export function meterConsumedCapacity(client: DynamoDBClient): CapacityMeter {
  let tables = new Map<string, { read: number; write: number }>();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? '';
      const kind = READS.has(name) ? 'read' : WRITES.has(name) ? 'write' : undefined;
      if (kind === undefined) return next(args);
      const input = args.input as { ReturnConsumedCapacity?: string };
      // A caller that asked for INDEXES keeps it: its answer holds the total too.
      const unasked = input.ReturnConsumedCapacity === undefined || input.ReturnConsumedCapacity === 'NONE';
      const out = await next(unasked ? { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } } : args);
      for (const [table, n] of unitsByTable((out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity, kind)) {
        const t = tables.get(table) ?? { read: 0, write: 0 };
        t[kind] += n;
        tables.set(table, t);
      }
      return out;
    },
    { step: 'initialize', name: 'docketConsumedCapacity' },
  );
  return {
    drain() {
      const drained = tables;
      tables = new Map();
      let read = 0;
      let write = 0;
      for (const t of drained.values()) {
        read += t.read;
        write += t.write;
      }
      return { read, write, tables: Object.fromEntries(drained) };
    },
  };
}
