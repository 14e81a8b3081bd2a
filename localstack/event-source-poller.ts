/**
 * Lambda's SQS event source mapping, emulated for the local stack (ADR 0065; shared notes "Lambda's SQS event
 * source mapping"): long-poll the queue, invoke the real handler with a faithful SQSEvent, delete exactly the records
 * not named in `batchItemFailures`, and leave everything else to reappear after the visibility timeout, so the
 * queue's own RedrivePolicy moves a message to its DLQ after maxReceiveCount.
 *
 * Response rules (as Lambda applies them with ReportBatchItemFailures):
 *   - null / undefined response, or null / empty `batchItemFailures` → every record succeeded;
 *   - a thrown error, a timeout, a response that is not an object, `batchItemFailures` that is not an array, or an
 *     item whose `itemIdentifier` is empty, not a string, or not a message id of this batch → the whole batch failed
 *     (nothing is deleted);
 *   - otherwise the named records failed and every other record is deleted.
 * Without ReportBatchItemFailures the response is ignored: the batch succeeds unless the handler throws.
 *
 * From a FIFO queue (its name ends in ".fifo"; docs/adr/0270-one-writer-per-log.md) Lambda keeps message order:
 * the first failed record and every record after it in the batch are kept, whatever the response names, so no
 * message of a group is deleted ahead of an earlier one; the queue itself (fauxqs, like SQS) hands out one group's
 * messages only while none of that group is in flight. FIFO event sources have no batching window. The records
 * carry MessageGroupId, MessageDeduplicationId and SequenceNumber in their attributes, as Lambda's do.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../adapters/aws-clients.js';
import { deleteMessages, getQueueAttributes, receiveMessages } from '../adapters/sqs.js';
import type { LocalEventSource } from './provision.js';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void | null | undefined>;

export interface PollerOptions {
  readonly queueUrl: string;
  readonly handler: SqsHandler;
  /** An SQS client to use; otherwise one is made for `endpoint`/`region` (the environment's when absent). */
  readonly client?: SQSClient;
  readonly endpoint?: string;
  readonly region?: string;
  /** Records per invocation (Lambda default 10). Above 10 the poller gathers several receives within the window. */
  readonly batchSize?: number;
  /** MaximumBatchingWindowInSeconds (default 0: invoke as soon as records arrive). */
  readonly maxBatchingWindowSeconds?: number;
  /** Overrides the queue's visibility timeout for received messages; the queue's own applies when absent. */
  readonly visibilityTimeout?: number;
  /** Long-poll wait per receive, 0–20 s (default 20, as Lambda's pollers use). */
  readonly waitTimeSeconds?: number;
  /** Concurrent pollers/invocations (ScalingConfig.MaximumConcurrency; default 1). */
  readonly concurrency?: number;
  /** FunctionResponseTypes includes ReportBatchItemFailures (default true). */
  readonly reportBatchItemFailures?: boolean;
  /** The function's timeout: an invocation still running after it counts as a failed batch (default: none). */
  readonly functionTimeoutSeconds?: number;
  readonly functionName?: string;
  /** The invoking instance's log stream (context.logStreamName; Lambda's differs per execution environment). */
  readonly logStreamName?: string;
  /** The queue's ARN (eventSourceARN); read from the queue when absent. */
  readonly queueArn?: string;
  /** Told about handler failures and poll errors (default: stderr). */
  readonly onError?: (error: unknown, where: 'handler' | 'response' | 'poll' | 'delete') => void;
  /** Told after each invocation, with the message ids deleted and kept. */
  readonly onBatch?: (report: BatchReport) => void;
}

export interface BatchReport {
  readonly messageIds: readonly string[];
  readonly deleted: readonly string[];
  readonly failed: readonly string[];
  readonly outcome: 'success' | 'partial' | 'failed';
  readonly reason?: string;
}

export interface PollerStats {
  invocations: number;
  records: number;
  deleted: number;
  failedBatches: number;
  partialBatches: number;
}

export interface Poller {
  readonly stats: Readonly<PollerStats>;
  /** Stops polling, waits for in-flight invocations to finish and their deletes to be sent. */
  stop(): Promise<void>;
}

