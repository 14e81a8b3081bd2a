/**
 * The delivery stage's outbox (docs/adr/0253-per-invocation-outbox.md; docs/pipeline.md "Handoffs"): what a job's
 * entries owe (fan-out.ts) is delivered in batch calls — first every handoff, grouped by queue in entry and
 * declaration order, then the notifications of the entries whose handoffs were all delivered.
 *
 * Per entry the order stays ledger write → handoffs → notification (ADR 0171). An entry any of whose messages was
 * not delivered is named in the answer, so the job fails and SQS redelivers it: the same deterministic handoff and
 * notification ids are sent again (ADR 0074, ADR 0171).
 */
import type { OwedHandoff, OwedMessages } from './fan-out.js';
import type { BatchDeliveryReport, HandoffBatchSender, ResultBatchPublisher } from './ports.js';

/**
 * Where the outbox delivers; every deployment has both
 * (docs/adr/0501-the-deliver-function-requires-its-results-topic.md).
 */
export interface OutboxPorts {
  readonly handoffs: HandoffBatchSender;
  readonly results: ResultBatchPublisher;
}

/** Why an entry's messages were not all delivered; its job is redelivered. */
export class OutboxDeliveryError extends Error {
  override readonly name = 'OutboxDeliveryError';
  readonly code = 'outbox-delivery-failed';
  constructor(
    message: string,
    /** The reasons, one per undelivered message of the entry. */
    readonly reasons: readonly string[],
  ) {
    super(message);
  }
}

type Fail = (entry: number, reason: string) => void;

/** Delivers what each entry owes; answers the entries (by index) not wholly delivered, with why. Never throws. */
export async function deliverOwed(
  owed: readonly OwedMessages[],
  ports: OutboxPorts,
): Promise<Map<number, OutboxDeliveryError>> {
  const reasons = new Map<number, string[]>();
  const fail: Fail = (entry, reason) => void reasons.set(entry, [...(reasons.get(entry) ?? []), reason]);
  await deliverHandoffs(owed, ports.handoffs, fail);
  // Only entries whose every handoff was delivered publish: a notification never precedes its handoffs (ADR 0171).
  const due = [...owed.keys()].filter((entry) => !reasons.has(entry));
  if (due.length > 0)
    await deliverOne(
      () => ports.results.publishBatch(due.map((i) => owed[i]!.notification)),
      due,
      'result notification',
      fail,
    );
  // The reasons travel in the message, so the function's failure log says which queue refused what.
  return new Map(
    [...reasons].map(([entry, list]) => [
      entry,
      new OutboxDeliveryError(`${list.length} message(s) not delivered: ${list.join('; ').slice(0, 1000)}`, list),
    ]),
  );
}

/** One sendBatch per queue (queues in parallel: they are independent); a throwing call fails all it carried. */
async function deliverHandoffs(owed: readonly OwedMessages[], sender: HandoffBatchSender, fail: Fail): Promise<void> {
  const byQueue = new Map<string, { owners: number[]; handoffs: OwedHandoff[] }>();
  for (const [entry, o] of owed.entries())
    for (const h of o.handoffs) {
      const q = byQueue.get(h.queue) ?? { owners: [], handoffs: [] };
      byQueue.set(h.queue, q);
      q.owners.push(entry);
      q.handoffs.push(h);
    }
  await Promise.all(
    [...byQueue].map(([queue, q]) =>
      deliverOne(() => sender.sendBatch(queue, q.handoffs), q.owners, `handoff to ${queue}`, fail),
    ),
  );
}

async function deliverOne(
  call: () => Promise<BatchDeliveryReport>,
  owners: readonly number[],
  what: string,
  fail: Fail,
): Promise<void> {
  try {
    const report = await call();
    for (const f of report.failed) {
      const owner = owners[f.index];
      // An index outside the list is an adapter fault: fail every entry rather than guess whose message it was.
      if (owner === undefined) {
        for (const o of new Set(owners)) fail(o, `${what}: the delivery answered an unknown entry ${f.index}`);
        return;
      }
      fail(owner, `${what}: ${f.reason}`);
    }
  } catch (e) {
    const reason = `${what}: ${e instanceof Error ? e.message : String(e)}`;
    for (const o of new Set(owners)) fail(o, reason);
  }
}
