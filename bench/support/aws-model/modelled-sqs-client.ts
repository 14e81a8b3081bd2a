/**
 * An SQSClient for the AWS scale model, so a function's own runtime sends through the adapter it ships with
 * (adapters/sqs.ts): the sequence function's runtime (functions/lib/sequence-runtime.ts) packs and sends its ledger
 * messages through it exactly as deployed. Each SendMessageBatch is one call of the caller's `call` (the network round
 * trip on the virtual clock and the call's metering) in which the queue takes every entry, its group and deduplication
 * id as SQS does (sqs-queue.ts). Any other command is refused: a runtime that starts sending one must have it modelled
 * before its figures mean anything.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqs } from '../../../adapters/aws-sdk.js';
import { messageBytes } from '../../../adapters/sqs-message.js';
import type { MessagingService } from './modelled-ledger-store.js';
import type { SimQueue } from './sqs-queue.js';

/** One SQS call from the sending function: its service (queue type), its payload's bytes, and the queue's side. */
export type SqsCall = <T>(service: MessagingService, payloadBytes: number, serve: () => T) => Promise<T>;

export function modelledSqsClient(queues: ReadonlyMap<string, SimQueue>, call: SqsCall): SQSClient {
  const send = async (command: unknown): Promise<unknown> => {
    if (!(command instanceof sqs.SendMessageBatchCommand))
      throw new TypeError(`the scale model's SQS client does not model ${(command as object).constructor.name}`);
    const input = command.input;
    const queue = queues.get(input.QueueUrl ?? '');
    if (queue === undefined) throw new TypeError(`no modelled queue at ${input.QueueUrl}`);
    const entries = input.Entries ?? [];
    const bytes = entries.reduce(
      (n, e) =>
        n +
        messageBytes({
          body: e.MessageBody ?? '',
          ...(e.MessageAttributes ? { attributes: e.MessageAttributes } : {}),
        }),
      0,
    );
    return call(queue.kind === 'fifo' ? 'sqs-fifo' : 'sqs-standard', bytes, () => ({
      Successful: entries.map((e) => ({
        Id: e.Id,
        MessageId: queue.send(e.MessageBody ?? '', e.MessageGroupId, e.MessageDeduplicationId).messageId,
        MD5OfMessageBody: '',
      })),
      Failed: [],
    }));
  };
  return { send } as unknown as SQSClient;
}
