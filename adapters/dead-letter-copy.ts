/**
 * The DLQ copy of a handoff message that failed verification (docs/pipeline.md "Verifying a handoff";
 * docs/adr/0141-handoff-verification-in-consumers.md): the exact body, with the reason as message attributes
 * (`DocketReason`, `DocketReasonMessage`, `OriginalMessageId`). One writer for `docket handoffs` and the
 * @docket/consumer handler.
 */
import type { Message } from '@aws-sdk/client-sqs';
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
    attributes: {
      DocketReason: { DataType: 'String', StringValue: rejected.reason },
      DocketReasonMessage: { DataType: 'String', StringValue: rejected.detail.slice(0, 1000) || rejected.reason },
      ...(message.MessageId ? { OriginalMessageId: { DataType: 'String', StringValue: message.MessageId } } : {}),
    },
  };
}
