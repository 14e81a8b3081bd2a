/**
 * Moving a handoff message that failed verification (core/pipeline/handoff-verdict.ts) off its route queue onto the
 * route's DLQ, with the reason as message attributes, so it is neither acted on nor lost
 * (docs/pipeline.md "Verifying a handoff"; docs/adr/0141-handoff-verification-in-consumers.md).
 *
 * Send first, delete second: a crash in between leaves the message on the route queue, where it is verified and
 * moved again (the DLQ may then hold it twice; its reason is the same). A body too large to carry the reason
 * attributes within SQS's 1 MiB is not deleted: the queue's own redrive policy moves it after maxReceiveCount.
 */
import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import { deadLetterCopy, type RejectedHandoff } from './dead-letter-copy.js';
import { deleteMessages, sendMessage } from './sqs.js';
import { MAX_BATCH_BYTES, messageBytes } from './sqs-message.js';

export type DeadLetterOutcome =
  | { readonly moved: true; readonly dlqMessageId: string }
  | { readonly moved: false; readonly why: 'too-large-for-reason-attributes' };

/** Sends `message` to `dlqUrl` with its reason, then deletes it from `queueUrl`. Throws if a call fails. */
export async function moveHandoffToDeadLetter(
  client: SQSClient,
  queues: { readonly queueUrl: string; readonly dlqUrl: string },
  message: Message,
  rejected: RejectedHandoff,
): Promise<DeadLetterOutcome> {
  const copy = deadLetterCopy(message, rejected);
  if (messageBytes(copy) > MAX_BATCH_BYTES) return { moved: false, why: 'too-large-for-reason-attributes' };
  const dlqMessageId = await sendMessage(client, queues.dlqUrl, copy);
  if (message.ReceiptHandle) await deleteMessages(client, queues.queueUrl, [message.ReceiptHandle]);
  return { moved: true, dlqMessageId };
}
