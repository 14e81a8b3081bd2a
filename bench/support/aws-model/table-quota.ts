/**
 * DynamoDB's table-level limits against a run's busiest second (docs/adr/0472-scale-model-cost-and-table-quota.md):
 *   - the default table quota: 40,000 read and 40,000 write request units per second per table (raisable through
 *     Service Quotas; requests above it are throttled);
 *   - an on-demand table's warm throughput: a new table serves 4,000 write and 12,000 read units per second at once;
 *     beyond that it serves up to double its previous peak, and throttling can occur if traffic exceeds double the
 *     previous peak within 30 minutes — so traffic alone takes one 30-minute doubling per factor of two. Pre-warming
 *     (warm throughput, UpdateTable, since November 2024) sets the instant level ahead of a launch.
 * The run itself models a warmed table: it reports what reaching its peak needs, it does not throttle the ramp.
 */
export const TABLE_QUOTA_UNITS_PER_SECOND = 40_000;
export const NEW_TABLE_WARM = Object.freeze({ wruPerSecond: 4_000, rruPerSecond: 12_000 });
export const DOUBLING_MINUTES = 30;

export interface TableLoad {
  readonly table: string;
  readonly wcuPerSecond: number;
  readonly rcuPerSecond: number;
}

export interface TableQuotaVerdict {
  readonly table: string;
  readonly peakWruPerSecond: number;
  readonly peakRruPerSecond: number;
  /** Above the default 40,000 units per second of either kind: a quota increase is needed. */
  readonly exceedsQuota: boolean;
  /** Above a new on-demand table's warm throughput: the table must be pre-warmed (or ramped). */
  readonly exceedsNewTableWarm: boolean;
  /** Doublings of the new-table level traffic alone needs to reach the peak, and their minutes. */
  readonly doublings: number;
  readonly rampMinutes: number;
}

const doublingsTo = (peak: number, warm: number): number =>
  peak <= warm ? 0 : Math.ceil(Math.log2(peak / warm) - 1e-12);

export function tableQuota(load: TableLoad): TableQuotaVerdict {
  const doublings = Math.max(
    doublingsTo(load.wcuPerSecond, NEW_TABLE_WARM.wruPerSecond),
    doublingsTo(load.rcuPerSecond, NEW_TABLE_WARM.rruPerSecond),
  );
  return {
    table: load.table,
    peakWruPerSecond: load.wcuPerSecond,
    peakRruPerSecond: load.rcuPerSecond,
    exceedsQuota: load.wcuPerSecond > TABLE_QUOTA_UNITS_PER_SECOND || load.rcuPerSecond > TABLE_QUOTA_UNITS_PER_SECOND,
    exceedsNewTableWarm: doublings > 0,
    doublings,
    rampMinutes: doublings * DOUBLING_MINUTES,
  };
}
