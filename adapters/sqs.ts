/**
 * SQS sending and receiving for Docket: single and batch sends whose partial failures are retried (a batch call
 * answers 200 even when some entries failed), long-poll receive with every system attribute, and deletes.
 * A send that still has failed entries after its retries throws SqsBatchError naming them, so no message is
 * silently dropped (ADR 0067: no handoff is lost).
 */
import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import { sqs } from './aws-sdk.js';
import { chunkEntries, failedEntries, withRetries, type FailedEntry, type RetryOptions } from './batch-calls.js';
import { MAX_BATCH_BYTES, MAX_BATCH_ENTRIES, messageBytes, type OutgoingMessage } from './sqs-message.js';

const {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} = sqs;

export interface SentMessage {
  readonly id: string;
  readonly messageId: string;
}

export class SqsBatchError extends Error {
  readonly code = 'sqs-batch-incomplete';
  constructor(
    message: string,
    readonly failed: readonly FailedEntry[],
    readonly sent: readonly SentMessage[],
  ) {
    super(message);
  }
}

export async function sendMessage(client: SQSClient, queueUrl: string, message: OutgoingMessage): Promise<string> {
  const out = await client.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: message.body,
      MessageAttributes: message.attributes,
      MessageGroupId: message.groupId,
      MessageDeduplicationId: message.deduplicationId,
    }),
  );
  if (!out.MessageId) throw new Error('SendMessage answered without a MessageId');
  return out.MessageId;
}

/**
 * Sends any number of messages in calls of at most 10, retrying only the entries that failed (transient faults,
 * with backoff). Returns one SentMessage per input, in input order; throws SqsBatchError if any entry could not be
 * sent (sender faults at once, others after `maxAttempts`).
 */
export async function sendMessages(
  client: SQSClient,
  queueUrl: string,
  messages: readonly OutgoingMessage[],
  retry: RetryOptions = {},
): Promise<SentMessage[]> {
  const withIds = messages.map((m, i) => ({ ...m, id: m.id ?? String(i) }));
  if (new Set(withIds.map((m) => m.id)).size !== withIds.length)
    throw new Error('sendMessages: batch entry ids must be unique');
  const sent = new Map<string, SentMessage>();
  const failed: FailedEntry[] = [];
  // A message over the limit would make SQS refuse its whole call (BatchRequestTooLong): refuse it alone, here.
  const sendable = withIds.filter((m) => {
    if (messageBytes(m) <= MAX_BATCH_BYTES) return true;
    failed.push({
      id: m.id,
      code: 'MessageTooLong',
      message: `message exceeds ${MAX_BATCH_BYTES} bytes`,
      senderFault: true,
    });
    return false;
  });
  for (const group of chunkEntries(sendable, messageBytes, MAX_BATCH_ENTRIES, MAX_BATCH_BYTES)) {
    const outcome = await withRetries(group, retry, async (pending) => {
      const out = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: pending.map((m) => ({
            Id: m.id,
            MessageBody: m.body,
            MessageAttributes: m.attributes,
            MessageGroupId: m.groupId,
            MessageDeduplicationId: m.deduplicationId,
          })),
        }),
      );
      for (const s of out.Successful ?? [])
        if (s.Id && s.MessageId) sent.set(s.Id, { id: s.Id, messageId: s.MessageId });
      return failedEntries(out.Failed);
    });
    failed.push(...outcome);
  }
  const missing = withIds.filter((m) => !sent.has(m.id) && !failed.some((f) => f.id === m.id));
  for (const m of missing)
    failed.push({
      id: m.id,
      code: 'NoAnswer',
      message: 'the batch answer named neither success nor failure',
      senderFault: false,
    });
  const result = withIds.flatMap((m) => (sent.has(m.id) ? [sent.get(m.id)!] : []));
  if (failed.length > 0) {
    throw new SqsBatchError(
      `${failed.length} of ${withIds.length} messages could not be sent to ${queueUrl}`,
      failed,
      result,
    );
  }
  return result;
}

