/**
 * SQS marks each message its redrive moves to a dead-letter queue with the `DeadLetterQueueSourceArn` system
 * attribute (the ARN of the queue it came from), returned by ReceiveMessage when asked for; SendMessage cannot set a
 * system attribute. `docket verify` accepts a DLQ message as an omission's excuse only when it carries one naming a
 * queue of the request's path (docs/adr/0455-only-a-redrive-excuses-an-omission.md). fauxqs 2.4 moves messages on
 * redrive but never sets the attribute, so locally no genuine redrive would excuse anything. Patched once, before any
 * stack starts, as fauxqs-fifo-receive.ts patches its FIFO receive:
 *
 *   - while a queue's `dequeue`/`dequeueFifo` runs (synchronous), a message it hands to another queue's `enqueue`
 *     with a receive count above 0 is one its redrive is moving (SendMessage and SNS always enqueue a new message with
 *     count 0): it is marked with the source queue's ARN;
 *   - the ReceiveMessage handler adds `DeadLetterQueueSourceArn` to each marked message's `Attributes` when the call
 *     asks for it (or for `All`).
 *
 * The mark lives in memory: a DLQ message read back from fauxqs's SQLite after a restart has none, and excuses
 * nothing (a finding, never a wrong excuse). Any other shape of fauxqs is refused (FauxqsDeadLetterSourceError).
 */
import { useFifoGroupReceive } from './fauxqs-fifo-receive.js';
import { fauxqsModule, patchOnce } from './fauxqs-module.js';

export class FauxqsDeadLetterSourceError extends Error {
  readonly code = 'fauxqs-dead-letter-source-unknown';
}

const PATCHED = Symbol.for('docket.fauxqs.dead-letter-source');
/** The mark on a fauxqs message object; never persisted, never a message attribute. */
const SOURCE = Symbol.for('docket.fauxqs.dead-letter-source-arn');

interface FauxqsMessage {
  approximateReceiveCount?: number;
  [SOURCE]?: string;
}
interface FauxqsQueue {
  /** The queue's ARN (what GetQueueAttributes answers as QueueArn). */
  arn: string;
  inflightMessages: Map<string, { message: FauxqsMessage }>;
}
type Method = (this: FauxqsQueue, ...args: unknown[]) => unknown;
type Handler = (body: unknown, store: unknown, request: unknown) => Promise<unknown>;

/** The queue whose receive is running now (dequeue is synchronous, so at most one at a time). */
let redriving: FauxqsQueue | undefined;

export const useDeadLetterSource = patchOnce(patch);

async function patch(): Promise<void> {
  // After the FIFO receive patch, which rebuilds dequeueFifo from its source text: it wraps that method, never this one.
  await useFifoGroupReceive();
  const fail = (m: string) => new FauxqsDeadLetterSourceError(m);
  const store = await fauxqsModule<{ SqsQueue?: { prototype: Record<string, unknown> } }>('sqs/sqsStore.js', fail);
  const router = await fauxqsModule<{ SqsRouter?: { prototype: Record<string, unknown> } }>('sqs/sqsRouter.js', fail);
  const queue = store.SqsQueue?.prototype;
  const routes = router.SqsRouter?.prototype;
  const methods = ['dequeue', 'dequeueFifo', 'enqueue'] as const;
  if (!queue || !routes || typeof routes.register !== 'function' || methods.some((m) => typeof queue[m] !== 'function'))
    throw new FauxqsDeadLetterSourceError(
      'fauxqs SqsQueue or SqsRouter has changed shape; review localstack/fauxqs-dead-letter-source.ts',
    );
  if (queue[PATCHED as never]) return;
  for (const name of ['dequeue', 'dequeueFifo'] as const) {
    const original = queue[name] as Method;
    queue[name] = function (this: FauxqsQueue, ...args: unknown[]) {
      const outer = redriving;
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the queue receiving now is what enqueue must know
      redriving = this;
      try {
        return original.apply(this, args);
      } finally {
        redriving = outer;
      }
    } as Method;
  }
  const enqueue = queue.enqueue as Method;
  queue.enqueue = function (this: FauxqsQueue, msg: FauxqsMessage, ...rest: unknown[]) {
    const from = redriving?.arn;
    if (
      redriving !== undefined &&
      redriving !== this &&
      (msg.approximateReceiveCount ?? 0) > 0 &&
      typeof from === 'string'
    )
      msg[SOURCE] = from;
    return enqueue.call(this, msg, ...rest);
  } as Method;
  const register = routes.register as (this: unknown, action: string, handler: Handler) => unknown;
  routes.register = function (this: unknown, action: string, handler: Handler) {
    return register.call(this, action, action === 'ReceiveMessage' ? withSourceArn(handler) : handler);
  };
  queue[PATCHED as never] = true as never;
}

/** The ReceiveMessage handler, with each redriven message's source ARN added when the call asks for it. */
function withSourceArn(handler: Handler): Handler {
  return async (body, store, request) => {
    const result = (await handler(body, store, request)) as {
      Messages?: { ReceiptHandle?: string; Attributes?: Record<string, string> }[];
    };
    const b = (body ?? {}) as { QueueUrl?: string; AttributeNames?: string[]; MessageSystemAttributeNames?: string[] };
    const names = [...(b.AttributeNames ?? []), ...(b.MessageSystemAttributeNames ?? [])];
    if (!names.includes('All') && !names.includes('DeadLetterQueueSourceArn')) return result;
    const q = (store as { getQueue(url: string): FauxqsQueue | undefined }).getQueue(b.QueueUrl ?? '');
    for (const m of result.Messages ?? []) {
      const from = q?.inflightMessages.get(m.ReceiptHandle ?? '')?.message[SOURCE];
      if (from !== undefined) m.Attributes = { ...(m.Attributes ?? {}), DeadLetterQueueSourceArn: from };
    }
    return result;
  };
}
