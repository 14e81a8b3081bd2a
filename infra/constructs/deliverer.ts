/**
 * The delivery stage (docs/adr/0404-delivery-stage.md): the standard delivery queue the evaluate function sends one
 * delivery job per log per batch to, its DLQ, and the deliver function that reads each job's entries back, writes
 * their positions and sends their handoffs and notifications — out of the FIFO group's lock, so a log's next batch
 * does not wait for them.
 */
import { Duration } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import type { DocketConfig } from '../config.js';
import type { QueuePair } from '../names.js';
import { HANDLER_ENTRIES } from '../paths.js';
import { DocketFunction } from './docket-function.js';
import { denyExcept } from './deny-except.js';
import { eventSourceQueueProps, QueueWithDlq } from './intake.js';

export interface DelivererProps {
  readonly config: DocketConfig;
  readonly functionName: string;
  readonly names: QueuePair;
  /** The function environment, given the queue and DLQ URLs (tokens) once they exist. */
  readonly environment: (queueUrl: string, dlqUrl: string) => Record<string, string>;
  readonly codeSigningConfig: lambda.ICodeSigningConfig;
}

/**
 * Standard, not FIFO: jobs of one log may be delivered in any order and more than once (every id is derived from the
 * entry, so a consumer sees the same messages again, never different ones).
 */
export class Deliverer extends QueueWithDlq {
  readonly function: DocketFunction;

  constructor(scope: Construct, id: string, props: DelivererProps) {
    super(scope, id, eventSourceQueueProps(props.config, props.names));
    const c = props.config;
    this.function = new DocketFunction(this, 'Deliver', {
      functionName: props.functionName,
      entry: HANDLER_ENTRIES.deliver,
      description: 'Docket: deliver recorded ledger entries: positions, then handoffs, then result notifications',
      timeout: Duration.seconds(c.functionTimeoutSeconds),
      memoryMb: c.deliverMemoryMb,
      logRetentionDays: c.logRetentionDays,
      bundleAwsSdk: c.bundleAwsSdk,
      codeSigningConfig: props.codeSigningConfig,
      environment: props.environment(this.queue.queueUrl, this.dlq.queueUrl),
    });
    this.function.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: c.batchSize,
        maxConcurrency: c.deliverMaximumConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    // A refused job goes to the DLQ with its reason, sent by the function itself.
    this.dlq.grantSendMessages(this.function.role);
  }

  /**
   * Only the deliver role may take jobs off the delivery queue: a job received or purged by anyone else is an entry
   * whose position, handoffs and notification never come (the DLQ stays open to operators).
   */
  restrictConsumers(): void {
    this.queue.addToResourcePolicy(
      denyExcept(
        'DenyConsumeExceptDeliverRole',
        ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:PurgeQueue'],
        this.queue.queueArn,
        this.function.role.roleArn,
      ),
    );
  }

  get fn(): lambda.Function {
    return this.function.fn;
  }

  /** Only `sender` (the evaluate role) may send jobs: a job makes recorded entries be delivered again. */
  restrictSenders(sender: iam.IRole): void {
    this.queue.addToResourcePolicy(
      denyExcept('DenySendExceptEvaluateRole', ['sqs:SendMessage'], this.queue.queueArn, sender.roleArn),
    );
  }
}
