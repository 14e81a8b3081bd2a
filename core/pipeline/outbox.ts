/**
 * The delivery stage's outbox (docs/adr/0253-per-invocation-outbox.md; docs/pipeline.md "Handoffs"): while a job's
 * entries are fanned out, each entry's handoffs and result notification are recorded against it instead of sent;
 * then the outbox delivers them in batch calls — first every handoff, grouped by queue in entry and declaration order,
 * then the notifications of the entries whose handoffs were all delivered.
 *
 * Per entry the order stays ledger write → handoffs → notification (ADR 0171). An entry any of whose messages was
 * not delivered is named in the answer, so the job fails and SQS redelivers it: the same deterministic handoff and
 * notification ids are sent again (ADR 0074, ADR 0171).
 */
import type {
  HandoffBatchSender,
  HandoffSender,
  OutboxHandoff,
  ResultBatchPublisher,
  ResultPublisher,
} from './ports.js';
import type { ResultMessage } from './result-notification.js';

/** Where the outbox delivers: the batch ports. Without `results`, records publish nothing. */
export interface OutboxPorts {
  readonly handoffs: HandoffBatchSender;
  readonly results?: ResultBatchPublisher;
}

/** The ports a record's processing sends through: they record, and deliver nothing until `deliver`. */
export interface RecordSinks {
  readonly handoffs: HandoffSender;
  readonly results?: ResultPublisher;
}

/** Why a record's messages were not all delivered; the record is redelivered. */
export class OutboxDeliveryError extends Error {
  override readonly name = 'OutboxDeliveryError';
  readonly code = 'outbox-delivery-failed';
  constructor(
    message: string,
    /** The reasons, one per undelivered message of the record. */
    readonly reasons: readonly string[],
  ) {
    super(message);
  }
}

export interface Outbox {
  /** The recording ports of one record (any key unique in the batch); called once per record, in record order. */
  sinksFor(recordId: string): RecordSinks;
  /** Delivers everything recorded; answers the records not wholly delivered, with why. Never throws. */
  deliver(): Promise<Map<string, OutboxDeliveryError>>;
}

interface Recorded {
  readonly handoffs: { readonly queue: string; readonly handoff: OutboxHandoff }[];
  notification?: ResultMessage;
}

export function createOutbox(ports: OutboxPorts): Outbox {
  // Insertion order is record order: sinksFor is called as each record starts, in the batch's order.
  const records = new Map<string, Recorded>();
  return {
    sinksFor(recordId) {
      const r: Recorded = { handoffs: [] };
      records.set(recordId, r);
      const handoffs: HandoffSender = {
        send(queue, handoffId, body, routeKey) {
          r.handoffs.push({ queue, handoff: { handoffId, body, routeKey } });
          return Promise.resolve();
        },
      };
      if (ports.results === undefined) return { handoffs };
      const results: ResultPublisher = {
        publish(message) {
          r.notification = message;
          return Promise.resolve();
        },
      };
      return { handoffs, results };
    },
    async deliver() {
      const reasons = new Map<string, string[]>();
      const fail = (recordId: string, reason: string): void => {
        const list = reasons.get(recordId);
        if (list === undefined) reasons.set(recordId, [reason]);
        else list.push(reason);
      };
      await deliverHandoffs(records, ports.handoffs, fail);
      if (ports.results !== undefined) await deliverNotifications(records, reasons, ports.results, fail);
      const out = new Map<string, OutboxDeliveryError>();
      for (const [id, list] of reasons)
        // The reasons travel in the message, so the function's failure log says which queue refused what.
        out.set(
          id,
          new OutboxDeliveryError(`${list.length} message(s) not delivered: ${list.join('; ').slice(0, 1000)}`, list),
        );
      return out;
    },
  };
}

type Fail = (recordId: string, reason: string) => void;

/** One sendBatch per queue (queues in parallel: they are independent); a throwing call fails all it carried. */
async function deliverHandoffs(records: Map<string, Recorded>, sender: HandoffBatchSender, fail: Fail): Promise<void> {
  const byQueue = new Map<string, { recordId: string; handoff: OutboxHandoff }[]>();
  for (const [recordId, r] of records)
    for (const { queue, handoff } of r.handoffs) {
      let list = byQueue.get(queue);
      if (list === undefined) byQueue.set(queue, (list = []));
      list.push({ recordId, handoff });
    }
  await Promise.all(
    [...byQueue].map(async ([queue, list]) => {
      await deliverOne(
        () =>
          sender.sendBatch(
            queue,
            list.map((x) => x.handoff),
          ),
        list.map((x) => x.recordId),
        `handoff to ${queue}`,
        fail,
      );
    }),
  );
}

/** Only records whose every handoff was delivered publish: a notification never precedes its handoffs (ADR 0171). */
async function deliverNotifications(
  records: Map<string, Recorded>,
  failed: ReadonlyMap<string, unknown>,
  publisher: ResultBatchPublisher,
  fail: Fail,
): Promise<void> {
  const due: { recordId: string; message: ResultMessage }[] = [];
  for (const [recordId, r] of records)
    if (r.notification !== undefined && !failed.has(recordId)) due.push({ recordId, message: r.notification });
  if (due.length === 0) return;
  await deliverOne(
    () => publisher.publishBatch(due.map((d) => d.message)),
    due.map((d) => d.recordId),
    'result notification',
    fail,
  );
}

async function deliverOne(
  call: () => Promise<{ readonly failed: readonly { readonly index: number; readonly reason: string }[] }>,
  owners: readonly string[],
  what: string,
  fail: Fail,
): Promise<void> {
  try {
    const report = await call();
    for (const f of report.failed) {
      const owner = owners[f.index];
      // An index outside the list is an adapter fault: fail every record rather than guess whose message it was.
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
