/**
 * Wires the pipeline (core/pipeline) to the AWS adapters for the evaluate function: built once per cold start,
 * reused by every invocation (compiled packs stay cached). Everything configurable comes from the function
 * environment that infra/function-environment.ts builds, for the cloud and for the local stack alike.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createDynamoDbClient, createSqsClient } from '../../adapters/aws-clients.js';
import { DynamoDbLedgerStore } from '../../adapters/dynamodb-ledger-store.js';
import { DynamoDbPackRegistry, RegistryIntegrityError } from '../../adapters/dynamodb-pack-registry.js';
import { DynamoDbGraphRegistry } from '../../adapters/dynamodb-graph-registry.js';
import { Lru, type GraphRegistry, type LoadedGraph } from '../../core/admission/index.js';
import { reasonAttributes } from '../../adapters/dead-letter-copy.js';
import { DynamoDbRequestArchive } from '../../adapters/dynamodb-request-archive.js';
import { sendByPosition, sendMessage } from '../../adapters/sqs.js';
import { DEFAULT_WORK_BUDGET, EVALUATOR_IDENTITY, MAX_WORK_BUDGET } from '../../core/evaluate/index.js';
import { closureDigest } from '../../core/graph-closure/index.js';
import { backoffDelayMs, MAX_GROUP_MEMBERS, type Signer } from '../../core/ledger/index.js';
import {
  cachedPackSource,
  deliveryJobBytes,
  forwardDeduplicationId,
  handleBatch,
  ledgerMessageBytes,
  LedgerWriteError,
  ledgerWriter,
  processRequest,
  type BatchRecord,
  type DeliveryJobSender,
  type GraphReadFailure,
  type PackBytesSource,
  type PipelineConfig,
  type PipelinePorts,
  type ProcessOutcome,
  type SequencedLedgerWriter,
} from '../../core/pipeline/index.js';
import { draftFeaturesFromEnv, jsonArray, requiredEnv } from './environment-lists.js';
import { distinctFailures, ledgerQueueRecords, type LedgerQueueRecord } from './ledger-queue-records.js';
import { silentObservability, type Observability } from './observability.js';

export interface EvaluateRuntime {
  handle(event: SQSEvent): Promise<SQSBatchResponse>;
}

export interface RuntimeParts {
  readonly config: PipelineConfig;
  /** The pipeline's ports but the ledger. */
  readonly ports: Omit<PipelinePorts, 'ledger'>;
  /**
   * The ledger writer. Each record of the FIFO ledger queue is written through `forLog(group)`: to its group's log
   * only (docs/adr/0270-one-writer-per-log.md).
   */
  readonly ledger: SequencedLedgerWriter;
  /**
   * Sends a request whose claim fixes another log on to that log's FIFO group (claim-in-other-log). Absent, such a
   * record fails with the typed error and is redelivered (then dead-lettered by the queue's redrive).
   */
  readonly forward?: (record: BatchRecord, logId: string) => Promise<void>;
  /** Sends the batch's delivery jobs to the delivery stage (docs/adr/0404-delivery-stage.md). */
  readonly jobs: DeliveryJobSender;
  /** Sends a message the ledger cannot record (no usable id, or an id recorded for other bytes) to the rejects queue. */
  readonly deadLetter: (
    record: BatchRecord & { readonly intakeMessageId?: string | undefined },
    o: Extract<ProcessOutcome, { status: 'dead-letter' }>,
  ) => Promise<void>;
  readonly observability?: Observability;
  /** Records processed at once (default RECORD_CONCURRENCY). */
  readonly concurrency?: number;
}

/**
 * Requests of a batch processed at once: as many as one bundle holds (MAX_GROUP_MEMBERS), so a batch's requests reach
 * the log's group commit together and go in one PutItem, not one per few (docs/adr/0506-a-batch-is-one-bundle.md).
 */
export const RECORD_CONCURRENCY = MAX_GROUP_MEMBERS;

/** Each request in flight has a claim and an archive put open at once; the head read and the bundle put need one more. */
const DYNAMODB_SOCKETS = 2 * RECORD_CONCURRENCY + 2;

export function createEvaluateRuntime(parts: RuntimeParts): EvaluateRuntime {
  const obs = parts.observability ?? silentObservability;
  return {
    async handle(event) {
      const records = ledgerQueueRecords(event.Records ?? []);
      // Heads are read once per log per batch and checked against what this instance wrote (ADR 0271).
      parts.ledger.forgetHeads();
      try {
        const answer = await handleBatch(records, {
          process: async (bytes, record) => {
            const invalid = (record as LedgerQueueRecord).invalid;
            if (invalid !== undefined)
              return { status: 'dead-letter', code: 'ledger-message-invalid', message: invalid };
            // A record without a group (not from the FIFO ledger queue) is refused by the writer: not-a-log-group.
            const ledger = parts.ledger.forLog(record.groupId ?? '');
            try {
              return await processRequest(bytes, parts.config, { ...parts.ports, ledger });
            } catch (e) {
              if (!(e instanceof LedgerWriteError) || e.code !== 'claim-in-other-log' || parts.forward === undefined)
                throw e;
              // Never written from this group: on to the group of the log its claim fixed (ADR 0270).
              await parts.forward(record, e.logId);
              return { status: 'forwarded', requestId: e.requestId, logId: e.logId, message: e.message };
            }
          },
          jobs: parts.jobs,
          deadLetter: (record, o) => parts.deadLetter(record as LedgerQueueRecord, o),
          observer: obs,
          concurrency: parts.concurrency ?? RECORD_CONCURRENCY,
        });
        return { batchItemFailures: distinctFailures(answer.batchItemFailures) };
      } finally {
        obs.flush();
      }
    },
  };
}

