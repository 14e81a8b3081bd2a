/**
 * What the archive cross-check reads of the request path's queues (adapters/request-omissions.ts): the path queues'
 * attributes and their DLQs' messages, read at visibility timeout 0, as
 * docs/adr/0487-the-checkpoint-function-cross-checks-the-archive.md ("Its grants, exactly") decides and explains.
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
