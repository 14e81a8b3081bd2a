/**
 * A route-queue consumer for AWS Lambda (docs/pipeline.md "Verifying a handoff";
 * docs/adr/0443-handoff-consumer-claims-before-it-handles.md). Each SQS record is verified offline against the
 * pinned trust policy and the queue's route (core/pipeline/handoff-verdict.ts); a refused one is sent to the route's
 * DLQ with its `DocketReason` (adapters/dead-letter-copy.ts) and acknowledged; a verified one is claimed by its
 * `handoffId` (adapters/seen-handoffs.ts) — a repeat is acknowledged without handling — and only then handed to
 * `handle`. A record that could not be finished (handling threw, the DLQ send failed, another invocation holds its
 * claim) is reported in `batchItemFailures` (ReportBatchItemFailures), so SQS redelivers only it.
 *
 * The consumer deletes nothing itself: the Lambda event source deletes every record not reported as failed.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
// The handoff modules themselves, not core/pipeline's index: the index reaches the whole pipeline (admission,
// graphs, generated validators), which a consumer Lambda would then carry — 1.4 MB instead of 75 KB (ADR 0443).
import { readTrustPolicy, type TrustPolicy } from '../core/ledger/trust-policy/index.js';
import type { HandoffMessage } from '../core/pipeline/handoff-message.js';
import { verifyHandoffText, type HandoffRejection, type RouteQueueOfReader } from '../core/pipeline/handoff-verdict.js';
import { deadLetterCopy } from './dead-letter-copy.js';
import { memorySeenHandoffs, type SeenHandoffs } from './seen-handoffs.js';
import { useFastestLedgerCrypto } from './sodium-ledger-crypto.js';
import { MAX_BATCH_BYTES, messageBytes } from './sqs-message.js';

/** The members of a Lambda SQS record the consumer reads (structurally the `SQSRecord` of @types/aws-lambda). */
export interface SqsRecord {
  readonly messageId: string;
  readonly receiptHandle?: string;
  readonly body: string;
}
export interface SqsEvent {
  readonly Records: readonly SqsRecord[];
}
/** Lambda's partial batch response (`SQSBatchResponse`). */
export interface SqsBatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/** A refused record, as `onRefused` sees it. */
export interface RefusedHandoff {
  readonly messageId: string;
  readonly reason: HandoffRejection;
  readonly detail: string;
}

export interface HandoffConsumerOptions {
  /** The pinned trust policy, read (`readTrustPolicy`) or as its file's bytes. */
  readonly policy: TrustPolicy | Uint8Array;
  /** The queue this function reads and the deployment's routes (core/pipeline/handoff-verdict.ts). */
  readonly routeQueue: RouteQueueOfReader;
  /** Called once per verified, new handoff. Throwing leaves the record to be retried. */
  readonly handle: (handoff: HandoffMessage, record: SqsRecord) => unknown;
  /** The route's dead-letter queue, where refused messages go with their reason. */
  readonly deadLetterQueueUrl: string;
  /** The SQS client the DLQ copies are sent with (default: `new SQSClient({})`, the Lambda's region and role). */
  readonly sqs?: Pick<SQSClient, 'send'>;
  /** Handled ids (default: in memory, this execution environment only; use dynamoDbSeenHandoffs in production). */
  readonly seen?: SeenHandoffs;
  /** Told of every refused record after it was sent to the DLQ (for logs and metrics). */
  readonly onRefused?: (refused: RefusedHandoff) => void;
  /** Told of every record left to be retried (reported in batchItemFailures), with why. */
  readonly onFailed?: (messageId: string, error: unknown) => void;
  /** The clock for claim leases (epoch milliseconds). */
  readonly now?: () => number;
}

/** A record that could not be finished; the caller (handoffConsumer, Powertools' BatchProcessor) retries it. */
export class HandoffRecordError extends Error {
  constructor(
    readonly code: 'handle-failed' | 'claim-held' | 'dead-letter-failed' | 'too-large-for-reason-attributes',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HandoffRecordError';
  }
}

/** What became of a record that was finished. */
export type RecordOutcome = 'handled' | 'repeat' | 'refused';

/** A trust policy given as bytes, read once; a policy that does not read is a typed error at start, not per record. */
function policyOf(p: TrustPolicy | Uint8Array): TrustPolicy {
  if (!(p instanceof Uint8Array)) return p;
  const read = readTrustPolicy(p);
  if (!read.ok) throw new TypeError(`trust policy ${read.error.code}: ${read.error.detail}`);
  return read.value;
}

/**
 * One record's processing: resolves with what became of it, or throws HandoffRecordError when it must be retried.
 * This is the record handler to give Powertools' `processPartialResponse` (it marks a record failed when it throws).
 */
export function handoffRecordHandler(o: HandoffConsumerOptions): (record: SqsRecord) => Promise<RecordOutcome> {
  // node:crypto for the ledger's primitives (ADR 0185), with libsodium's Ed25519 verification when the optional
  // sodium-native addon loads and passes its self-test (ADR 0240, 0493): same verdicts, fewer µs per handoff.
  useFastestLedgerCrypto();
  const policy = policyOf(o.policy);
  const sqs = o.sqs ?? new SQSClient({});
  const seen = o.seen ?? memorySeenHandoffs();
  const now = o.now ?? Date.now;
  const options = { routeQueue: o.routeQueue };
  return async (record) => {
    // The body's UTF-8 bytes are the message; its text is read as is (ADR 0494).
    const v = verifyHandoffText(record.body, policy, options);
    if (!v.ok) {
      const copy = deadLetterCopy({ Body: record.body, MessageId: record.messageId }, v);
      // Too large to carry its reason: left failing, so the queue's redrive policy moves it after maxReceiveCount.
      if (messageBytes(copy) > MAX_BATCH_BYTES)
        throw new HandoffRecordError('too-large-for-reason-attributes', `${record.messageId}: ${v.reason}`);
      try {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: o.deadLetterQueueUrl,
            MessageBody: copy.body,
            MessageAttributes: copy.attributes,
          }),
        );
      } catch (e) {
        throw new HandoffRecordError('dead-letter-failed', `${record.messageId}: DLQ send failed`, { cause: e });
      }
      o.onRefused?.({ messageId: record.messageId, reason: v.reason, detail: v.detail });
      return 'refused';
    }
    const id = v.handoff.handoffId;
    const claim = await seen.claim(id, now());
    if (claim === 'done') return 'repeat';
    if (claim === 'in-progress') throw new HandoffRecordError('claim-held', `${id} is being handled elsewhere`);
    try {
      await o.handle(v.handoff, record);
    } catch (e) {
      await seen.release(id);
      throw new HandoffRecordError('handle-failed', `${id}: handle threw`, { cause: e });
    }
    await seen.complete(id, now());
    return 'handled';
  };
}

/**
 * The SQS event handler: the records in order, one at a time (a repeat within one batch is then acknowledged, not
 * held), and every record that threw in `batchItemFailures`. Enable ReportBatchItemFailures on the event source.
 */
export function handoffConsumer(o: HandoffConsumerOptions): (event: SqsEvent) => Promise<SqsBatchResponse> {
  const onRecord = handoffRecordHandler(o);
  return async (event) => {
    const batchItemFailures: { itemIdentifier: string }[] = [];
    for (const record of event.Records) {
      try {
        await onRecord(record);
      } catch (e) {
        batchItemFailures.push({ itemIdentifier: record.messageId });
        o.onFailed?.(record.messageId, e);
      }
    }
    return { batchItemFailures };
  };
}
