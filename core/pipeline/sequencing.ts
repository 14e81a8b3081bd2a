/**
 * The sequencer's decision (docs/adr/0270-one-writer-per-log.md): which FIFO message group — which ledger log — an
 * intake message goes to, and its deduplication id; the evaluate function then writes each log from its group only.
 *
 *   group  — selectLog of the request id as the evaluate function will read it (a graph request's whose inputs are
 *            not strict JSON included, ADR 0459); a body with no readable id goes to a group derived from its message
 *            id, never a log id ('~' is outside the log id alphabet), so the evaluate function rejects it (ADR 0071).
 *   dedup  — SHA-256 (hex) of the body's UTF-8 bytes: the same id with other bytes is not deduplicated and meets the
 *            ledger's request-id-conflict refusal.
 */
import { readIntakeRequest } from '../admission/index.js';
import { sha256Hex } from '../ledger/primitives/bytes.js';
import { selectLog } from '../ledger/write/log-selection.js';

export interface Sequencing {
  /** The FIFO MessageGroupId: a configured log id, or an `~unidentified-` group. */
  readonly groupId: string;
  /** The FIFO MessageDeduplicationId: SHA-256 hex of the body (64 characters, within SQS's 128). */
  readonly deduplicationId: string;
}

/** The prefix of groups that carry unidentifiable messages; `~` never occurs in a log id (LOG_ID_PATTERN). */
export const UNIDENTIFIED_GROUP_PREFIX = '~unidentified-';

export function sequenceMessage(body: string, messageId: string, logIds: readonly string[]): Sequencing {
  const bytes = new TextEncoder().encode(body);
  const deduplicationId = sha256Hex(bytes);
  const read = readIntakeRequest(bytes);
  const requestId = read.ok ? read.value.requestId : read.error.requestId;
  if (requestId === undefined) {
    // Hashed so any message id maps into SQS's group-id alphabet and length; spread, so one bad message does not
    // hold back others behind it in a shared group.
    return { groupId: UNIDENTIFIED_GROUP_PREFIX + sha256Hex(messageId).slice(0, 32), deduplicationId };
  }
  return { groupId: selectLog(requestId, logIds), deduplicationId };
}

/**
 * The deduplication id of a message the evaluate function forwards to the log its claim fixes (claim-in-other-log,
 * ADR 0270): SHA-256 hex of the target log and the body's digest. Distinct from the sequencer's id for the same body,
 * so a queue deduplicating across groups (an emulator, or a queue not in messageGroup scope) cannot drop the forward
 * as a copy of the message it came from; the same forward sent twice is still one message.
 */
export function forwardDeduplicationId(body: string, logId: string): string {
  return sha256Hex(`${logId}\n${sha256Hex(new TextEncoder().encode(body))}`);
}
