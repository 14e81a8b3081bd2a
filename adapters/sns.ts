/**
 * SNS calls Docket makes: publishing a result notification with its filter-policy attributes
 * (core/pipeline/result-notification.ts), and the short-lived filtered subscriptions of `docket submit --wait`.
 */
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sns, sqs } from './aws-sdk.js';

/** What is published: a notification's bytes and its String attributes (the pipeline's ResultMessage). */
export interface SnsMessage {
  readonly body: string;
  readonly attributes: Readonly<Record<string, string | undefined>>;
}

/** Publishes to `topicArn`; every attribute is an SNS String (core/pipeline/result-notification.ts keeps them valid). */
export function snsResultPublisher(client: SNSClient, topicArn: string): { publish(m: SnsMessage): Promise<void> } {
  return {
    async publish(m) {
      const attributes: Record<string, { DataType: string; StringValue: string }> = {};
      for (const [name, value] of Object.entries(m.attributes))
        if (value !== undefined) attributes[name] = { DataType: 'String', StringValue: value };
      await client.send(new sns.PublishCommand({ TopicArn: topicArn, Message: m.body, MessageAttributes: attributes }));
    },
  };
}

/** A short-lived SQS queue subscribed to a topic under one or more filter policies (`docket submit --wait`). */
export interface FilteredSubscription {
  readonly queueUrl: string;
  /** Unsubscribes every subscription, then deletes the queue; safe to call twice, and after a partial open. */
  close(): Promise<void>;
}

export interface FilteredSubscriptionOptions {
  readonly topicArn: string;
  readonly queueName: string;
  readonly filterPolicies: readonly string[];
}

/**
 * Creates the queue, lets the topic (only) send to it, and subscribes it with raw delivery once per filter policy.
 * On any failure what was made so far is removed before the error is rethrown.
 */
export async function openFilteredSubscription(
  snsClient: SNSClient,
  sqsClient: SQSClient,
  o: FilteredSubscriptionOptions,
): Promise<FilteredSubscription> {
  const subscriptions: string[] = [];
  let queueUrl: string | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    const problems: unknown[] = [];
    for (const arn of subscriptions)
      await snsClient
        .send(new sns.UnsubscribeCommand({ SubscriptionArn: arn }))
        .catch((e: unknown) => problems.push(e));
    if (queueUrl !== undefined)
      await sqsClient.send(new sqs.DeleteQueueCommand({ QueueUrl: queueUrl })).catch((e: unknown) => problems.push(e));
    if (problems.length > 0) throw problems[0];
  };
  try {
    queueUrl = (await sqsClient.send(new sqs.CreateQueueCommand({ QueueName: o.queueName }))).QueueUrl;
    if (queueUrl === undefined) throw new Error(`CreateQueue ${o.queueName} answered without a URL`);
    const attrs = await sqsClient.send(
      new sqs.GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
    );
    const queueArn = attrs.Attributes?.QueueArn;
    if (queueArn === undefined) throw new Error(`queue ${o.queueName} has no QueueArn`);
    // In AWS the topic may deliver only when the queue's policy lets SNS send for this topic.
    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'sns.amazonaws.com' },
          Action: 'sqs:SendMessage',
          Resource: queueArn,
          Condition: { ArnEquals: { 'aws:SourceArn': o.topicArn } },
        },
      ],
    };
    await sqsClient.send(
      new sqs.SetQueueAttributesCommand({ QueueUrl: queueUrl, Attributes: { Policy: JSON.stringify(policy) } }),
    );
    for (const filter of o.filterPolicies) {
      const sub = await snsClient.send(
        new sns.SubscribeCommand({
          TopicArn: o.topicArn,
          Protocol: 'sqs',
          Endpoint: queueArn,
          Attributes: { FilterPolicy: filter, RawMessageDelivery: 'true' },
          ReturnSubscriptionArn: true,
        }),
      );
      if (sub.SubscriptionArn) subscriptions.push(sub.SubscriptionArn);
    }
  } catch (e) {
    await close().catch(() => undefined);
    throw e;
  }
  return { queueUrl, close };
}