function positiveInt(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`${name} must be a positive integer`);
  return n;
}

/** The pipeline configuration from the function environment (infra/function-environment.ts names). */
export function pipelineConfigFromEnv(env: NodeJS.ProcessEnv, buildDigest: string): PipelineConfig {
  const logIds = jsonArray(env.LOG_IDS, 'LOG_IDS');
  if (logIds.length === 0) throw new TypeError('LOG_IDS must name at least one log');
  const maxWorkBudget = Math.min(positiveInt(env.MAX_WORK_BUDGET, MAX_WORK_BUDGET, 'MAX_WORK_BUDGET'), MAX_WORK_BUDGET);
  // Absent, the evaluator's own default (ADR 0034), as infra/config.ts deploys it: one default for every path.
  const defaultWorkBudget = positiveInt(env.DEFAULT_WORK_BUDGET, DEFAULT_WORK_BUDGET, 'DEFAULT_WORK_BUDGET');
  if (defaultWorkBudget > maxWorkBudget) throw new TypeError('DEFAULT_WORK_BUDGET exceeds MAX_WORK_BUDGET');
  const draftFeatures = draftFeaturesFromEnv(env.DRAFT_FEATURES);
  return {
    logIds,
    supportedExtensions: jsonArray(env.SUPPORTED_EXTENSIONS, 'SUPPORTED_EXTENSIONS'),
    defaultWorkBudget,
    maxWorkBudget,
    evaluator: { name: EVALUATOR_IDENTITY.name, version: EVALUATOR_IDENTITY.version, buildDigest },
    ...(draftFeatures.length > 0 ? { draftFeatures } : {}),
  };
}

/**
 * Rejects: SQS delivers only the body to the handler, so the reason travels as message attributes on a copy sent to
 * the rejects queue (REJECTS_QUEUE_URL; docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md), never
 * to a DLQ, which only SQS's redrive fills (ADR 0455). If the send fails the record fails and is redelivered (after
 * maxReceiveCount receives SQS's redrive moves it to the ledger queue's DLQ): nothing is lost either way (ADR 0071).
 */
export function sqsRejects(sqs: SQSClient, rejectsQueueUrl: string): RuntimeParts['deadLetter'] {
  return async (record, o) => {
    await sendMessage(sqs, rejectsQueueUrl, {
      body: record.body,
      attributes: {
        // The message the requester sent (its intake id, carried through the FIFO ledger queue by the sequencer).
        ...reasonAttributes(o.code, o.message, record.intakeMessageId ?? record.messageId),
        ...(o.requestId ? { RequestId: { DataType: 'String', StringValue: o.requestId } } : {}),
      },
    });
  };
}

/**
 * The published graphs for graph requests (ADR 0360), over the registry that re-checks every read as a closed set
 * (ADR 0340). A published digest names one closed set forever, so a checked graph is kept per cold start (a few).
 */
export function cachedGraphRegistry(graphs: DynamoDbGraphRegistry, capacity = 16): GraphRegistry<GraphReadFailure> {
  const cache = new Lru<string, LoadedGraph>(capacity);
  return {
    resolveGraphAlias: (alias) => unlessIntegrityFault(() => graphs.resolveGraphAlias(alias)),
    async loadGraph(digest) {
      const hit = cache.get(digest);
      if (hit !== undefined) return hit;
      const g = await unlessIntegrityFault(() => graphs.getGraph(digest));
      if (g !== null && 'status' in g) return g;
      if (g === null) return null; // not cached: it may be published later
      const loaded: LoadedGraph = { digest: g.digest, bytes: g.bytes, closure: g.closure, project: g.project };
      // Only the closed set the digest names is kept (ADR 0450): a rewritten closure is refused on every request.
      const named = closureDigest(g.closure);
      if (named.ok && named.value === `sha256:${digest}`) cache.set(digest, loaded);
      return loaded;
    },
  };
}

export interface EnvRuntimeOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly signer: Signer;
  readonly buildDigest: string;
  readonly observability?: Observability;
  readonly dynamodb?: DynamoDBClient;
  readonly sqs?: SQSClient;
  /** Wraps the delivery job sender (fault injection in tests: "the job is not sent after the ledger write"). */
  readonly wrapJobs?: (s: DeliveryJobSender) => DeliveryJobSender;
  readonly now?: () => string;
  /** A uniform draw in [0, 1) for the lost-slot backoff's jitter (default Math.random; tests pass a seeded one). */
  readonly random?: () => number;
}

