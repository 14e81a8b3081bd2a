/**
 * What `docket verify` reads from a live stage to cross-check the request archive with the ledger (docs/verify.md
 * "Requests without an entry"; ADR 0292): every archived request, the (requestId, requestDigest) of every stored
 * entry, the state of the queues a request passes through, and the messages of both dead-letter queues on that path
 * with the queue SQS moved each from (their `DeadLetterQueueSourceArn`, set by SQS's redrive only): the intake DLQ and
 * the FIFO ledger queue's DLQ (a record the evaluate function failed maxReceiveCount times, e.g. on a regressed head).
 * A message someone sent there carries no source and excuses nothing (ADR 0455). The rule itself is pure:
 * core/ledger/verify/omission.ts.
 */
import { createHash } from 'node:crypto';
import { getQueueAttributes, receiveMessages } from '../adapters/sqs.js';
import { readRequest } from '../core/admission/index.js';
import {
  omissionFindings,
  recordedKey,
  type ArchiveCheck,
  type ArchivedRequest,
  type DeadLetterMessage,
  type ExcusedRequest,
  type PathQueueState,
  type RequestWithoutEntryFinding,
} from '../core/ledger/index.js';
import { explainStackError, type StackClients } from './clients.js';
import { ledgerDlqName, requestPathQueues, routeQueueName } from './settings.js';

/** The reason a path queue's redriven messages are excused with: SQS moved them after maxReceiveCount receives. */
const redriveReason = (stack: StackClients, queue: string): string =>
  queue === stack.settings.intakeQueue ? 'intake-queue-redriven' : 'ledger-queue-redriven';

/** Receives of the DLQ at most (10 messages each): a DLQ deeper than this is reported as not fully read. */
const MAX_DLQ_RECEIVES = 200;

export interface ArchiveCrossCheck {
  readonly findings: RequestWithoutEntryFinding[];
  readonly excused: ExcusedRequest[];
  /** Archived requests read, and the path queues' state the in-flight excuse rested on. */
  readonly archived: number;
  readonly queues: readonly PathQueueState[];
}

export async function crossCheckArchive(
  stack: StackClients,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<ArchiveCrossCheck> {
  const archived: ArchivedRequest[] = [];
  for await (const a of stack.archive.list()) {
    const r = readRequest(a.bytes);
    const requestId = r.ok ? r.value.requestId : (r.error.requestId ?? null);
    archived.push({ requestDigest: a.digest, requestId, retainedAt: a.retainedAt });
  }
  const recorded = new Set<string>();
  for (const logId of await stack.store.listLogs())
    for await (const e of stack.store.readEntries(logId, 0)) {
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
  for (const name of requestPathQueues(stack.settings)) {
    const { state, arn } = await queueState(stack, name);
    queues.push(state);
    if (arn !== undefined) redriveSources.set(arn, redriveReason(stack, name));
  }
  // The sequence function forwards each request's exact bytes, so a ledger DLQ message hashes to the archived digest.
  const deadLettered = [
    ...(await dlqMessages(stack, await stack.queueUrl(routeQueueName(stack.settings, 'intake-dlq')))),
    ...(await dlqMessages(stack, await stack.queueUrl(ledgerDlqName(stack.settings)))),
  ];
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

/** A stage without the request archive table or a path queue: nothing to cross-check, which is said, not hidden. */
export const isMissingResource = (e: unknown): boolean =>
  ['ResourceNotFoundException', 'QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue'].includes(
    (e as { name?: string } | null)?.name ?? '',
  );

/** The cross-check, or why a stage has nothing to cross-check; any other failure to read throws (no verdict). */
export async function archiveCheckOf(stack: StackClients): Promise<ArchiveCheck> {
  try {
    return await crossCheckArchive(stack);
  } catch (e) {
    if (!isMissingResource(e)) throw e;
    return { missing: explainStackError(e, stack.settings) };
  }
}

async function queueState(
  stack: StackClients,
  name: string,
): Promise<{ state: PathQueueState; arn: string | undefined }> {
  const a = await getQueueAttributes(stack.sqs, await stack.queueUrl(name));
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
 * (visibility timeout 0: each stays on the queue, visible). A FIFO DLQ shows only the first messages of each message
 * group this way; a request behind them stays unexcused (a finding), never silently excused.
 */
async function dlqMessages(stack: StackClients, url: string): Promise<DeadLetterMessage[]> {
  const out: DeadLetterMessage[] = [];
  const seen = new Set<string>();
  let quiet = 0;
  for (let i = 0; i < MAX_DLQ_RECEIVES && quiet < 3; i++) {
    const got = await receiveMessages(stack.sqs, url, { waitTimeSeconds: 0, visibilityTimeout: 0 });
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
