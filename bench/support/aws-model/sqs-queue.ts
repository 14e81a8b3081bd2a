/**
 * An SQS queue on the virtual clock, for the AWS scale model: the server side of SendMessage(Batch),
 * ReceiveMessage (long polling) and DeleteMessageBatch, with the visibility timeout. The caller adds the network
 * latency around each call (scale-model.ts).
 *   standard — any available message may be returned (here: oldest first, a redelivered message joins the back);
 *   fifo     — messages carry a MessageGroupId; a group with a message in flight delivers nothing more until that
 *              message is deleted or its visibility timeout returns it (SQS FIFO's one-batch-in-flight-per-group), and
 *              a receive fills up to 10 messages from the group with the oldest waiting message first, then the next
 *              unlocked groups. High-throughput mode is assumed (no 300-calls/s cap per queue), with the stack's
 *              deduplication scope (infra/constructs/sequencer.ts: per message group): a message sent with the
 *              deduplication id of one sent to its group within the last five minutes is accepted and not queued.
 * A message not deleted within the visibility timeout becomes visible again with its receive count raised.
 */
import type { SQSEvent } from 'aws-lambda';
import type { VirtualClock } from './virtual-clock.js';

/** SQS FIFO's deduplication interval. */
export const DEDUPLICATION_WINDOW_MS = 5 * 60_000;

export interface QueuedMessage {
  readonly messageId: string;
  readonly body: string;
  readonly group: string | undefined;
  /** Virtual time the message was first sent. */
  readonly sentAt: number;
  receiveCount: number;
  /** Increments on each receive, so a late visibility expiry of an earlier receive is ignored. */
  receipt: number;
  inFlight: boolean;
  deleted: boolean;
}

export class SimQueue {
  private nextId = 0;
  /** Standard: the waiting messages, oldest first (from `head`). */
  private waiting: QueuedMessage[] = [];
  private head = 0;
  /** FIFO: each group's waiting messages in order, and how many of the group's messages are in flight. */
  private readonly groups = new Map<string, { queue: QueuedMessage[]; head: number; inFlight: number }>();
  private wakeReceivers: (() => void)[] = [];
  /** FIFO: group and deduplication id → the message first sent with them, and when. */
  private readonly sentOnce = new Map<string, { readonly at: number; readonly message: QueuedMessage }>();
  /** Receives of a message already received once (a visibility timeout expired before its delete). */
  redelivered = 0;
  /** Sends accepted as copies of a message sent within the deduplication interval (not queued again). */
  deduplicated = 0;

  constructor(
    private readonly clock: VirtualClock,
    readonly kind: 'standard' | 'fifo',
    private readonly visibilityTimeoutMs: number,
  ) {}

  /** Queues a message; a FIFO copy within the deduplication interval answers the message first sent instead. */
  send(body: string, group?: string, deduplicationId?: string): QueuedMessage {
    if ((this.kind === 'fifo') !== (group !== undefined))
      throw new TypeError(this.kind === 'fifo' ? 'a FIFO message needs a group' : 'a standard message has no group');
    const key = group !== undefined && deduplicationId !== undefined ? `${group}\u0000${deduplicationId}` : undefined;
    const first = key === undefined ? undefined : this.sentOnce.get(key);
    if (first !== undefined && this.clock.now - first.at < DEDUPLICATION_WINDOW_MS) {
      this.deduplicated += 1;
      return first.message;
    }
    const m: QueuedMessage = {
      messageId: `m-${this.nextId++}`,
      body,
      group,
      sentAt: this.clock.now,
      receiveCount: 0,
      receipt: 0,
      inFlight: false,
      deleted: false,
    };
    if (key !== undefined) this.sentOnce.set(key, { at: this.clock.now, message: m });
    this.enqueue(m);
    return m;
  }

  /** Long-polls: resolves with 1..max messages as soon as some can be delivered. */
  async receive(max = 10): Promise<QueuedMessage[]> {
    for (;;) {
      const taken = this.take(max);
      if (taken.length > 0) return taken;
      await new Promise<void>((wake) => this.wakeReceivers.push(wake));
    }
  }

  /** Deletes received messages (DeleteMessageBatch); a FIFO group with none left in flight is unlocked. */
  delete(messages: readonly QueuedMessage[]): void {
    for (const m of messages) {
      if (m.deleted || !m.inFlight) continue;
      m.deleted = true;
      m.inFlight = false;
      if (m.group !== undefined) this.groupOf(m.group).inFlight -= 1;
    }
    this.wake();
  }

  private take(max: number): QueuedMessage[] {
    const out: QueuedMessage[] = [];
    if (this.kind === 'standard') {
      while (out.length < max && this.head < this.waiting.length) out.push(this.waiting[this.head++]!);
      if (this.head > 4096 && this.head * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.head);
        this.head = 0;
      }
    } else {
      // Unlocked groups with waiting messages, the one whose next message is oldest first.
      const ready = [...this.groups.values()]
        .filter((g) => g.inFlight === 0 && g.head < g.queue.length)
        .sort((a, b) => a.queue[a.head]!.sentAt - b.queue[b.head]!.sentAt);
      for (const g of ready) {
        while (out.length < max && g.head < g.queue.length) {
          out.push(g.queue[g.head++]!);
          g.inFlight += 1;
        }
        if (g.head > 4096) {
          g.queue = g.queue.slice(g.head);
          g.head = 0;
        }
        if (out.length === max) break;
      }
    }
    for (const m of out) this.deliver(m);
    return out;
  }

  private deliver(m: QueuedMessage): void {
    m.inFlight = true;
    m.receiveCount += 1;
    if (m.receiveCount > 1) this.redelivered += 1;
    const receipt = ++m.receipt;
    void this.clock.until(this.clock.now + this.visibilityTimeoutMs).then(() => {
      if (m.deleted || !m.inFlight || m.receipt !== receipt) return;
      m.inFlight = false;
      if (m.group !== undefined) this.groupOf(m.group).inFlight -= 1;
      this.enqueue(m, true);
    });
  }

  private enqueue(m: QueuedMessage, returning = false): void {
    if (m.group === undefined) this.waiting.push(m);
    else {
      const g = this.groupOf(m.group);
      // A returning FIFO message goes back to the front of its group: FIFO order is kept.
      if (returning) g.queue.splice(g.head, 0, m);
      else g.queue.push(m);
    }
    this.wake();
  }

  private groupOf(group: string): { queue: QueuedMessage[]; head: number; inFlight: number } {
    let g = this.groups.get(group);
    if (g === undefined) this.groups.set(group, (g = { queue: [], head: 0, inFlight: 0 }));
    return g;
  }

  private wake(): void {
    const waiting = this.wakeReceivers;
    this.wakeReceivers = [];
    for (const w of waiting) w();
  }
}

/** Queue messages as the event source mapping hands them to a function: an SQS event. */
export function sqsEvent(messages: readonly QueuedMessage[]): SQSEvent {
  return {
    Records: messages.map((m) => ({
      messageId: m.messageId,
      receiptHandle: m.messageId,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        // Epoch ms on the virtual clock: the sequence function carries it on into the ledger message.
        SentTimestamp: String(Math.floor(m.sentAt)),
        SenderId: 'scale-model',
        ApproximateFirstReceiveTimestamp: '0',
        ...(m.group !== undefined ? { MessageGroupId: m.group } : {}),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:scale-model',
      awsRegion: 'eu-west-1',
    })),
  };
}
