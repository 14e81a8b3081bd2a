/**
 * Per-route handoff queues (one per distinct queue key in config.routes) plus the `unrouted` queue for direct
 * exception escalations without an escalation object (§8.1), each with a DLQ for consumers that keep failing.
 */
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { DocketConfig } from '../config.js';
import type { ResourceNames } from '../names.js';
import { QueueWithDlq } from './intake.js';

/** Consumers (people using `docket handoffs`, or systems) get five minutes to acknowledge a handoff. */
const HANDOFF_VISIBILITY = Duration.minutes(5);

export class Routes extends Construct {
  /** By queue key. */
  readonly routes: ReadonlyMap<string, QueueWithDlq>;
  readonly unrouted: QueueWithDlq;

  constructor(scope: Construct, id: string, props: { readonly config: DocketConfig; readonly names: ResourceNames }) {
    super(scope, id);
    const c = props.config;
    const common = {
      visibilityTimeout: HANDOFF_VISIBILITY,
      retention: Duration.seconds(c.queueRetentionSeconds),
      dlqRetention: Duration.seconds(c.dlqRetentionSeconds),
      maxReceiveCount: c.maxReceiveCount,
    };
    const routes = new Map<string, QueueWithDlq>();
    for (const [key, pair] of Object.entries(props.names.routes)) {
      routes.set(key, new QueueWithDlq(this, `Route-${key}`, { ...common, names: pair }));
    }
    this.routes = routes;
    this.unrouted = new QueueWithDlq(this, 'Unrouted', { ...common, names: props.names.unrouted });
    // One consumer policy per handoff queue, so each team reads only its own route (`docket handoffs`, ADR 0086).
    for (const q of this.handoffQueues()) {
      new iam.ManagedPolicy(q, 'ConsumerPolicy', {
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
        ],
      });
    }
  }

  /** Every handoff queue (never the DLQs): the evaluate function may send to these and nothing else. */
  handoffQueues(): QueueWithDlq[] {
    return [...this.routes.values(), this.unrouted];
  }

  grantSend(grantee: iam.IGrantable): void {
    for (const q of this.handoffQueues()) q.queue.grantSendMessages(grantee);
  }
}
