/**
 * Per-route handoff queues (one per distinct queue key in config.routes) plus the `unrouted` queue for direct
 * exception escalations without an escalation object (§8.1), each with a DLQ for consumers that keep failing.
 */
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { DocketConfig } from '../config.js';
import type { ResourceNames } from '../names.js';
import { HANDOFF_MAX_BYTES } from '../../core/pipeline/index.js';
import { QueueWithDlq } from './intake.js';
import { denyExcept } from './deny-except.js';

/** Consumers (people using `docket handoffs`, or systems) get five minutes to acknowledge a handoff. */
const HANDOFF_VISIBILITY = Duration.minutes(5);

/**
 * A handoff message carries the signed entry's bytes, up to DynamoDB's 400 KB item and at most doubled by JSON
 * escaping (core/pipeline/handoff-message.ts HANDOFF_MAX_BYTES): route queues and their DLQs take SQS's largest.
 */
export const HANDOFF_QUEUE_MAX_MESSAGE_BYTES = HANDOFF_MAX_BYTES;

export class Routes extends Construct {
  /** By queue key. */
  readonly routes: ReadonlyMap<string, QueueWithDlq>;
  readonly unrouted: QueueWithDlq;
  /** Each handoff queue's consumer policy (DocketPipeline.grantConsumeRoute attaches it). */
  readonly consumerPolicies: ReadonlyMap<QueueWithDlq, iam.ManagedPolicy>;

  constructor(scope: Construct, id: string, props: { readonly config: DocketConfig; readonly names: ResourceNames }) {
    super(scope, id);
    const c = props.config;
    const common = {
      visibilityTimeout: HANDOFF_VISIBILITY,
      retention: Duration.seconds(c.queueRetentionSeconds),
      dlqRetention: Duration.seconds(c.dlqRetentionSeconds),
      maxReceiveCount: c.maxReceiveCount,
      maxMessageSizeBytes: HANDOFF_QUEUE_MAX_MESSAGE_BYTES,
    };
    const routes = new Map<string, QueueWithDlq>();
    for (const [key, pair] of Object.entries(props.names.routes)) {
      routes.set(key, new QueueWithDlq(this, `Route-${key}`, { ...common, names: pair }));
    }
    this.routes = routes;
    this.unrouted = new QueueWithDlq(this, 'Unrouted', { ...common, names: props.names.unrouted });
    // One consumer policy per handoff queue, so each team reads only its own route (`docket handoffs`, ADR 0086).
    const consumerPolicies = new Map<QueueWithDlq, iam.ManagedPolicy>();
    this.consumerPolicies = consumerPolicies;
    for (const q of this.handoffQueues()) {
      const policy = new iam.ManagedPolicy(q, 'ConsumerPolicy', {
        managedPolicyName: `${q.names.queue}-consumer`,
        description: `Receive and acknowledge Docket handoffs on ${q.names.queue}`,
        statements: [
          new iam.PolicyStatement({
            actions: [
              'sqs:ChangeMessageVisibility',
              'sqs:DeleteMessage',
              'sqs:GetQueueAttributes',
              'sqs:GetQueueUrl',
              'sqs:ReceiveMessage',
            ],
            resources: [q.queue.queueArn],
          }),
          // `docket handoffs` moves a message that fails verification to the route's DLQ with its reason.
          new iam.PolicyStatement({
            actions: ['sqs:GetQueueUrl', 'sqs:SendMessage'],
            resources: [q.dlq.queueArn],
          }),
        ],
      });
      consumerPolicies.set(q, policy);
    }
  }

  /** Every handoff queue (never the DLQs): the deliver function may send to these and nothing else. */
  handoffQueues(): QueueWithDlq[] {
    return [...this.routes.values(), this.unrouted];
  }

  grantSend(grantee: iam.IGrantable): void {
    for (const q of this.handoffQueues()) q.queue.grantSendMessages(grantee);
  }

  /**
   * Only `sender` (the deliver role, docs/adr/0404-delivery-stage.md) may send to a handoff queue: a queue-policy
   * Deny for every other principal, whatever its identity policy allows
   * (docs/adr/0142-route-queues-accept-only-the-evaluator.md). Reading is untouched. Consumers verify every message
   * anyway (docs/pipeline.md): this narrows who can try.
   */
  restrictSenders(sender: iam.IRole): void {
    for (const q of this.handoffQueues()) {
      q.queue.addToResourcePolicy(
        denyExcept('DenySendExceptDeliverRole', ['sqs:SendMessage'], q.queue.queueArn, sender.roleArn),
      );
    }
  }
}