/**
 * Sends a request on to the FIFO ledger queue group of the log its claim fixes (claim-in-other-log, ADR 0270): a
 * ledger message of that one request, keeping its intake message id for dead letters.
 */
export function sqsLedgerForwarder(sqs: SQSClient, ledgerQueueUrl: string) {
  return async (record: LedgerQueueRecord, logId: string): Promise<void> => {
    const body = ledgerMessageBytes([
      {
        body: record.body,
        intakeMessageId: record.intakeMessageId ?? record.messageId,
        ...(record.intakeSentTimestamp !== undefined ? { intakeSentTimestamp: record.intakeSentTimestamp } : {}),
      },
    ]);
    // It arrived in a message no larger, so it fits one; if not, the record fails and is redelivered.
    if (!body.ok) throw new TypeError(body.error.message);
    await sendMessage(sqs, ledgerQueueUrl, {
      body: body.value,
      groupId: logId,
      deduplicationId: forwardDeduplicationId(body.value, logId),
    });
  };
}

/**
 * Delivery jobs to the delivery queue (docs/adr/0404-delivery-stage.md) in SendMessageBatch calls, each job's bytes
 * from its one serializer; jobs still failing are answered by position, so the batch fails exactly their records.
 */
export function sqsDeliveryJobSender(sqs: SQSClient, queueUrl: string): DeliveryJobSender {
  return {
    send: (jobs) =>
      sendByPosition(
        sqs,
        queueUrl,
        jobs.map((job) => {
          const body = deliveryJobBytes(job);
          if (!body.ok) throw new TypeError(body.error.message); // a bug here, not input: the batch is retried
          return { body: body.value };
        }),
      ),
  };
}

export function evaluateRuntimeFromEnv(o: EnvRuntimeOptions): EvaluateRuntime {
  const env = o.env;
  const ddb = o.dynamodb ?? createDynamoDbClient({ maxSockets: DYNAMODB_SOCKETS }, env);
  const sqs = o.sqs ?? createSqsClient({}, env);
  const need = (name: string): string => requiredEnv(env, name);
  const config = pipelineConfigFromEnv(env, o.buildDigest);
  const store = new DynamoDbLedgerStore({ client: ddb, tableName: need('LEDGER_TABLE') });
  const registry = new DynamoDbPackRegistry({ client: ddb, tableName: need('PACKS_TABLE') });
  const archive = new DynamoDbRequestArchive({ client: ddb, tableName: need('REQUESTS_TABLE') });
  // DELIVERY_QUEUE_URL: the delivery stage delivers every recorded entry (ADR 0404).
  const jobs = sqsDeliveryJobSender(sqs, need('DELIVERY_QUEUE_URL'));
  const random = o.random ?? Math.random;
  return createEvaluateRuntime({
    config,
    ports: {
      packs: cachedPackSource(integrityAsUnreadable(registry), config.draftFeatures),
      archive,
      graphs: cachedGraphRegistry(new DynamoDbGraphRegistry({ client: ddb, tableName: need('PACKS_TABLE') })),
    },
    ledger: ledgerWriter({
      store,
      signer: o.signer,
      logIds: config.logIds,
      now: o.now ?? (() => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')),
      // Jitter is drawn here, at the edge: core has no randomness nor clock (ADR 0272).
      backoff: (attempt) => new Promise((res) => setTimeout(res, backoffDelayMs(attempt, random()))),
    }),
    // LEDGER_QUEUE_URL (infra/function-environment.ts): the FIFO ledger queue, where a claim-in-other-log goes on.
    forward: sqsLedgerForwarder(sqs, need('LEDGER_QUEUE_URL')),
    jobs: o.wrapJobs?.(jobs) ?? jobs,
    deadLetter: sqsRejects(sqs, need('REJECTS_QUEUE_URL')),
    ...(o.observability ? { observability: o.observability } : {}),
  });
}

/**
 * The pack registry with every item it holds but cannot serve (RegistryIntegrityError: pack bytes that do not hash to
 * their digest, an alias with no valid digest) answered as unreadable, so the request is recorded as the refusal
 * pack-unreadable or alias-unreadable at once (docs/adr/0485-a-poison-pack-is-a-recorded-refusal.md).
 */
export function integrityAsUnreadable(registry: DynamoDbPackRegistry): PackBytesSource {
  return {
    getPack: (digest) => unlessIntegrityFault(() => registry.getPack(digest)),
    resolveAlias: (alias) => unlessIntegrityFault(() => registry.resolveAlias(alias)),
  };
}

/**
 * A graph or pack the registry holds but cannot serve (RegistryIntegrityError) is answered as unreadable, so the
 * request is recorded as a refusal at once (docs/adr/0456-a-poison-graph-is-a-recorded-refusal.md, ADR 0485); any
 * other failure (a store fault) is thrown and retried.
 */
async function unlessIntegrityFault<T>(
  read: () => Promise<T>,
): Promise<T | { readonly status: 'unreadable'; readonly reason: GraphReadFailure; readonly detail: string }> {
  try {
    return await read();
  } catch (e) {
    if (!(e instanceof RegistryIntegrityError)) throw e;
    return { status: 'unreadable', reason: 'registry-integrity', detail: e.message };
  }
}
