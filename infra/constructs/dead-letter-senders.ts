/**
 * Only SQS's redrive puts messages on a request-path dead-letter queue (docs/adr/0455-only-a-redrive-excuses-an-omission.md,
 * docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md): a queue policy denies `sqs:SendMessage` to
 * every principal — to the account's administrators and the pipeline's own roles alike, with no exception — so nobody
 * can plant a message there to pass as the platform's. The redrive itself is SQS moving the message, not a
 * SendMessage, and needs no permission. The evaluate function's deliberate rejects go to their own queue
 * (infra/constructs/rejects.ts). `docket verify` does not rely on this deny: a message without SQS's
 * `DeadLetterQueueSourceArn` excuses nothing in any case.
 */
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { denyToEveryone } from './deny-except.js';

export function denySendsToDeadLetterQueue(dlq: sqs.Queue): void {
  dlq.addToResourcePolicy(denyToEveryone('DenySendToEveryone', ['sqs:SendMessage'], dlq.queueArn));
}