/**
 * `sendMessages` with each entry's id its position, answering the entries still failing after the retries by position
 * (`index`, and `reason` as "<code>: <message>") instead of throwing: the caller fails exactly the records they carry.
 */
export async function sendByPosition(
  client: SQSClient,
  queueUrl: string,
  messages: readonly Omit<OutgoingMessage, 'id'>[],
): Promise<{ failed: { index: number; reason: string }[] }> {
  try {
    await sendMessages(client, queueUrl, messages);
    return { failed: [] };
  } catch (e) {
    if (!(e instanceof SqsBatchError)) throw e;
    return { failed: e.failed.map((f) => ({ index: Number(f.id), reason: `${f.code}: ${f.message}` })) };
  }
}

export interface ReceiveOptions {
  /** 1–10 (default 10). */
  readonly maxMessages?: number;
  /** Long-poll wait, 0–20 s (default 20). */
  readonly waitTimeSeconds?: number;
  /** Overrides the queue's visibility timeout for these messages. */
  readonly visibilityTimeout?: number;
  readonly abortSignal?: AbortSignal;
}

/** Long-poll receive with every system attribute and message attribute (what Lambda's event source reads). */
export async function receiveMessages(
  client: SQSClient,
  queueUrl: string,
  options: ReceiveOptions = {},
): Promise<Message[]> {
  const out = await client.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: options.maxMessages ?? 10,
      WaitTimeSeconds: options.waitTimeSeconds ?? 20,
      VisibilityTimeout: options.visibilityTimeout,
      MessageSystemAttributeNames: ['All'],
      MessageAttributeNames: ['All'],
    }),
    options.abortSignal ? { abortSignal: options.abortSignal } : {},
  );
  return out.Messages ?? [];
}

/** Deletes by receipt handle in calls of at most 10, retrying partial failures; throws SqsBatchError for leftovers. */
export async function deleteMessages(
  client: SQSClient,
  queueUrl: string,
  receiptHandles: readonly string[],
  retry: RetryOptions = {},
): Promise<void> {
  const entries = receiptHandles.map((h, i) => ({ id: String(i), handle: h }));
  const failed: FailedEntry[] = [];
  for (let i = 0; i < entries.length; i += MAX_BATCH_ENTRIES) {
    const chunk = entries.slice(i, i + MAX_BATCH_ENTRIES);
    failed.push(
      ...(await withRetries(chunk, retry, async (pending) => {
        const out = await client.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: pending.map((e) => ({ Id: e.id, ReceiptHandle: e.handle })),
          }),
        );
        return failedEntries(out.Failed);
      })),
    );
  }
  if (failed.length > 0)
    throw new SqsBatchError(`${failed.length} of ${entries.length} deletes failed on ${queueUrl}`, failed, []);
}

export async function getQueueUrl(client: SQSClient, queueName: string): Promise<string> {
  const out = await client.send(new GetQueueUrlCommand({ QueueName: queueName }));
  if (!out.QueueUrl) throw new Error(`GetQueueUrl answered without a URL for ${queueName}`);
  return out.QueueUrl;
}

export async function getQueueAttributes(client: SQSClient, queueUrl: string): Promise<Record<string, string>> {
  const out = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
  return out.Attributes ?? {};
}

/** Approximate visible + in flight + delayed messages (what an operator reads as the queue's depth). */
export async function approximateDepth(
  client: SQSClient,
  queueUrl: string,
): Promise<{ visible: number; inFlight: number; delayed: number }> {
  const a = await getQueueAttributes(client, queueUrl);
  return {
    visible: Number(a.ApproximateNumberOfMessages ?? 0),
    inFlight: Number(a.ApproximateNumberOfMessagesNotVisible ?? 0),
    delayed: Number(a.ApproximateNumberOfMessagesDelayed ?? 0),
  };
}
