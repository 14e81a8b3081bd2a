/**
 * The delivery stage's work (docs/adr/0404-delivery-stage.md): each SQS record is one delivery job
 * (`docket.delivery-job/1`); the job is read strictly, its entries read back from the ledger, their positions written,
 * and their handoffs and notifications sent (core/pipeline/deliver-job.ts). Jobs of one invocation run at once; the
 * answer is a partial batch response naming the jobs to retry.
 *
 * A job that is not a job, or names a seq that holds no entry of the named request, is never retried: it is sent to
 * the delivery DLQ with its reason (every message accounted for) and counted, since only a writer of the queue who is
 * not the evaluate function can have made it.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createDynamoDbClient, createSnsClient, createSqsClient } from '../../adapters/aws-clients.js';
import { reasonAttributes } from '../../adapters/dead-letter-copy.js';
import { DynamoDbLedgerStore } from '../../adapters/dynamodb-ledger-store.js';
import { DynamoDbPackRegistry } from '../../adapters/dynamodb-pack-registry.js';
import { snsResultPublisher } from '../../adapters/sns.js';
import { sendMessage } from '../../adapters/sqs.js';
import {
  cachedPackSource,
  deliverJob,
  parseRouteQueues,
  readDeliveryJob,
  type DeliveredJob,
  type DeliveryJob,
  type DeliverJobPorts,
  type HandoffBatchSender,
  type ResultBatchPublisher,
  type RouteQueueConfig,
} from '../../core/pipeline/index.js';
import { draftFeaturesFromEnv, requiredEnv } from './environment-lists.js';
import { sqsHandoffSender } from './outbox-ports.js';

export interface DeliverRuntime {
  handle(event: SQSEvent): Promise<SQSBatchResponse>;
}

export interface JobRecord {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount: number;
}

export interface DeliverObserver {
  /** Every entry of the job was placed and every message sent. */
  delivered(record: JobRecord, job: DeliveryJob, result: DeliveredJob): void;
  /** Not a job, or a job naming no entry: dead-lettered with `code`, never retried. */
  refused(record: JobRecord, code: string, message: string): void;
  /** Retried: a store, pack or send failure. */
  failed(record: JobRecord, error: unknown): void;
  flush(): void;
}

export const silentDeliverObserver: DeliverObserver = { delivered() {}, refused() {}, failed() {}, flush() {} };

export interface DeliverParts {
  readonly config: RouteQueueConfig;
  readonly ports: DeliverJobPorts;
  /** Sends a refused job to the delivery DLQ with its reason; a failed send throws (the job is then retried). */
  readonly deadLetter: (record: JobRecord, code: string, message: string) => Promise<void>;
  readonly observer?: DeliverObserver;
}

const enc = new TextEncoder();

export function createDeliverRuntime(parts: DeliverParts): DeliverRuntime {
  const obs = parts.observer ?? silentDeliverObserver;
  const refuse = async (r: JobRecord, code: string, message: string): Promise<void> => {
    await parts.deadLetter(r, code, message);
    obs.refused(r, code, message);
  };
  /** True when the job is done with (delivered or dead-lettered); false to retry it. */
  const one = async (r: JobRecord): Promise<boolean> => {
    try {
      const job = readDeliveryJob(enc.encode(r.body));
      if (!job.ok) return (await refuse(r, job.error.code, job.error.message), true);
      const done = await deliverJob(job.value, parts.config, parts.ports);
      if (!done.ok) return (await refuse(r, done.error.code, done.error.message), true);
      const first = done.value.undelivered.values().next();
      if (!first.done) {
        obs.failed(r, first.value);
        return false;
      }
      obs.delivered(r, job.value, done.value);
      return true;
    } catch (e) {
      obs.failed(r, e);
      return false;
    }
  };
  return {
    async handle(event) {
      const records: JobRecord[] = (event.Records ?? []).map((r) => ({
        messageId: r.messageId,
        body: r.body,
        receiveCount: Number(r.attributes?.ApproximateReceiveCount ?? '1'),
      }));
      try {
        const done = await Promise.all(records.map(one));
        // A standard queue: any subset may be retried, each job on its own.
        return { batchItemFailures: records.filter((_r, i) => !done[i]).map((r) => ({ itemIdentifier: r.messageId })) };
      } finally {
        obs.flush();
      }
    },
  };
}

export interface DeliverEnvOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly observer?: DeliverObserver;
  readonly dynamodb?: DynamoDBClient;
  readonly sqs?: SQSClient;
  readonly sns?: SNSClient;
  /** Wraps the handoff sender (fault injection in tests). */
  readonly wrapSender?: (s: HandoffBatchSender) => HandoffBatchSender;
  /** Wraps the result publisher (fault injection in tests). */
  readonly wrapPublisher?: (p: ResultBatchPublisher) => ResultBatchPublisher;
}

/** The delivery stage from the function environment (infra/function-environment.ts `deliverEnvironment`). */
export function deliverRuntimeFromEnv(o: DeliverEnvOptions): DeliverRuntime {
  const env = o.env;
  const need = (name: string): string => requiredEnv(env, name);
  const ddb = o.dynamodb ?? createDynamoDbClient({}, env);
  const sqs = o.sqs ?? createSqsClient({}, env);
  const dlqUrl = need('DELIVERY_DLQ_URL');
  const registry = new DynamoDbPackRegistry({ client: ddb, tableName: need('PACKS_TABLE') });
  const sender = sqsHandoffSender(sqs);
  const publisher = snsResultPublisher(o.sns ?? createSnsClient({}, env), need('RESULTS_TOPIC_ARN'));
  return createDeliverRuntime({
    config: { routeQueues: parseRouteQueues(env.ROUTE_QUEUES), unroutedQueue: need('UNROUTED_QUEUE_URL') },
    ports: {
      store: new DynamoDbLedgerStore({ client: ddb, tableName: need('LEDGER_TABLE') }),
      // Only target-only packs are loaded (a handoff's target, §8.3); draft features as the evaluate function has them.
      packs: cachedPackSource(registry, draftFeaturesFromEnv(env.DRAFT_FEATURES)),
      outbox: {
        handoffs: o.wrapSender?.(sender) ?? sender,
        results: o.wrapPublisher?.(publisher) ?? publisher,
      },
    },
    deadLetter: async (r, code, message) => {
      await sendMessage(sqs, dlqUrl, { body: r.body, attributes: reasonAttributes(code, message, r.messageId) });
    },
    ...(o.observer ? { observer: o.observer } : {}),
  });
}
