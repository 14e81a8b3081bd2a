/** The intake queue requesters write to, and its DLQ (docs/deploy.md). */
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DocketConfig } from '../config.js';
import type { QueuePair } from '../names.js';

export interface QueueWithDlqProps {
  readonly names: QueuePair;
  readonly visibilityTimeout: Duration;
  readonly retention: Duration;
  readonly dlqRetention: Duration;
  readonly maxReceiveCount: number;
  /** SQS's MaximumMessageSize for the queue and its DLQ (default: SQS's own default). */
  readonly maxMessageSizeBytes?: number;
  /** A FIFO queue's settings (names ending in ".fifo" make the queue and its DLQ FIFO). */
  readonly fifo?: Pick<sqs.QueueProps, 'deduplicationScope' | 'fifoThroughputLimit' | 'contentBasedDeduplication'>;
}

/** The settings of a queue a Docket function consumes: AWS's guidance for SQS event sources, the configured retention. */
export function eventSourceQueueProps(c: DocketConfig, names: QueuePair): QueueWithDlqProps {
  return {
    names,
    // AWS guidance for SQS event sources: visibility timeout ≥ 6 × function timeout (config enforces factor ≥ 6).
    visibilityTimeout: Duration.seconds(c.functionTimeoutSeconds * c.visibilityTimeoutFactor),
    retention: Duration.seconds(c.queueRetentionSeconds),
    dlqRetention: Duration.seconds(c.dlqRetentionSeconds),
    maxReceiveCount: c.maxReceiveCount,
  };
}

/**
 * A queue, SSE-SQS encrypted, TLS-only, with a redrive policy to its own DLQ. Queues are destroyed with the stack (they
 * hold transit data; every handoff can be re-derived from the retained ledger, docs/deploy.md).
 */
export class QueueWithDlq extends Construct {
  readonly queue: sqs.Queue;
  readonly dlq: sqs.Queue;
  readonly names: QueuePair;

  constructor(scope: Construct, id: string, props: QueueWithDlqProps) {
    super(scope, id);
    this.names = props.names;
    const common = {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      maxMessageSizeBytes: props.maxMessageSizeBytes,
    };
    this.dlq = new sqs.Queue(this, 'Dlq', {
      queueName: props.names.dlq,
      ...common,
      retentionPeriod: props.dlqRetention,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: props.names.queue,
      ...common,
      ...props.fifo,
      visibilityTimeout: props.visibilityTimeout,
      retentionPeriod: props.retention,
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: props.maxReceiveCount },
    });
  }
}

export class Intake extends Construct {
  readonly queues: QueueWithDlq;
  /** Attach to requesters (`docket submit`): send to the intake queue, nothing else (ADR 0086). */
  readonly requesterPolicy: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, props: { readonly config: DocketConfig; readonly names: QueuePair }) {
    super(scope, id);
    this.queues = new QueueWithDlq(this, 'Intake', eventSourceQueueProps(props.config, props.names));
    this.requesterPolicy = new iam.ManagedPolicy(this, 'RequesterPolicy', {
      managedPolicyName: `${props.names.queue}-requester`,
      description: 'Submit Docket evaluation requests to the intake queue',
      statements: [
        new iam.PolicyStatement({
          actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
          resources: [this.queues.queue.queueArn],
        }),
      ],
    });
  }

  get queue(): QueueWithDlq['queue'] {
    return this.queues.queue;
  }
  get dlq(): QueueWithDlq['dlq'] {
    return this.queues.dlq;
  }
}
