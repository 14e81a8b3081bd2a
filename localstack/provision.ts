/**
 * Creates the template's tables and queues through the AWS wire protocol (so it works against the docker-free stack
 * and against real LocalStack alike) and returns what each logical id became locally. Idempotent: an existing table
 * with the same key schema or an existing queue with the same attributes is reused (a persistent dataDir).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateTopicCommand, type SNSClient } from '@aws-sdk/client-sns';
import {
  resolveIntrinsic,
  type EventSourcePlan,
  type FunctionPlan,
  type ResolvedResource,
  type StackPlan,
} from './template-plan.js';

export const LOCAL_ACCOUNT_ID = '000000000000';

export interface LocalQueue {
  readonly logicalId: string;
  readonly name: string;
  readonly url: string;
  readonly arn: string;
  readonly attributes: Record<string, string>;
}
export interface LocalTable {
  readonly logicalId: string;
  readonly name: string;
  readonly arn: string;
}

/** An event source mapping made concrete: the queue to poll and the function it feeds. */
export interface LocalEventSource extends EventSourcePlan {
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly queueName: string;
  /** The queue's visibility timeout in seconds (30 when the template leaves it unset). */
  readonly visibilityTimeoutSeconds: number;
  readonly function: FunctionPlan;
  /** The function's environment with every intrinsic the local stack can resolve (table names, queue URLs, …). */
  readonly environment: Record<string, string>;
}

export interface LocalBucket {
  readonly logicalId: string;
  readonly name: string;
}
export interface LocalTopic {
  readonly logicalId: string;
  readonly name: string;
  readonly arn: string;
}

export interface LocalResources {
  readonly tables: readonly LocalTable[];
  /** S3 buckets (the checkpoint export bucket) and SNS topics; absent when provisioned without them. */
  readonly buckets?: readonly LocalBucket[];
  readonly topics?: readonly LocalTopic[];
  readonly queues: readonly LocalQueue[];
  readonly eventSources: readonly LocalEventSource[];
  readonly byLogicalId: ReadonlyMap<string, ResolvedResource>;
  /** The queues the template denies SendMessage to for every principal (StackPlan.sendDeniedQueues). */
  readonly sendDeniedQueues?: readonly string[];
}

export class ProvisionError extends Error {
  readonly code = 'provision-failed';
}

export async function provision(
  plan: StackPlan,
  clients: { dynamodb: DynamoDBClient; sqs: SQSClient; s3?: S3Client; sns?: SNSClient },
  region: string,
): Promise<LocalResources> {
  const byLogicalId = new Map<string, ResolvedResource>();
  const tables: LocalTable[] = [];
  await Promise.all(
    plan.tables.map(async (t) => {
      await createTable(clients.dynamodb, t.input);
      const arn = `arn:aws:dynamodb:${region}:${LOCAL_ACCOUNT_ID}:table/${t.tableName}`;
      tables.push({ logicalId: t.logicalId, name: t.tableName, arn });
      byLogicalId.set(t.logicalId, { ref: t.tableName, attributes: { Arn: arn } });
    }),
  );
  const queues: LocalQueue[] = [];
  for (const q of plan.queues) {
    const attributes = { ...q.attributes };
    if (q.redrive) {
      const dlq = byLogicalId.get(q.redrive.deadLetterLogicalId);
      if (!dlq?.attributes.Arn)
        throw new ProvisionError(`dead-letter queue ${q.redrive.deadLetterLogicalId} was not created first`);
      attributes.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: dlq.attributes.Arn,
        maxReceiveCount: q.redrive.maxReceiveCount,
      });
    }
    const created = await clients.sqs.send(new CreateQueueCommand({ QueueName: q.queueName, Attributes: attributes }));
    const url = created.QueueUrl;
    if (!url) throw new ProvisionError(`CreateQueue ${q.queueName} answered without a URL`);
    const got = await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }));
    const arn = got.Attributes?.QueueArn;
    if (!arn) throw new ProvisionError(`queue ${q.queueName} has no QueueArn`);
    queues.push({ logicalId: q.logicalId, name: q.queueName, url, arn, attributes: got.Attributes ?? {} });
    byLogicalId.set(q.logicalId, { ref: url, attributes: { Arn: arn, QueueName: q.queueName, QueueUrl: url } });
  }
  const buckets: LocalBucket[] = [];
  if (clients.s3) {
    for (const b of plan.buckets) {
      await createBucket(clients.s3, b.bucketName);
      buckets.push({ logicalId: b.logicalId, name: b.bucketName });
      byLogicalId.set(b.logicalId, {
        ref: b.bucketName,
        attributes: { Arn: `arn:aws:s3:::${b.bucketName}`, DomainName: `${b.bucketName}.s3.amazonaws.com` },
      });
    }
  }
  const topics: LocalTopic[] = [];
  if (clients.sns) {
    for (const t of plan.topics) {
      const arn = (await clients.sns.send(new CreateTopicCommand({ Name: t.topicName }))).TopicArn;
      if (!arn) throw new ProvisionError(`CreateTopic ${t.topicName} answered without a TopicArn`);
      topics.push({ logicalId: t.logicalId, name: t.topicName, arn });
      byLogicalId.set(t.logicalId, { ref: arn, attributes: { TopicArn: arn, TopicName: t.topicName } });
    }
  }
  const functions = new Map(plan.functions.map((f) => [f.logicalId, f]));
  const ctx = { resources: byLogicalId, region, accountId: LOCAL_ACCOUNT_ID };
  const eventSources: LocalEventSource[] = plan.eventSources.map((es) => {
    const queue = queues.find((q) => q.logicalId === es.queueLogicalId);
    const fn = functions.get(es.functionLogicalId);
    if (!queue || !fn)
      throw new ProvisionError(`event source ${es.logicalId} names a queue or function that does not exist`);
    const environment: Record<string, string> = {};
    for (const [name, raw] of Object.entries(fn.environment)) {
      const value = resolveIntrinsic(raw, ctx);
      if (value !== undefined) environment[name] = value;
    }
    return {
      ...es,
      queueUrl: queue.url,
      queueArn: queue.arn,
      queueName: queue.name,
      visibilityTimeoutSeconds: Number(queue.attributes.VisibilityTimeout ?? 30),
      function: fn,
      environment,
    };
  });
  return { tables, buckets, topics, queues, eventSources, byLogicalId, sendDeniedQueues: plan.sendDeniedQueues };
}

async function createBucket(client: S3Client, name: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  } catch (e) {
    const n = (e as { name?: string }).name;
    if (n !== 'BucketAlreadyOwnedByYou' && n !== 'BucketAlreadyExists') throw e;
  }
}

async function createTable(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  try {
    await client.send(new CreateTableCommand(input));
  } catch (e) {
    if ((e as { name?: string }).name !== 'ResourceInUseException') throw e;
    const existing = await client.send(new DescribeTableCommand({ TableName: input.TableName }));
    const want = JSON.stringify(input.KeySchema);
    const have = JSON.stringify(
      existing.Table?.KeySchema?.map((k) => ({ AttributeName: k.AttributeName, KeyType: k.KeyType })),
    );
    if (want !== have) throw new ProvisionError(`table ${input.TableName} exists with another key schema (${have})`);
  }
  for (let i = 0; i < 200; i++) {
    const d = await client.send(new DescribeTableCommand({ TableName: input.TableName }));
    if (d.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new ProvisionError(`table ${input.TableName} did not become ACTIVE`);
}
