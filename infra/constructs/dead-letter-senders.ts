/**
 * Only SQS's redrive puts messages on a request-path dead-letter queue (docs/adr/0455-only-a-redrive-excuses-an-omission.md):
 * a queue policy denies `sqs:SendMessage` to every principal — to the account's administrators and the pipeline's
 * own roles alike — except the roles named, so nobody can plant a message there to pass as the platform's. The
 * redrive itself is SQS moving the message, not a SendMessage, and needs no permission. `docket verify` does not rely
 * on this deny: a message without SQS's `DeadLetterQueueSourceArn` excuses nothing in any case.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sqs from 'aws-cdk-lib/aws-sqs';

export function denySendsToDeadLetterQueue(dlq: sqs.Queue, sid: string, except: readonly iam.IRole[] = []): void {
  dlq.addToResourcePolicy(
    new iam.PolicyStatement({
      sid,
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: ['sqs:SendMessage'],
      resources: [dlq.queueArn],
      ...(except.length > 0
        ? { conditions: { ArnNotEquals: { 'aws:PrincipalArn': except.map((r) => r.roleArn) } } }
        : {}),
    }),
  );
}
