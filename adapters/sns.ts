/**
 * SNS calls Docket makes: publishing a result notification with its filter-policy attributes
 * (core/pipeline/result-notification.ts), and the short-lived filtered subscriptions of `docket submit --wait`.
 */
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sns, sqs } from './aws-sdk.js';
import { chunkEntries, failedEntries, withRetries, type FailedEntry, type RetryOptions } from './batch-calls.js';
import { messageBytes } from './sqs-message.js';

/** What is published: a notification's bytes and its String attributes (the pipeline's ResultMessage). */
export interface SnsMessage {
  readonly body: string;
  readonly attributes: Readonly<Record<string, string | undefined>>;
}

/** SNS's limits on one PublishBatch call: 10 entries, 262,144 bytes of messages and attributes in total. */
export const SNS_BATCH_MAX_ENTRIES = 10;
export const SNS_BATCH_MAX_BYTES = 262_144;

/** What one batch publish answers: the positions that were not published, and why (all others were). */
export interface SnsBatchReport {
  readonly failed: readonly { readonly index: number; readonly reason: string }[];
}

export interface SnsResultPublisher {
  /** Publishes in PublishBatch calls of at most 10 entries and SNS_BATCH_MAX_BYTES, retrying entries that failed. */
  publishBatch(messages: readonly SnsMessage[], retry?: RetryOptions): Promise<SnsBatchReport>;
}

/** Every attribute is an SNS String (core/pipeline/result-notification.ts keeps them valid); absent ones are left out. */
function snsAttributes(m: SnsMessage): Record<string, { DataType: string; StringValue: string }> {
  const attributes: Record<string, { DataType: string; StringValue: string }> = {};
  for (const [name, value] of Object.entries(m.attributes))
    if (value !== undefined) attributes[name] = { DataType: 'String', StringValue: value };
  return attributes;
}

/** Bytes SNS counts for a message: as SQS counts them, the body plus each attribute's name, type and value. */
export function snsMessageBytes(m: SnsMessage): number {
  return messageBytes({ body: m.body, attributes: snsAttributes(m) });
}

/** Publishes to `topicArn` in PublishBatch calls. */
export function snsResultPublisher(client: SNSClient, topicArn: string): SnsResultPublisher {
  return {
    async publishBatch(messages, retry = {}) {
      const entries = messages.map((m, i) => ({ id: String(i), m }));
      const published = new Set<string>();
      const failed: FailedEntry[] = [];
      // A message over the limit would make SNS refuse its whole call: refuse it alone, here.
      const sendable = entries.filter((e) => {
        if (snsMessageBytes(e.m) <= SNS_BATCH_MAX_BYTES) return true;
        failed.push({
          id: e.id,
          code: 'MessageTooLong',
          message: `exceeds ${SNS_BATCH_MAX_BYTES} bytes`,
          senderFault: true,
        });
        return false;
      });
      const groups = chunkEntries(sendable, (e) => snsMessageBytes(e.m), SNS_BATCH_MAX_ENTRIES, SNS_BATCH_MAX_BYTES);
      for (const group of groups) {
        try {
          const left = await withRetries(group, retry, async (pending) => {
            const out = await client.send(
              new sns.PublishBatchCommand({
                TopicArn: topicArn,
                PublishBatchRequestEntries: pending.map((e) => ({
                  Id: e.id,
                  Message: e.m.body,
                  MessageAttributes: snsAttributes(e.m),
                })),
              }),
            );
            for (const ok of out.Successful ?? []) if (ok.Id !== undefined) published.add(ok.Id);
            return failedEntries(out.Failed);
          });
          failed.push(...left);
        } catch (e) {
          // The call itself failed: none of its entries is known to be published; later groups are still tried.
          const message = e instanceof Error ? e.message : String(e);
          for (const x of group)
            if (!published.has(x.id)) failed.push({ id: x.id, code: 'CallFailed', message, senderFault: false });
        }
      }
      const named = new Set(failed.map((f) => f.id));
      for (const e of entries)
        if (!published.has(e.id) && !named.has(e.id))
          failed.push({
            id: e.id,
            code: 'NoAnswer',
            message: 'the batch answer named neither success nor failure',
            senderFault: false,
          });
      return { failed: failed.map((f) => ({ index: Number(f.id), reason: `${f.code}: ${f.message}` })) };
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
