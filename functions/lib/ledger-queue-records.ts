/**
 * The requests of a FIFO ledger queue batch, as the evaluate function handles them and its metrics count them: each
 * ledger message (core/pipeline/ledger-message.ts) opened into its requests, in order, each keeping the SQS message
 * id (a partial batch response names messages) and the message group (its log). A body that is not a ledger message
 * is one request's bytes; one that claims the format and breaks it is one record, rejected whole with why
 * (docs/adr/0497-a-ledger-message-carries-many-requests.md).
 */
import type { SQSRecord } from 'aws-lambda';
import { isLedgerMessage, readLedgerMessage, type BatchRecord } from '../../core/pipeline/index.js';

export interface LedgerQueueRecord extends BatchRecord {
  /** The message the requester sent to the intake queue. */
  readonly intakeMessageId?: string;
  /** Its SentTimestamp (epoch ms, decimal), as the sequence function read it. */
  readonly intakeSentTimestamp?: string;
  /** Why the message is no ledger message; the record's body is then the whole message. */
  readonly invalid?: string;
}

/**
 * Each batch is opened once: the evaluate runtime and its metrics (functions/lib/batch-metrics.ts) are handed the same
 * event, and opening reads every message's bytes. Keyed by the event's record list, which Lambda never changes.
 */
const opened = new WeakMap<readonly SQSRecord[], readonly LedgerQueueRecord[]>();

export function ledgerQueueRecords(records: readonly SQSRecord[]): readonly LedgerQueueRecord[] {
  let out = opened.get(records);
  if (out === undefined) opened.set(records, (out = open(records)));
  return out;
}

function open(records: readonly SQSRecord[]): LedgerQueueRecord[] {
  return records.flatMap((r): LedgerQueueRecord[] => {
    const groupId = r.attributes?.MessageGroupId;
    const common = {
      messageId: r.messageId,
      receiveCount: Number(r.attributes?.ApproximateReceiveCount ?? '1'),
      ...(groupId !== undefined ? { groupId } : {}),
    };
    // A planted message, or one sent before this format: its own SQS message id names it (no attribute is read).
    if (!isLedgerMessage(r.body)) return [{ ...common, body: r.body }];
    const read = readLedgerMessage(r.body);
    if (!read.ok) return [{ ...common, body: r.body, invalid: read.error.message }];
    return read.value.map((q) => ({ ...common, ...q }));
  });
}

/** The batch's failures named once each, in order: several records of one message fail it once. */
export function distinctFailures<T extends { readonly itemIdentifier: string }>(failures: readonly T[]): T[] {
  const seen = new Set<string>();
  return failures.filter((f) => !seen.has(f.itemIdentifier) && seen.add(f.itemIdentifier));
}
