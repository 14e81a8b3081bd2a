/**
 * Reading what the archive cross-check needs from a live stage (docs/verify.md "Requests without an entry"; ADR 0292):
 * every archived request, the (requestId, requestDigest) of every stored entry of the logs named, the state of the
 * queues a request passes through, and the messages of the dead-letter queues on that path with the queue SQS moved
 * each from (their `DeadLetterQueueSourceArn`, set by SQS's redrive only). A message someone sent there carries no
 * source and excuses nothing (ADR 0455). The rule itself is pure: core/ledger/verify/omission.ts. One reader for
 * `docket verify`, `docket checkpoint`, the local start (stack/request-omissions.ts) and the scheduled checkpoint
 * function (functions/checkpoint.ts, docs/adr/0487-the-checkpoint-function-cross-checks-the-archive.md).
 */
import { createHash } from 'node:crypto';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { getQueueAttributes, receiveMessages } from './sqs.js';
import type { ArchivedBytes } from './dynamodb-request-archive.js';
import { readRequest } from '../core/admission/index.js';
import {
  omissionFindings,
  recordedKey,
  type ArchivedRequest,
  type DeadLetterMessage,
  type ExcusedRequest,
  type LedgerStore,
  type PathQueueState,
  type RequestWithoutEntryFinding,
} from '../core/ledger/index.js';

/** Receives of a DLQ at most (10 messages each): a DLQ deeper than this is reported as not fully read. */
const MAX_DLQ_RECEIVES = 200;

export interface ArchiveCrossCheck {
  readonly findings: RequestWithoutEntryFinding[];
  readonly excused: ExcusedRequest[];
  /** Archived requests read, and the path queues' state the in-flight excuse rested on. */
  readonly archived: number;
  readonly queues: readonly PathQueueState[];
}

/** Where the cross-check reads from. */
export interface OmissionSources {
  readonly archive: { list(): AsyncIterable<ArchivedBytes> };
  readonly store: Pick<LedgerStore, 'readEntries'>;
  /** The logs whose entries account for archived requests. */
  readonly logIds: readonly string[];
  readonly sqs: SQSClient;
  /** The request path's queues, in order, with the excuse a message SQS redrove from each gives. */
  readonly pathQueues: readonly { readonly name: string; readonly url: string; readonly redriveReason: string }[];
  /** The dead-letter queues on that path (the intake DLQ, the FIFO ledger queue's DLQ). */
  readonly deadLetterQueueUrls: readonly string[];
}

/** A queue by its physical name and URL. */
export interface QueueRef {
  readonly name: string;
  readonly url: string;
}

/**
 * The request path's queues with the excuse each one's redrive gives: the intake queue (the sequence function's), then
 * the FIFO ledger queue (the evaluate function's, ADR 0270); SQS moved such a message after maxReceiveCount receives.
 */
export const requestPath = (intake: QueueRef, ledger: QueueRef): OmissionSources['pathQueues'] => [
  { ...intake, redriveReason: 'intake-queue-redriven' },
  { ...ledger, redriveReason: 'ledger-queue-redriven' },
];

export async function crossCheckArchive(
  s: OmissionSources,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<ArchiveCrossCheck> {
  const archived: ArchivedRequest[] = [];
  for await (const a of s.archive.list()) {
    const r = readRequest(a.bytes);
    const requestId = r.ok ? r.value.requestId : (r.error.requestId ?? null);
    archived.push({ requestDigest: a.digest, requestId, retainedAt: a.retainedAt });
  }
  const recorded = new Set<string>();
  for (const logId of s.logIds)
    for await (const e of s.store.readEntries(logId, 0)) {
      // Only the two members are needed; verify judges each entry's bytes strictly on its own.
      try {
        const m = JSON.parse(e.body) as { requestId?: unknown; requestDigest?: unknown };
        if (typeof m.requestId === 'string' && typeof m.requestDigest === 'string')
          recorded.add(recordedKey(m.requestId, m.requestDigest));
      } catch {
        // an unreadable body is verify's `malformed`; it records nothing here
      }
    }
  const queues: PathQueueState[] = [];
  const redriveSources = new Map<string, string>();
  for (const q of s.pathQueues) {
    const { state, arn } = await queueState(s.sqs, q.name, q.url);
    queues.push(state);
    if (arn !== undefined) redriveSources.set(arn, q.redriveReason);
  }
  // The sequence function forwards each request's exact bytes, so a ledger DLQ message hashes to the archived digest.
  const deadLettered: DeadLetterMessage[] = [];
  for (const url of s.deadLetterQueueUrls) deadLettered.push(...(await dlqMessages(s.sqs, url)));
  const { findings, excused } = omissionFindings({
    archived,
    recorded,
    deadLettered,
    redriveSources,
    queues,
    now: nowSeconds,
  });
  return { findings, excused, archived: archived.length, queues };
}

async function queueState(
  sqs: SQSClient,
  name: string,
  url: string,
): Promise<{ state: PathQueueState; arn: string | undefined }> {
  const a = await getQueueAttributes(sqs, url);
  const n = (k: string): number => Number(a[k] ?? 0) || 0;
  let receives: number;
  try {
    receives = Number((JSON.parse(a.RedrivePolicy ?? '{}') as { maxReceiveCount?: unknown }).maxReceiveCount) || 0;
  } catch {
    receives = 0;
  }
  // Without a redrive policy a message is redelivered until its retention period ends.
  const window = receives > 0 ? n('VisibilityTimeout') * receives : n('MessageRetentionPeriod');
  const state = {
    name,
    waiting: n('ApproximateNumberOfMessages') + n('ApproximateNumberOfMessagesDelayed'),
    inFlight: n('ApproximateNumberOfMessagesNotVisible'),
    redeliveryWindowSeconds: window,
  };
  return { state, arn: a.QueueArn };
}

/**
 * The DLQ's messages, each by the SHA-256 of its body with its `DeadLetterQueueSourceArn`, read without consuming them
 * (visibility timeout 0: each stays on the queue, visible, and nothing is deleted; a DLQ has no redrive of its own,
 * so the receive count this adds moves nothing). A FIFO DLQ shows only the first messages of each message group this
 * way; a request behind them stays unexcused (a finding), never silently excused.
 */
async function dlqMessages(sqs: SQSClient, url: string): Promise<DeadLetterMessage[]> {
  const out: DeadLetterMessage[] = [];
  const seen = new Set<string>();
  let quiet = 0;
  for (let i = 0; i < MAX_DLQ_RECEIVES && quiet < 3; i++) {
    const got = await receiveMessages(sqs, url, { waitTimeSeconds: 0, visibilityTimeout: 0 });
    const fresh = got.filter((m) => m.MessageId !== undefined && !seen.has(m.MessageId));
    quiet = fresh.length === 0 ? quiet + 1 : 0;
    for (const m of fresh) {
      seen.add(m.MessageId!);
      const digest = createHash('sha256')
        .update(m.Body ?? '', 'utf8')
        .digest('hex');
      out.push({ digest, sourceArn: m.Attributes?.DeadLetterQueueSourceArn ?? null });
    }
  }
  return out;
}
