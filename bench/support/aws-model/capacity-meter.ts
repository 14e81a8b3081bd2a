/**
 * Meters every DynamoDB call of the AWS scale model per table and partition key (units per dynamodb-capacity.ts),
 * enforces the per-key limits when asked, and keeps per-second totals per key, so the hottest key's peak second can
 * be read after the run.
 */
import { DYNAMODB_KEY_LIMITS, TokenBucket, type KeyLimits } from './dynamodb-capacity.js';

export type UnitKind = 'wcu' | 'rcu';

interface KeyUse {
  readonly table: string;
  readonly key: string;
  wcu: number;
  rcu: number;
  /** Units per whole virtual second since the start of the run. */
  readonly wcuBySecond: Map<number, number>;
  readonly rcuBySecond: Map<number, number>;
  writes?: TokenBucket;
  reads?: TokenBucket;
}

export interface HottestKey {
  readonly table: string;
  readonly key: string;
  /** The key's busiest whole second. */
  readonly unitsPerSecond: number;
}

export class CapacityMeter {
  private readonly keys = new Map<string, KeyUse>();
  /** `${table}\u0000${kind}` → units per whole virtual second, over all the table's keys. */
  private readonly tableBySecond = new Map<string, Map<number, number>>();
  /** Calls refused for the key's limit (each retry counted again). */
  throttled = 0;

  constructor(
    /** Enforce the per-key limits (`--throttle`); off, every call is admitted and only metered. */
    private readonly enforce: boolean,
    private readonly limits: KeyLimits = DYNAMODB_KEY_LIMITS,
  ) {}

  /** Charges `units` to (table, key) at `nowMs`; false when the key's limit refuses the call (nothing charged). */
  charge(table: string, key: string, kind: UnitKind, units: number, nowMs: number): boolean {
    const id = `${table}\u0000${key}`;
    let use = this.keys.get(id);
    if (use === undefined) {
      use = { table, key, wcu: 0, rcu: 0, wcuBySecond: new Map(), rcuBySecond: new Map() };
      this.keys.set(id, use);
    }
    if (this.enforce) {
      const bucket =
        kind === 'wcu'
          ? (use.writes ??= new TokenBucket(
              this.limits.wcuPerSecond,
              this.limits.burstSeconds,
              this.limits.initialSeconds,
              nowMs,
            ))
          : (use.reads ??= new TokenBucket(
              this.limits.rcuPerSecond,
              this.limits.burstSeconds,
              this.limits.initialSeconds,
              nowMs,
            ));
      if (!bucket.take(units, nowMs)) {
        this.throttled += 1;
        return false;
      }
    }
    const second = Math.floor(nowMs / 1000);
    const bySecond = kind === 'wcu' ? use.wcuBySecond : use.rcuBySecond;
    bySecond.set(second, (bySecond.get(second) ?? 0) + units);
    const tableId = `${table}\u0000${kind}`;
    let perTable = this.tableBySecond.get(tableId);
    if (perTable === undefined) this.tableBySecond.set(tableId, (perTable = new Map()));
    perTable.set(second, (perTable.get(second) ?? 0) + units);
    if (kind === 'wcu') use.wcu += units;
    else use.rcu += units;
    return true;
  }

  /** Units charged to a table (all keys). */
  total(table: string, kind: UnitKind): number {
    let n = 0;
    for (const u of this.keys.values()) if (u.table === table) n += kind === 'wcu' ? u.wcu : u.rcu;
    return n;
  }

  /**
   * The table's busiest whole second in [fromMs, toMs), all keys together: what DynamoDB's table quota and an
   * on-demand table's warm throughput are measured against (a run shorter than two seconds: its average).
   */
  tablePeak(table: string, kind: UnitKind, fromMs: number, toMs: number): number {
    const bySecond = this.tableBySecond.get(`${table}\u0000${kind}`);
    if (bySecond === undefined || !(toMs > fromMs)) return 0;
    const first = Math.ceil(fromMs / 1000);
    const last = Math.floor(toMs / 1000);
    if (last - first < 1 || toMs - fromMs < 2000)
      return ([...bySecond.values()].reduce((a, b) => a + b, 0) * 1000) / (toMs - fromMs);
    let peak = 0;
    for (const [s, units] of bySecond) if (s >= first && s < last && units > peak) peak = units;
    return peak;
  }

  /** Units charged to one key. */
  ofKey(table: string, key: string, kind: UnitKind): number {
    const u = this.keys.get(`${table}\u0000${key}`);
    return u === undefined ? 0 : kind === 'wcu' ? u.wcu : u.rcu;
  }

  /**
   * The key of `table` with the busiest second, over the seconds [fromMs, toMs) wholly covers (a run shorter than
   * two seconds is averaged over its length instead, so a partial second never reads as a whole one).
   */
  hottest(table: string, kind: UnitKind, fromMs: number, toMs: number): HottestKey {
    let best: HottestKey = { table, key: '', unitsPerSecond: 0 };
    const first = Math.ceil(fromMs / 1000);
    const last = Math.floor(toMs / 1000); // exclusive
    const whole = last - first >= 1 && toMs - fromMs >= 2000;
    for (const u of this.keys.values()) {
      if (u.table !== table) continue;
      const bySecond = kind === 'wcu' ? u.wcuBySecond : u.rcuBySecond;
      let peak = 0;
      if (whole) {
        for (const [s, units] of bySecond) if (s >= first && s < last && units > peak) peak = units;
      } else {
        let sum = 0;
        for (const units of bySecond.values()) sum += units;
        peak = toMs > fromMs ? (sum * 1000) / (toMs - fromMs) : 0;
      }
      if (peak > best.unitsPerSecond) best = { table, key: u.key, unitsPerSecond: peak };
    }
    return best;
  }
}
