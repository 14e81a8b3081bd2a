/**
 * SCRATCH (docs/adr/0496-the-next-sequencer.md reruns it at tag `scale-model-kinesis-scratch`): one Kinesis shard
 * on the virtual clock, the server side of PutRecords and of the event source mapping's reads, for the sequencer
 * alternative "a Kinesis stream, one shard per log, parallelization factor 1".
 *   - A put record is stored in order; the shard accepts at most 1,000 records per second (the published write
 *     limit): a record beyond it is accepted in the next free millisecond (a paced approximation of a throttled put
 *     retried by its producer, which errs fast).
 *   - `visibleAt` is when the event source can have the record: at once for polling (the poll's own wait is the
 *     consumer's), after the push propagation for enhanced fan-out (the caller passes it).
 *   - One batch in flight per shard (parallelization factor 1): `take` hands out the next records from the
 *     checkpoint, `checkpoint` moves it past those handled; records after a failed one are handed out again.
 */
import type { VirtualClock } from './virtual-clock.js';

export interface StreamRecord {
  readonly body: string;
  readonly sequence: number;
  /** Put applied at the shard. */
  readonly storedAt: number;
  readonly visibleAt: number;
}

/** The published per-shard write limit (records per second). */
export const SHARD_RECORDS_PER_SECOND = 1000;

export class SimShard {
  private readonly records: StreamRecord[] = [];
  /** The next record to hand out (the checkpoint). */
  private next = 0;
  private lastAcceptedAt = -Infinity;
  private wakers: (() => void)[] = [];
  /** Records accepted per whole second: the shard's write load. */
  readonly perSecond = new Map<number, number>();

  constructor(private readonly clock: VirtualClock) {}

  /** Stores `body`; visible to the consumer `propagationMs` after the shard accepted it. */
  put(body: string, propagationMs: number): StreamRecord {
    const storedAt = Math.max(this.clock.now, this.lastAcceptedAt + 1000 / SHARD_RECORDS_PER_SECOND);
    this.lastAcceptedAt = storedAt;
    const r = { body, sequence: this.records.length, storedAt, visibleAt: storedAt + propagationMs };
    this.records.push(r);
    const second = Math.floor(storedAt / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    const wake = this.wakers;
    this.wakers = [];
    for (const w of wake) void this.clock.until(r.visibleAt).then(w);
    return r;
  }

  /** Records past the checkpoint visible now. */
  visible(): number {
    let n = 0;
    while (this.next + n < this.records.length && this.records[this.next + n]!.visibleAt <= this.clock.now) n++;
    return n;
  }

  /** Resolves once a record past the checkpoint is visible. */
  async untilVisible(): Promise<void> {
    for (;;) {
      if (this.visible() > 0) return;
      const pending = this.records[this.next];
      if (pending !== undefined) await this.clock.until(pending.visibleAt);
      else await new Promise<void>((wake) => this.wakers.push(wake));
    }
  }

  /** Up to `max` visible records from the checkpoint (not moved). */
  take(max: number): StreamRecord[] {
    return this.records.slice(this.next, this.next + Math.min(max, this.visible()));
  }

  /** Moves the checkpoint past `handled` records. */
  checkpoint(handled: number): void {
    this.next += handled;
  }

  /** Records accepted in all. */
  perSecondTotal(): number {
    return this.records.length;
  }

  /** The busiest second's accepted records. */
  peakRecordsPerSecond(): number {
    return Math.max(0, ...this.perSecond.values());
  }
}
