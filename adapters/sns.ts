/**
 * SNS calls Docket makes: publishing a result notification with its filter-policy attributes
 * (core/pipeline/result-notification.ts), and the short-lived filtered subscriptions of `docket submit --wait`.
 */
import type { SNSClient } from '@aws-sdk/client-sns';
import { sns } from './aws-sdk.js';

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
