/**
 * An outgoing SQS message and the size SQS counts for it: pure, with the SDK's types only, so that code which sends
 * through its own client (the @docket/consumer handler) shares the shape and the arithmetic without loading
 * adapters/aws-sdk.ts's clients.
 */
import type { MessageAttributeValue } from '@aws-sdk/client-sqs';

export interface OutgoingMessage {
  /** Batch entry id: unique within one call, [A-Za-z0-9_-]{1,80}. Defaults to the entry's index. */
  readonly id?: string;
  readonly body: string;
  readonly attributes?: Record<string, MessageAttributeValue>;
  /** FIFO queues only. */
  readonly groupId?: string;
  readonly deduplicationId?: string;
}

/** SQS's limits on one batch call: 10 entries and 1 MiB of bodies plus attributes in total (as for one message). */
export const MAX_BATCH_ENTRIES = 10;
export const MAX_BATCH_BYTES = 1024 * 1024;

/** Bytes SQS counts for a message: body plus each attribute's name, type and value. */
export function messageBytes(m: OutgoingMessage): number {
  let n = Buffer.byteLength(m.body, 'utf8');
  for (const [name, a] of Object.entries(m.attributes ?? {})) {
    n += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(a.DataType ?? '', 'utf8');
    n += a.StringValue !== undefined ? Buffer.byteLength(a.StringValue, 'utf8') : 0;
    n += a.BinaryValue !== undefined ? a.BinaryValue.byteLength : 0;
  }
  return n;
}