export function startPoller(options: PollerOptions): Poller {
  const ownClient = options.client === undefined;
  const client = options.client ?? createSqsClient({ endpoint: options.endpoint, region: options.region });
  const batchSize = options.batchSize ?? 10;
  const fifo = options.queueUrl.endsWith('.fifo'); // SQS FIFO queue names (and so URLs) end in .fifo
  if (fifo && batchSize > 10) throw new RangeError('a FIFO event source takes at most 10 records per batch');
  const windowMs = fifo ? 0 : (options.maxBatchingWindowSeconds ?? 0) * 1000;
  const waitTimeSeconds = Math.min(20, Math.max(0, options.waitTimeSeconds ?? 20));
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const reportFailures = options.reportBatchItemFailures ?? true;
  const functionName = options.functionName ?? 'docket-local-function';
  const onError =
    options.onError ??
    ((e, where) => process.stderr.write(`[poller] ${where}: ${(e as Error)?.message ?? String(e)}\n`));
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) throw new RangeError('batchSize is 1–10000');

  const stats: PollerStats = { invocations: 0, records: 0, deleted: 0, failedBatches: 0, partialBatches: 0 };
  const abort = new AbortController();
  // Every concurrent poller's in-flight receive listens on this one signal (Node warns above 10 by default).
  setMaxListeners(concurrency + 10, abort.signal);
  let stopping = false;
  let queueArn: Promise<string> | undefined;
  const arn = (): Promise<string> =>
    (queueArn ??= options.queueArn
      ? Promise.resolve(options.queueArn)
      : getQueueAttributes(client, options.queueUrl).then((a) => a.QueueArn ?? ''));

  async function gather(): Promise<Message[]> {
    const batch: Message[] = [];
    const deadline = Date.now() + windowMs;
    while (!stopping && batch.length < batchSize) {
      const remainingWindow = deadline - Date.now();
      // The first receive long-polls; later ones (filling a batch within the window) wait at most what is left of it.
      const wait =
        batch.length === 0
          ? waitTimeSeconds
          : Math.max(0, Math.min(waitTimeSeconds, Math.floor(remainingWindow / 1000)));
      const got = await receiveMessages(client, options.queueUrl, {
        maxMessages: Math.min(10, batchSize - batch.length),
        waitTimeSeconds: wait,
        visibilityTimeout: options.visibilityTimeout,
        abortSignal: abort.signal,
      });
      batch.push(...got);
      if (batch.length > 0 && (got.length === 0 || Date.now() >= deadline)) break;
    }
    return batch;
  }

  async function invoke(messages: Message[]): Promise<void> {
    const eventSourceARN = await arn();
    const event: SQSEvent = { Records: messages.map((m) => toRecord(m, eventSourceARN)) };
    const ids = event.Records.map((r) => r.messageId);
    stats.invocations++;
    stats.records += ids.length;
    const verdict = await runHandler(event);
    const failedIds =
      verdict.kind === 'failed' ? new Set(ids) : fifo ? keptInOrder(ids, verdict.failed) : verdict.failed;
    const toDelete = event.Records.filter((r) => !failedIds.has(r.messageId));
    if (toDelete.length > 0) {
      try {
        await deleteMessages(
          client,
          options.queueUrl,
          toDelete.map((r) => r.receiptHandle),
        );
        stats.deleted += toDelete.length;
      } catch (e) {
        onError(e, 'delete');
      }
    }
    const outcome = failedIds.size === 0 ? 'success' : toDelete.length === 0 ? 'failed' : 'partial';
    if (outcome === 'failed') stats.failedBatches++;
    if (outcome === 'partial') stats.partialBatches++;
    options.onBatch?.({
      messageIds: ids,
      deleted: toDelete.map((r) => r.messageId),
      failed: ids.filter((id) => failedIds.has(id)),
      outcome,
      ...(verdict.kind === 'failed' ? { reason: verdict.reason } : {}),
    });
  }

  async function runHandler(
    event: SQSEvent,
  ): Promise<{ kind: 'failed'; reason: string } | { kind: 'ok'; failed: Set<string> }> {
    const started = Date.now();
    const timeoutMs = options.functionTimeoutSeconds !== undefined ? options.functionTimeoutSeconds * 1000 : undefined;
    const context = lambdaContext(functionName, options.logStreamName ?? 'local', started, timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    let response: unknown;
    try {
      const call = Promise.resolve().then(() => options.handler(event, context));
      response =
        timeoutMs === undefined
          ? await call
          : await Promise.race([
              call,
              new Promise((_, reject) => {
                timer = setTimeout(
                  () => reject(new Error(`Task timed out after ${options.functionTimeoutSeconds} seconds`)),
                  timeoutMs,
                );
              }),
            ]);
    } catch (e) {
      onError(e, 'handler');
      return { kind: 'failed', reason: `handler error: ${(e as Error)?.message ?? String(e)}` };
    } finally {
      if (timer) clearTimeout(timer);
    }
    if (!reportFailures) return { kind: 'ok', failed: new Set() };
    const read = readBatchResponse(response, new Set(event.Records.map((r) => r.messageId)));
    if (!read.ok) onError(new Error(read.reason), 'response');
    return read.ok ? { kind: 'ok', failed: read.failed } : { kind: 'failed', reason: read.reason };
  }

  async function worker(): Promise<void> {
    let backoff = 100;
    while (!stopping) {
      let batch: Message[];
      try {
        batch = await gather();
        backoff = 100;
      } catch (e) {
        if (stopping) break;
        onError(e, 'poll');
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(5000, backoff * 2);
        continue;
      }
      // Records received while stopping are still handed over: a receive made them invisible, so dropping them
      // would only delay them by a visibility timeout.
      if (batch.length > 0) await invoke(batch);
    }
  }

  const workers = Array.from({ length: concurrency }, () => worker());
  let stopped: Promise<void> | undefined;
  return {
    stats,
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        abort.abort();
        await Promise.allSettled(workers);
        if (ownClient) client.destroy();
      })()),
  };
}

