/**
 * SQS records as the event source mapping hands them to the sequence and evaluate functions, and ledger messages as
 * the sequence function packs them (core/pipeline/ledger-message.ts), for the unit tests of both runtimes and of the
 * evaluate function's batch metrics. Deterministic: every id and timestamp is given.
 */
import type { SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { ledgerMessageBytes, type SequencedRequest } from '../../core/pipeline/ledger-message.js';

/** A ledger message of these requests (the serializer must take them). */
export function ledgerMessage(requests: readonly SequencedRequest[]): string {
  const b = ledgerMessageBytes(requests);
  if (!b.ok) throw new Error(b.error.message);
  return b.value;
}

export interface RecordSpec {
  readonly messageId: string;
  readonly body: string;
  /** The FIFO message group (the ledger queue); absent for the standard intake queue. */
  readonly group?: string;
  /** SentTimestamp (epoch ms), default '0'. */
  readonly sent?: string;
  readonly receiveCount?: number;
  readonly messageAttributes?: SQSMessageAttributes;
}

export function sqsRecord(r: RecordSpec): SQSRecord {
  return {
    messageId: r.messageId,
    receiptHandle: `rh-${r.messageId}`,
    body: r.body,
    attributes: {
      ApproximateReceiveCount: String(r.receiveCount ?? 1),
      SentTimestamp: r.sent ?? '0',
      SenderId: 'AROAEXAMPLE:docket-sequence',
      ApproximateFirstReceiveTimestamp: r.sent ?? '0',
      ...(r.group !== undefined ? { MessageGroupId: r.group, MessageDeduplicationId: 'd'.repeat(64) } : {}),
    },
    messageAttributes: r.messageAttributes ?? {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${r.group !== undefined ? 'ledger.fifo' : 'intake'}`,
    awsRegion: 'us-east-1',
  } as SQSRecord;
}

/** A command as the fake client saw it: its class name and input. */
export interface SentCommand {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/**
 * An SQS client answering SendMessage and SendMessageBatch as SQS does, recording every command; `fail` names the
 * batch entries to answer as failed (a sender fault: not retried), `throws` makes every call fail with no answer.
 */
export function fakeSqs(o: { fail?: (entry: { Id: string; MessageBody: string }) => boolean; throws?: Error } = {}) {
  const commands: SentCommand[] = [];
  const client = {
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      commands.push({ name: command.constructor.name, input: command.input });
      if (o.throws !== undefined) throw o.throws;
      if (command.constructor.name === 'SendMessageCommand') return { MessageId: `sent-${commands.length}` };
      const entries = command.input.Entries as { Id: string; MessageBody: string }[];
      const failed = entries.filter((e) => o.fail?.(e) === true);
      return {
        Successful: entries.filter((e) => !failed.includes(e)).map((e) => ({ Id: e.Id, MessageId: `sent-${e.Id}` })),
        Failed: failed.map((e) => ({ Id: e.Id, Code: 'InvalidParameterValue', Message: 'refused', SenderFault: true })),
      };
    },
  };
  return { client: client as unknown as SQSClient, commands };
}
