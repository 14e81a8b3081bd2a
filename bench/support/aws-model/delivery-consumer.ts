/**
 * The delivery stage's consumer in the AWS scale model: one simulated Lambda execution environment of the function
 * a standard SQS queue of delivery jobs (core/pipeline/delivery-job.ts) feeds through its event source mapping. It
 * receives up to ten jobs, is invoked, runs the real `deliverJob` (core/pipeline/deliver-job.ts) for each job at once
 * over the modelled ledger store (its reads and position writes metered and throttled like the evaluate function's),
 * then deletes in one call the jobs that were wholly delivered; any other job stays in flight until the visibility
 * timeout returns it. Its own CPU (reading back ≤ 10 entries a job) is not modelled: small beside its calls.
 */
import { deliverJob } from '../../../core/pipeline/deliver-job.js';
import { readDeliveryJob } from '../../../core/pipeline/delivery-job.js';
import type { RouteQueueConfig } from '../../../core/pipeline/handoff-plan.js';
import type { OutboxPorts } from '../../../core/pipeline/outbox.js';
import type { PackSource } from '../../../core/pipeline/ports.js';
import type { ModelledLedgerStore } from './modelled-ledger-store.js';
import type { SimQueue, QueuedMessage } from './sqs-queue.js';
import type { VirtualClock } from './virtual-clock.js';

/** The stage's own counts over a run. */
export interface DeliveryCounts {
  /** Jobs the evaluate side sent (a redelivered batch sends its jobs again). */
  jobsSent: number;
  /** Jobs `deliverJob` delivered wholly, then deleted. */
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
  /** The event source mapping's invoke, as long as the evaluate function's. */
  readonly invokeMs: () => number;
  readonly store: ModelledLedgerStore;
  readonly packs: PackSource;
  readonly outbox: OutboxPorts;
  readonly config: RouteQueueConfig;
  readonly counts: DeliveryCounts;
  /** Told of the request ids of a job received more than once. */
  readonly redelivered: (requestId: string) => void;
}

const enc = new TextEncoder();

/** Polls the job queue forever: receive ≤ 10 jobs, be invoked, deliver each at once, delete the delivered ones. */
export async function consumeDeliveryJobs(p: DeliveryConsumerParts): Promise<never> {
  for (;;) {
    // Counted once answered: a long poll still waiting when the run ends took no job.
    const messages = await p.sqs(async () => {
      const got = await p.queue.receive(p.batchSize);
      p.counts.sqsCalls += 1;
      return got;
    });
    await p.clock.sleep(p.invokeMs());
    const invoked = p.clock.now;
    const done = await Promise.all(messages.map((m) => deliverOne(p, m)));
    p.counts.invocations += 1;
    p.counts.invokedMs += p.clock.now - invoked;
    const delivered = messages.filter((_m, i) => done[i]);
    if (delivered.length > 0)
      await p.sqs(() => {
        p.counts.sqsCalls += 1;
        p.queue.delete(delivered);
      });
  }
}

/** True when the job is done with (delivered, or refused for good); false leaves it to be redelivered. */
async function deliverOne(p: DeliveryConsumerParts, m: QueuedMessage): Promise<boolean> {
  const job = readDeliveryJob(enc.encode(m.body));
  if (!job.ok) {
    p.counts.jobsRefused += 1;
    return true;
  }
  if (m.receiveCount > 1) for (const e of job.value.entries) p.redelivered(e.requestId);
  try {
    const out = await deliverJob(job.value, p.config, { store: p.store, packs: p.packs, outbox: p.outbox });
    if (!out.ok) {
      p.counts.jobsRefused += 1;
      return true;
    }
    if (out.value.undelivered.size > 0) return false;
    p.counts.jobsDelivered += 1;
    return true;
  } catch {
    // A store call that failed after the SDK's retries: the job is retried after the visibility timeout.
    return false;
  }
}
