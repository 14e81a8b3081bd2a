/**
 * The delivery stage's consumer in the AWS scale model: one simulated Lambda execution environment of the function
 * a standard SQS queue of delivery jobs (core/pipeline/delivery-job.ts) feeds through its event source mapping. It
 * takes up to ten jobs, is invoked with them as an SQS event (the profile's standard queue → handler time), runs the
 * deployed handler's runtime (functions/lib/deliver-runtime.ts `createDeliverRuntime`: each job at once through
 * deliverJob) over the modelled ledger store (its reads and position writes metered and throttled like the evaluate
 * function's), then deletes in one call the jobs it did not report failed; any other job stays in flight until the
 * visibility timeout returns it. Its own CPU (reading back a job's entries, one bundle of ≤ 64: ADR 0506) is not
 * modelled: small beside its calls.
 */
import { createDeliverRuntime } from '../../../functions/lib/deliver-runtime.js';
import type { RouteQueueConfig } from '../../../core/pipeline/handoff-plan.js';
import type { OutboxPorts } from '../../../core/pipeline/outbox.js';
import type { PackSource } from '../../../core/pipeline/ports.js';
import type { ModelledLedgerStore } from './modelled-ledger-store.js';
import { sqsEvent, type SimQueue } from './sqs-queue.js';
import type { VirtualClock } from './virtual-clock.js';

/** The stage's own counts over a run. */
export interface DeliveryCounts {
  /** Jobs the evaluate side sent (a redelivered batch sends its jobs again). */
  jobsSent: number;
  /** Jobs the runtime delivered wholly, then deleted. */
  jobsDelivered: number;
  /** Jobs refused: unreadable, or naming a seq that holds no entry of the named request. None is expected. */
  jobsRefused: number;
  /** The job's SQS calls: the evaluate side's SendMessageBatch, the consumer's receives (answered) and deletes. */
  sqsCalls: number;
  /** Consumer invocations, and their summed duration (invoked → every job of it settled), ms: Lambda's bill. */
  invocations: number;
  invokedMs: number;
}

export const noDeliveryCounts = (): DeliveryCounts => ({
  jobsSent: 0,
  jobsDelivered: 0,
  jobsRefused: 0,
  sqsCalls: 0,
  invocations: 0,
  invokedMs: 0,
});

export interface DeliveryConsumerParts {
  readonly clock: VirtualClock;
  readonly queue: SimQueue;
  readonly batchSize: number;
  /** An SQS call from this consumer: half a latency there, the queue's answer, half a latency back. */
  readonly sqs: <T>(serve: () => T | Promise<T>) => Promise<T>;
  /** Told of each receive that took jobs (one ReceiveMessage call). */
  readonly received: () => void;
  /** Jobs taken → the handler runs with them: the event source mapping's poll + invoke (a cold start first). */
  readonly pickUpMs: () => number;
  readonly store: ModelledLedgerStore;
  readonly packs: PackSource;
  readonly outbox: OutboxPorts;
  readonly config: RouteQueueConfig;
  readonly counts: DeliveryCounts;
  /** Told of the request ids of a job received more than once. */
  readonly redelivered: (requestId: string) => void;
}

/** Polls the job queue forever: receive ≤ 10 jobs, be invoked, deliver each at once, delete the delivered ones. */
export async function consumeDeliveryJobs(p: DeliveryConsumerParts): Promise<never> {
  // The deliver function's runtime over the model: refused jobs are counted (none is expected) and dropped.
  const runtime = createDeliverRuntime({
    config: p.config,
    ports: { store: p.store, packs: p.packs, outbox: p.outbox },
    deadLetter: async () => undefined,
    observer: {
      delivered: (record, job) => {
        p.counts.jobsDelivered += 1;
        if (record.receiveCount > 1) for (const e of job.entries) p.redelivered(e.requestId);
      },
      refused: () => void (p.counts.jobsRefused += 1),
      failed: () => undefined,
      flush: () => undefined,
    },
  });
  for (;;) {
    // The event source's pollers long-poll: jobs are taken as they arrive. Counted once answered: a long poll still
    // waiting when the run ends took no job.
    const messages = await p.queue.receive(p.batchSize);
    p.counts.sqsCalls += 1;
    p.received();
    await p.clock.sleep(p.pickUpMs());
    const invoked = p.clock.now;
    const answer = await runtime.handle(sqsEvent(messages));
    p.counts.invocations += 1;
    p.counts.invokedMs += p.clock.now - invoked;
    const failed = new Set(answer.batchItemFailures.map((f) => f.itemIdentifier));
    const delivered = messages.filter((m) => !failed.has(m.messageId));
    if (delivered.length > 0)
      await p.sqs(() => {
        p.counts.sqsCalls += 1;
        p.queue.delete(delivered);
      });
  }
}
