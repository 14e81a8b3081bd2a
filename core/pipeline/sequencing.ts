/**
 * The sequencer's decision (docs/adr/0270-one-writer-per-log.md, docs/adr/0497-a-ledger-message-carries-many-requests.md):
 * which FIFO message group — which ledger log — a ledger message goes to, and its deduplication id; the evaluate
 * function then writes each log from its group only.
 *
 *   group  — selectLog of the message's digest: any configured log is correct, since the claim fixes a request's log
 *            for every later delivery (ADR 0160), so the rule only spreads load; it reads no request.
 *   dedup  — SHA-256 (hex) of the message's UTF-8 bytes: the same intake batch sent twice is one message.
 */
import { sha256Hex } from '../ledger/primitives/bytes.js';
import { selectLog } from '../ledger/write/log-selection.js';

export interface Sequencing {
  /** The FIFO MessageGroupId: a configured log id. */
  readonly groupId: string;
  /** The FIFO MessageDeduplicationId: SHA-256 hex of the message (64 characters, within SQS's 128). */
  readonly deduplicationId: string;
}

export function sequenceMessage(message: string, logIds: readonly string[]): Sequencing {
  const deduplicationId = sha256Hex(new TextEncoder().encode(message));
  return { groupId: selectLog(deduplicationId, logIds), deduplicationId };
}

/**
 * The deduplication id of a message the evaluate function forwards to the log its claim fixes (claim-in-other-log,
 * ADR 0270): SHA-256 hex of the target log and the message's digest. Distinct from the sequencer's id for the same
 * bytes, so a queue deduplicating across groups (an emulator, or a queue not in messageGroup scope) cannot drop the
 * forward as a copy of the message it came from; the same forward sent twice is still one message.
 */
export function forwardDeduplicationId(message: string, logId: string): string {
  return sha256Hex(`${logId}\n${sha256Hex(new TextEncoder().encode(message))}`);
}