/** FIFO: the first failed record and every later one of the batch are kept (see the header). */
export function keptInOrder(ids: readonly string[], failed: ReadonlySet<string>): Set<string> {
  const first = ids.findIndex((id) => failed.has(id));
  return first < 0 ? new Set() : new Set(ids.slice(first));
}

/** Reads a handler's answer under the ReportBatchItemFailures rules (see the header). */
export function readBatchResponse(
  response: unknown,
  batchIds: ReadonlySet<string>,
): { ok: true; failed: Set<string> } | { ok: false; reason: string } {
  if (response === undefined || response === null) return { ok: true, failed: new Set() };
  if (typeof response !== 'object' || Array.isArray(response))
    return { ok: false, reason: 'the response is not an object' };
  const items = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (items === undefined || items === null) return { ok: true, failed: new Set() };
  if (!Array.isArray(items)) return { ok: false, reason: 'batchItemFailures is not an array' };
  const failed = new Set<string>();
  for (const item of items) {
    const id =
      item !== null && typeof item === 'object' ? (item as { itemIdentifier?: unknown }).itemIdentifier : undefined;
    if (typeof id !== 'string' || id === '')
      return { ok: false, reason: 'a batchItemFailures item has no itemIdentifier' };
    if (!batchIds.has(id))
      return { ok: false, reason: `itemIdentifier ${JSON.stringify(id)} is not a message of this batch` };
    failed.add(id);
  }
  return { ok: true, failed };
}

/** The SQSRecord Lambda would build from a received message. */
export function toRecord(m: Message, eventSourceARN: string): SQSRecord {
  const a = m.Attributes ?? {};
  const attributes: SQSRecord['attributes'] = {
    ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
    SentTimestamp: a.SentTimestamp ?? '',
    SenderId: a.SenderId ?? '',
    ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? '',
    ...(a.SequenceNumber !== undefined ? { SequenceNumber: a.SequenceNumber } : {}),
    ...(a.MessageGroupId !== undefined ? { MessageGroupId: a.MessageGroupId } : {}),
    ...(a.MessageDeduplicationId !== undefined ? { MessageDeduplicationId: a.MessageDeduplicationId } : {}),
    ...(a.AWSTraceHeader !== undefined ? { AWSTraceHeader: a.AWSTraceHeader } : {}),
    ...(a.DeadLetterQueueSourceArn !== undefined ? { DeadLetterQueueSourceArn: a.DeadLetterQueueSourceArn } : {}),
  };
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, v] of Object.entries(m.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      dataType: v.DataType ?? 'String',
      ...(v.StringValue !== undefined ? { stringValue: v.StringValue } : {}),
      ...(v.BinaryValue !== undefined ? { binaryValue: Buffer.from(v.BinaryValue).toString('base64') } : {}),
      stringListValues: v.StringListValues ?? [],
      binaryListValues: (v.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
    };
  }
  return {
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes,
    messageAttributes,
    md5OfBody: m.MD5OfBody ?? '',
    ...(m.MD5OfMessageAttributes !== undefined ? { md5OfMessageAttributes: m.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion: eventSourceARN.split(':')[3] ?? '',
  };
}

function lambdaContext(
  functionName: string,
  logStreamName: string,
  started: number,
  timeoutMs: number | undefined,
): Context {
  const unsupported = (): never => {
    throw new Error('callback-style completion is not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName,
    getRemainingTimeInMillis: () => (timeoutMs === undefined ? 900_000 : Math.max(0, started + timeoutMs - Date.now())),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

/** The concurrent invocations an event source allows (ScalingConfig.MaximumConcurrency; 2, its minimum, when unset). */
export function eventSourceConcurrency(es: LocalEventSource): number {
  return es.maximumConcurrency ?? 2;
}

/** Poller settings read from the template's AWS::Lambda::EventSourceMapping (and its function and queue). */
export function pollerOptionsFromEventSource(
  es: LocalEventSource,
  handler: SqsHandler,
  extra: Partial<PollerOptions> = {},
): PollerOptions {
  return {
    queueUrl: es.queueUrl,
    queueArn: es.queueArn,
    handler,
    batchSize: es.batchSize,
    maxBatchingWindowSeconds: es.maxBatchingWindowSeconds,
    reportBatchItemFailures: es.reportBatchItemFailures,
    concurrency: eventSourceConcurrency(es),
    functionTimeoutSeconds: es.function.timeoutSeconds,
    functionName: es.function.logicalId,
    ...extra,
  };
}
