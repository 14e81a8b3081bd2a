/**
 * The delivery stage's core: given a delivery job (core/pipeline/delivery-job.ts), deliver what the ledger holds at
 * the coordinates it names. Each named entry is read back strictly and must hold the named request; then the job's
 * batch marker (one item naming every entry's position, docs/adr/0498-batch-markers-replace-positions.md) is written,
 * and only then are the handoffs and notifications sent, in batch calls through the
 * outbox (docs/adr/0253-per-invocation-outbox.md), in ADR 0171's order. Positions before notifications:
 * a requester who has the notification can always get a receipt.
 *
 * The job is untrusted (a queue message): it can only make recorded entries be delivered again, under the same
 * handoff and notification ids. A job naming a seq that holds no entry, or another request's, delivers nothing.
 */
import { err, ok, type Result } from '../result.js';
import type { LedgerStore, StoredEntry } from '../ledger/store/store.js';
import { markPositions, type MarkerWriter } from '../ledger/write/mark-positions.js';
import type { DeliveryJob } from './delivery-job.js';
import { messagesOwed, type OwedMessages } from './fan-out.js';
import type { RouteQueueConfig } from './handoff-plan.js';
import { recordedFromStored, StoredEntryError } from './ledger-writer.js';
import { deliverOwed, type OutboxDeliveryError, type OutboxPorts } from './outbox.js';
import type { PackSource, RecordedEntry } from './ports.js';

export interface DeliverJobPorts {
  readonly store: Pick<LedgerStore, 'readEntries'> & MarkerWriter;
  readonly packs: PackSource;
  readonly outbox: OutboxPorts;
}

export interface DeliverJobError {
  /** `job-names-no-entry`: a named seq is empty or holds another request; `entry-unreadable`: its body is not an entry. */
  readonly code: 'job-names-no-entry' | 'entry-unreadable';
  readonly message: string;
}

export interface DeliveredJob {
  readonly entries: readonly RecordedEntry[];
  /** What each entry owed (by its index in the job): its handoffs and notification. */
  readonly fannedOut: readonly OwedMessages[];
  /** Entries (by their index in the job) not wholly delivered, and why; empty when every message went out. */
  readonly undelivered: ReadonlyMap<number, OutboxDeliveryError>;
}

/** Reads, places and delivers a job's entries. Store and pack errors throw (the job message is retried). */
export async function deliverJob(
  job: DeliveryJob,
  config: RouteQueueConfig,
  ports: DeliverJobPorts,
): Promise<Result<DeliveredJob, DeliverJobError>> {
  const read = await readNamed(job, ports.store);
  if (!read.ok) return read;
  const entries = read.value;
  await markPositions(ports.store, {
    logId: job.logId,
    positions: entries.map((e) => ({ seq: e.seq, requestId: e.entry.requestId })),
  });
  const fannedOut: OwedMessages[] = [];
  for (const e of entries) fannedOut.push(await messagesOwed(e, config, ports.packs));
  return ok({ entries, fannedOut, undelivered: await deliverOwed(fannedOut, ports.outbox) });
}

/** The named entries, read in runs of consecutive seqs (one read per run: a batch's entries share a bundle item). */
async function readNamed(
  job: DeliveryJob,
  store: Pick<LedgerStore, 'readEntries'>,
): Promise<Result<RecordedEntry[], DeliverJobError>> {
  const found = new Map<number, StoredEntry>();
  for (const [from, to] of runsOf(job.entries.map((e) => e.seq)))
    for await (const e of store.readEntries(job.logId, from, to)) if (e.seq >= from && e.seq <= to) found.set(e.seq, e);
  const out: RecordedEntry[] = [];
  for (const named of job.entries) {
    const stored = found.get(named.seq);
    if (stored === undefined || stored.logId !== job.logId || stored.projection.requestId !== named.requestId)
      return err({
        code: 'job-names-no-entry',
        message: `${job.logId}/${named.seq} holds no entry of request ${JSON.stringify(named.requestId)}`,
      });
    try {
      const recorded = recordedFromStored(stored);
      // The projection is the item's; the body is the signed text: both must name the request.
      if (recorded.entry.requestId !== named.requestId)
        return err({ code: 'job-names-no-entry', message: `${job.logId}/${named.seq}'s body is another request's` });
      out.push(recorded);
    } catch (e) {
      if (e instanceof StoredEntryError) return err({ code: 'entry-unreadable', message: e.message });
      throw e;
    }
  }
  return ok(out);
}

/** Ascending seqs → [from, to] runs of consecutive ones. */
function runsOf(seqs: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const s of seqs) {
    const last = runs.at(-1);
    if (last !== undefined && s === last[1] + 1) last[1] = s;
    else runs.push([s, s]);
  }
  return runs;
}
