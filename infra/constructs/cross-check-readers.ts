/**
 * What the archive cross-check reads of the request path's queues (adapters/request-omissions.ts;
 * docs/adr/0487-the-checkpoint-function-cross-checks-the-archive.md): the path queues' attributes (depth, in flight,
 * redrive window, ARN) and the messages of their DLQs with SQS's `DeadLetterQueueSourceArn`. SQS has no read that
 * leaves a message untouched, so a DLQ is read with ReceiveMessage at visibility timeout 0: the message stays visible
 * and on the queue (no DeleteMessage, no ChangeMessageVisibility, no PurgeQueue is granted), and only its receive
 * count grows, which on a DLQ (no redrive of its own) moves nothing.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sqs from 'aws-cdk-lib/aws-sqs';

export function grantQueueCrossCheck(
  role: iam.IRole,
  pathQueues: readonly sqs.IQueue[],
  deadLetterQueues: readonly sqs.IQueue[],
): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['sqs:GetQueueAttributes'],
      resources: pathQueues.map((q) => q.queueArn),
    }),
  );
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['sqs:ReceiveMessage'],
      resources: deadLetterQueues.map((q) => q.queueArn),
    }),
  );
}
