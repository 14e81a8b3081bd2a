/**
 * Meters every DynamoDB call of the AWS scale model per table and partition key (units per dynamodb-capacity.ts),
 * enforces the per-key limits when asked, and keeps per-second totals per key, so the hottest key's peak second can
 * be read after the run.
 */
import { DYNAMODB_KEY_LIMITS, TokenBucket } from './dynamodb-capacity.js';

export type UnitKind = 'wcu' | 'rcu';

interface KeyUse {
  readonly table: string;
  readonly key: string;
  readonly units: Record<UnitKind, number>;
  /** Units per whole virtual second since the start of the run. */
  readonly bySecond: Record<UnitKind, Map<number, number>>;
  readonly buckets: Partial<Record<UnitKind, TokenBucket>>;
}

export interface HottestKey {
  readonly table: string;
  readonly key: string;
  /** The key's busiest whole second. */
  readonly unitsPerSecond: number;
}

/**
 * The busiest whole second of `bySecond` among those [fromMs, toMs) wholly covers (a run shorter than two seconds is
 * averaged over its length instead, so a partial second never reads as a whole one).
 */
function peakPerSecond(bySecond: ReadonlyMap<number, number>, fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) return 0;
  const first = Math.ceil(fromMs / 1000);
  const last = Math.floor(toMs / 1000); // exclusive
  if (last - first < 1 || toMs - fromMs < 2000)
    return ([...bySecond.values()].reduce((a, b) => a + b, 0) * 1000) / (toMs - fromMs);
  let peak = 0;
  for (const [s, units] of bySecond) if (s >= first && s < last && units > peak) peak = units;
  return peak;
}

export class CapacityMeter {
  private readonly keys = new Map<string, KeyUse>();
  /** `${table}\u0000${kind}` → units per whole virtual second, over all the table's keys. */
  private readonly tableBySecond = new Map<string, Map<number, number>>();
  /** Calls refused for the key's limit (each retry counted again). */
  throttled = 0;

  /** `enforce`: the per-key limits (`--throttle`); off, every call is admitted and only metered. */
  constructor(private readonly enforce: boolean) {}

  /** Charges `units` to (table, key) at `nowMs`; false when the key's limit refuses the call (nothing charged). */
  charge(table: string, key: string, kind: UnitKind, units: number, nowMs: number): boolean {
    const id = `${table}\u0000${key}`;
    let use = this.keys.get(id);
    if (use === undefined) {
      const bySecond = { wcu: new Map(), rcu: new Map() };
      this.keys.set(id, (use = { table, key, units: { wcu: 0, rcu: 0 }, bySecond, buckets: {} }));
    }
    if (this.enforce) {
      const l = DYNAMODB_KEY_LIMITS;
      const perSecond = kind === 'wcu' ? l.wcuPerSecond : l.rcuPerSecond;
      const bucket = (use.buckets[kind] ??= new TokenBucket(perSecond, l.burstSeconds, l.initialSeconds, nowMs));
      if (!bucket.take(units, nowMs)) {
        this.throttled += 1;
        return false;
      }
    }
    const second = Math.floor(nowMs / 1000);
    const tableId = `${table}\u0000${kind}`;
    if (!this.tableBySecond.has(tableId)) this.tableBySecond.set(tableId, new Map());
    for (const bySecond of [use.bySecond[kind], this.tableBySecond.get(tableId)!])
      bySecond.set(second, (bySecond.get(second) ?? 0) + units);
    use.units[kind] += units;
    return true;
  }

  /** Units charged to a table (all keys). */
  total(table: string, kind: UnitKind): number {
    let n = 0;
    for (const u of this.keys.values()) if (u.table === table) n += u.units[kind];
    return n;
  }

  /** The table's busiest whole second, all keys together: what DynamoDB's table quota and warm throughput measure. */
  tablePeak(table: string, kind: UnitKind, fromMs: number, toMs: number): number {
    const bySecond = this.tableBySecond.get(`${table}\u0000${kind}`);
    return bySecond === undefined ? 0 : peakPerSecond(bySecond, fromMs, toMs);
  }

  /** Units charged to one key. */
  ofKey(table: string, key: string, kind: UnitKind): number {
    return this.keys.get(`${table}\u0000${key}`)?.units[kind] ?? 0;
  }

  /** The key of `table` with the busiest whole second (peakPerSecond). */
  hottest(table: string, kind: UnitKind, fromMs: number, toMs: number): HottestKey {
    let best: HottestKey = { table, key: '', unitsPerSecond: 0 };
    for (const u of this.keys.values()) {
      if (u.table !== table) continue;
      const peak = peakPerSecond(u.bySecond[kind], fromMs, toMs);
      if (peak > best.unitsPerSecond) best = { table, key: u.key, unitsPerSecond: peak };
    }
    return best;
  }
}
