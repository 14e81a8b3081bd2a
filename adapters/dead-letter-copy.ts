/**
 * The DLQ copy of a handoff message that failed verification (docs/pipeline.md "Verifying a handoff";
 * docs/adr/0141-handoff-verification-in-consumers.md): the exact body, with the reason as message attributes
 * (`DocketReason`, `DocketReasonMessage`, `OriginalMessageId`). One writer for `docket handoffs` and the
 * @docket/consumer handler.
 */
import type { Message, MessageAttributeValue } from '@aws-sdk/client-sqs';
import type { OutgoingMessage } from './sqs-message.js';

export interface RejectedHandoff {
  /** A fixed reason code (HANDOFF_REJECTIONS). */
  readonly reason: string;
  readonly detail: string;
}

/** The DLQ copy: the exact body, the reason, and where it came from. */
export function deadLetterCopy(message: Message, rejected: RejectedHandoff): OutgoingMessage {
  return {
    body: message.Body ?? '',
    attributes: reasonAttributes(rejected.reason, rejected.detail, message.MessageId),
  };
}

/** The reason every copy Docket dead-letters or rejects carries: its code, message and the original's id. */
export function reasonAttributes(
  code: string,
  message: string,
  originalMessageId: string | undefined,
): Record<string, MessageAttributeValue> {
  return {
    DocketReason: { DataType: 'String', StringValue: code },
    DocketReasonMessage: { DataType: 'String', StringValue: message.slice(0, 1000) || code },
    ...(originalMessageId ? { OriginalMessageId: { DataType: 'String', StringValue: originalMessageId } } : {}),
  };
}
