/**
 * The evaluate function's rejects queue (docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md): where
 * it sends, with its reason, a copy of every message with no usable request id (ADR 0071) and of every request whose
 * id is recorded for other bytes. A standard queue, SSE-SQS encrypted, TLS-only, kept as long as a DLQ keeps its
 * messages; no DLQ of its own (nothing consumes it: operators and auditors read it). It is not a dead-letter queue:
 * nothing SQS redrives lands here, and a message here excuses no omission (ADR 0455).
 */
import { Validations, type Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { denyExcept } from './deny-except.js';

export interface RejectsProps {
  readonly queueName: string;
  readonly retention: Duration;
}

export class Rejects extends Construct {
  readonly queue: sqs.Queue;

  constructor(scope: Construct, id: string, props: RejectsProps) {
    super(scope, id);
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: props.queueName,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: props.retention,
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'The rejects queue is an end of the line like a DLQ: nothing consumes it, operators and auditors read it at ' +
        'visibility timeout 0, and a redrive policy would move a reject to another queue after a few such reads, ' +
        'taking it away from where its reason is looked for (ADR 0492). Its depth alarm fires on the first message.',
    });
  }

  /**
   * `sender` (the evaluate role) may send here and do nothing else: it cannot receive, delete or purge a copy it sent.
   * Every other principal is denied the send, so a reason on this queue is the evaluate function's.
   */
  grantSendOnly(sender: iam.IRole): void {
    sender.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
    this.queue.addToResourcePolicy(
      denyExcept('DenySendExceptEvaluate', ['sqs:SendMessage'], this.queue.queueArn, sender.roleArn),
    );
  }

  /** Read-only access for operators and auditors: receive (a read at visibility timeout 0), attributes, URL. */
  readStatement(): iam.PolicyStatement {
    return new iam.PolicyStatement({
      actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'],
      resources: [this.queue.queueArn],
    });
  }
}
