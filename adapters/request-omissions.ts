/**
 * Reading what the archive cross-check needs from a live stage (docs/verify.md "Requests without an entry"; ADR 0292):
 * every archived request, the (requestId, requestDigest) of every stored entry of the logs named, the state of the
 * queues a request passes through, and the messages of the dead-letter queues on that path with the queue SQS moved
 * each from (their `DeadLetterQueueSourceArn`, set by SQS's redrive only). A message someone sent there carries no
 * source and excuses nothing (ADR 0455). A message SQS moved from the FIFO ledger queue is a ledger message
 * (core/pipeline/ledger-message.ts) and stands for each request it carries
 * (docs/adr/0497-a-ledger-message-carries-many-requests.md). The rule itself is pure: core/ledger/verify/omission.ts.
 * One reader for `docket verify`, `docket checkpoint`, the local start (stack/request-omissions.ts) and the scheduled
 * checkpoint function (functions/checkpoint.ts, docs/adr/0487-the-checkpoint-function-cross-checks-the-archive.md).
 */
import { createHash } from 'node:crypto';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { getQueueAttributes, receiveMessages } from './sqs.js';
import type { ArchivedBytes } from './dynamodb-request-archive.js';
import { readRequest } from '../core/admission/index.js';
import { isLedgerMessage, readLedgerMessage } from '../core/pipeline/index.js';
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
  readonly pathQueues: readonly PathQueue[];
  /** The dead-letter queues on that path (the intake DLQ, the FIFO ledger queue's DLQ). */
  readonly deadLetterQueueUrls: readonly string[];
}

/** A queue by its physical name and URL. */
export interface QueueRef {
  readonly name: string;
  readonly url: string;
}

/** A queue of the request path. */
export interface PathQueue extends QueueRef {
  /** The excuse a message SQS's redrive moved from it gives. */
  readonly redriveReason: string;
  /** Its messages are ledger messages (the FIFO ledger queue's): one redriven from it stands for each request in it. */
  readonly carriesLedgerMessages?: true;
}

/**
 * The request path's queues with the excuse each one's redrive gives: the intake queue (the sequence function's), then
 * the FIFO ledger queue (the evaluate function's, ADR 0270); SQS moved such a message after maxReceiveCount receives.
 */
export const requestPath = (intake: QueueRef, ledger: QueueRef): readonly PathQueue[] => [
  { ...intake, redriveReason: 'intake-queue-redriven' },
  { ...ledger, redriveReason: 'ledger-queue-redriven', carriesLedgerMessages: true },
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
  const ledgerMessageSources = new Set<string>();
  for (const q of s.pathQueues) {
    const { state, arn } = await queueState(s.sqs, q.name, q.url);
    queues.push(state);
    if (arn !== undefined) redriveSources.set(arn, q.redriveReason);
    if (arn !== undefined && q.carriesLedgerMessages) ledgerMessageSources.add(arn);
  }
  const deadLettered: DeadLetterMessage[] = [];
  for (const url of s.deadLetterQueueUrls)
    for (const m of await dlqMessages(s.sqs, url)) deadLettered.push(...deadLetteredRequests(m, ledgerMessageSources));
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

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The requests a DLQ message stands for, each by the SHA-256 of its exact bytes with the message's source. A message
 * SQS moved from the FIFO ledger queue (its source a queue that carries ledger messages) and in that format stands
 * for each request it carries, as the evaluate function read them (functions/lib/ledger-queue-records.ts); any other
 * message is one request's bytes: an intake message is the requester's body, whatever it looks like (a requester
 * could shape one like a ledger message around another's bytes), and a ledger queue body not in the format is one
 * request's, as the evaluate function reads it. A message that claims the format and does not read stands for no
 * request: the evaluate function rejects such a message whole (`ledger-message-invalid`) and records nothing of it,
 * so it is no request's redrive and excuses nothing (docs/verify.md "Requests without an entry").
 */
function deadLetteredRequests(
  m: { readonly body: string; readonly sourceArn: string | null },
  ledgerMessageSources: ReadonlySet<string>,
): DeadLetterMessage[] {
  if (m.sourceArn === null || !ledgerMessageSources.has(m.sourceArn) || !isLedgerMessage(m.body))
    return [{ digest: sha256(m.body), sourceArn: m.sourceArn }];
  const read = readLedgerMessage(m.body);
  return read.ok ? read.value.map((r) => ({ digest: sha256(r.body), sourceArn: m.sourceArn })) : [];
}

/**
 * The DLQ's messages, each with its `DeadLetterQueueSourceArn`, read without consuming them (visibility timeout 0:
 * each stays on the queue, visible, and nothing is deleted; a DLQ has no redrive of its own, so the receive count this
 * adds moves nothing). A FIFO DLQ shows only the first messages of each message group this way; a request behind them
 * stays unexcused (a finding), never silently excused.
 */
async function dlqMessages(
  sqs: SQSClient,
  url: string,
): Promise<{ readonly body: string; readonly sourceArn: string | null }[]> {
  const out: { body: string; sourceArn: string | null }[] = [];
  const seen = new Set<string>();
  let quiet = 0;
  for (let i = 0; i < MAX_DLQ_RECEIVES && quiet < 3; i++) {
    const got = await receiveMessages(sqs, url, { waitTimeSeconds: 0, visibilityTimeout: 0 });
    const fresh = got.filter((m) => m.MessageId !== undefined && !seen.has(m.MessageId));
    quiet = fresh.length === 0 ? quiet + 1 : 0;
    for (const m of fresh) {
      seen.add(m.MessageId!);
      out.push({ body: m.Body ?? '', sourceArn: m.Attributes?.DeadLetterQueueSourceArn ?? null });
    }
  }
  return out;
}
