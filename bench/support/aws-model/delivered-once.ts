/**
 * The scale model's check that every recorded entry was delivered, and once: the ids each handoff and notification
 * carried when the queue or topic applied it, against the ids the real fan-out (core/pipeline/fan-out.ts `messagesOwed`) derives
 * from each stored entry. An id may arrive twice only for a request whose message or delivery job was really
 * redelivered (a receive count above one): that is the at-least-once SQS gives, and the ids let consumers dedupe.
 */
import type { LedgerStore } from '../../../core/ledger/store/store.js';
import { messagesOwed } from '../../../core/pipeline/fan-out.js';
import type { RouteQueueConfig } from '../../../core/pipeline/handoff-plan.js';
import { recordedFromStored } from '../../../core/pipeline/ledger-writer.js';
import type { PackSource } from '../../../core/pipeline/ports.js';

export interface DeliveredOnceVerdict {
  /** Every expected id arrived, nothing unexpected did, and every repeat belongs to a redelivered request. */
  readonly ok: boolean;
  /** Expected handoffs and notifications that never arrived. */
  readonly missing: number;
  /** Arrivals beyond the first, all from redeliveries when `ok`. */
  readonly repeats: number;
  /** Repeats of a request nothing redelivered: a delivery the protocol made twice on its own. */
  readonly unexplainedRepeats: number;
  /** Ids that arrived but no stored entry owes. */
  readonly unexpected: number;
}

export class DeliveryTally {
  /** Id → times applied. */
  private readonly seen = new Map<string, number>();
  private readonly redelivered = new Set<string>();

  applied(id: string): void {
    this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
  }

  /** A request whose message (intake, ledger queue) or delivery job was received more than once. */
  redeliveredRequest(requestId: string): void {
    this.redelivered.add(requestId);
  }

  /** Judges the arrivals against what the stored entries of `logIds` owe. */
  async verdict(
    store: LedgerStore,
    logIds: readonly string[],
    config: RouteQueueConfig,
    packs: PackSource,
  ): Promise<DeliveredOnceVerdict> {
    /** Id → the request whose entry owes it. */
    const expected = new Map<string, string>();
    for (const logId of logIds)
      for await (const stored of store.readEntries(logId, 0)) {
        const recorded = recordedFromStored(stored);
        const owed = await messagesOwed(recorded, config, packs);
        for (const id of [...owed.handoffs.map((h) => h.handoffId), owed.notification.id])
          expected.set(id, recorded.entry.requestId);
      }
    let missing = 0;
    let repeats = 0;
    let unexplainedRepeats = 0;
    let unexpected = 0;
    for (const id of expected.keys()) if (!this.seen.has(id)) missing += 1;
    for (const [id, times] of this.seen) {
      const requestId = expected.get(id);
      if (requestId === undefined) unexpected += 1;
      repeats += times - 1;
      if (times > 1 && (requestId === undefined || !this.redelivered.has(requestId))) unexplainedRepeats += times - 1;
    }
    return {
      ok: missing === 0 && unexpected === 0 && unexplainedRepeats === 0 && expected.size > 0,
      missing,
      repeats,
      unexplainedRepeats,
      unexpected,
    };
  }
}
