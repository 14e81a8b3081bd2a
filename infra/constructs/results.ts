/**
 * The results topic `docket-<stage>-results` (docs/pipeline.md "Result notifications"): every appended ledger entry
 * is published here as a docket.result/1 notification. KMS-encrypted with a key of its own; a topic-policy Deny
 * lets no principal but the deliver role publish (docs/adr/0404-delivery-stage.md; as the route queues accept only
 * that role, ADR 0142);
 * requesters subscribe their own SQS queues with filter policies, and `docket submit --wait` makes a short-lived
 * one (docs/adr/0173-submit-wait-listens-on-a-filtered-queue.md) under the waiter policy below.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Stack, Validations } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { grantKeyVia } from './key-grants.js';
import { denyExcept } from './deny-except.js';

export interface ResultsProps {
  readonly prefix: string;
  readonly topicName: string;
  /** Name prefix of the queues `docket submit --wait` creates and deletes (`<prefix>-wait-…`). */
  readonly waitQueuePrefix: string;
}

export class Results extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;
  /** Attach to requesters who run `docket submit --wait`: subscribe a short-lived queue of their own, then delete it. */
  readonly waiterPolicy: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, props: ResultsProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'TopicKey', {
      alias: `alias/${props.prefix}-results`,
      description: `Docket ${props.prefix}: results topic encryption`,
      enableKeyRotation: true,
    });
    this.topic = new sns.Topic(this, 'Topic', {
      topicName: props.topicName,
      masterKey: this.key,
      enforceSSL: true,
    });
    const stack = Stack.of(this);
    const waitQueues = stack.formatArn({ service: 'sqs', resource: `${props.waitQueuePrefix}-*` });
    this.waiterPolicy = new iam.ManagedPolicy(this, 'WaiterPolicy', {
      managedPolicyName: `${props.prefix}-results-waiter`,
      description: 'docket submit --wait: a short-lived queue subscribed to the results topic with a filter policy',
      statements: [
        new iam.PolicyStatement({
          actions: ['sns:Subscribe'],
          resources: [this.topic.topicArn],
          // Only SQS endpoints: a waiter cannot point the topic at e-mail, HTTP or a Lambda.
          conditions: { StringEquals: { 'sns:Protocol': 'sqs' } },
        }),
        // A subscription's ARN is the topic's ARN and an id.
        new iam.PolicyStatement({ actions: ['sns:Unsubscribe'], resources: [`${this.topic.topicArn}:*`] }),
        new iam.PolicyStatement({
          actions: [
            'sqs:CreateQueue',
            'sqs:DeleteQueue',
            'sqs:GetQueueAttributes',
            'sqs:GetQueueUrl',
            'sqs:SetQueueAttributes',
            'sqs:ReceiveMessage',
            'sqs:DeleteMessage',
          ],
          resources: [waitQueues],
        }),
      ],
    });
    Validations.of(this.waiterPolicy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${stack.resolve((this.topic.node.defaultChild as sns.CfnTopic).logicalId) as string}>:*]`,
      reason:
        'A waiter unsubscribes the subscription it made itself, whose ARN (the topic ARN and an id SNS assigns) is ' +
        'unknown at deploy time; the grant is sns:Unsubscribe on subscriptions of the results topic only.',
    });
    Validations.of(this.waiterPolicy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:sqs:<AWS::Region>:<AWS::AccountId>:${props.waitQueuePrefix}-*]`,
      reason:
        'Each docket submit --wait run creates and deletes a queue of its own with a fresh random name; the grant ' +
        'covers only queues under the stage wait prefix, which no other part of the stack uses.',
    });
  }

  /** `publisher` may publish (and use the topic key to do so); a topic-policy Deny refuses every other principal. */
  grantPublishOnly(publisher: iam.IRole): void {
    publisher.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sns:Publish'], resources: [this.topic.topicArn] }),
    );
    // Publishing to an encrypted topic uses its key, through SNS only (never directly).
    grantKeyVia(this.key, publisher, ['sns'], ['encrypt']);
    this.topic.addToResourcePolicy(
      denyExcept('DenyPublishExceptDeliverRole', ['sns:Publish'], this.topic.topicArn, publisher.roleArn),
    );
  }
}
