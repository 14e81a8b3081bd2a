/**
 * The FIFO ledger queue as end-to-end tests see it (core/pipeline/ledger-message.ts,
 * docs/adr/0497-a-ledger-message-carries-many-requests.md). The sequence function packs an intake batch into ledger
 * messages and picks each message's log from the message's digest, so no request id decides a log any more: a test
 * that needs requests on one log sends the ledger message itself, under that log's group, as the evaluate function's
 * forwarder may (the local edge refuses sends to DLQs only); a test that asks where a request travelled watches what
 * the evaluate function is handed.
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { sendMessage } from '../../adapters/sqs.js';
import { readIntakeRequest } from '../../core/admission/intake.js';
import {
  isLedgerMessage,
  readLedgerMessage,
  sequenceMessage,
  type SequencedRequest,
} from '../../core/pipeline/index.js';
import { ledgerMessage } from '../pipeline/ledger-queue-fixture.js';
import type { E2eOptions, E2eWorld } from './harness.js';

/** A ledger message of `bodies` in order, each under a fresh intake message id, as the sequence function writes one. */
export function ledgerMessageOf(bodies: readonly string[]): { message: string; requests: SequencedRequest[] } {
  const requests = bodies.map((body) => ({
    body,
    intakeMessageId: randomUUID(),
    intakeSentTimestamp: `${Date.now()}`,
  }));
  return { message: ledgerMessage(requests), requests };
}

/**
 * Sends `body` verbatim to the ledger queue under `groupId` (a log, or a group that names none), deduplicated by its
 * SHA-256 as the sequence function deduplicates. Answers the SQS message id.
 */
export async function sendToGroup(
  w: Pick<E2eWorld, 'sqs' | 'queueUrl'>,
  groupId: string,
  body: string,
): Promise<string> {
  const deduplicationId = sequenceMessage(body, ['log-0']).deduplicationId;
  return sendMessage(w.sqs, w.queueUrl('ledger.fifo'), { body, groupId, deduplicationId });
}

/** Sends one ledger message of `bodies` to the group of `logId`. Answers the SQS message id and the intake ids it names. */
export async function sendToLog(
  w: Pick<E2eWorld, 'sqs' | 'queueUrl'>,
  logId: string,
  bodies: readonly string[],
): Promise<{ messageId: string; requests: SequencedRequest[] }> {
  const { message, requests } = ledgerMessageOf(bodies);
  return { messageId: await sendToGroup(w, logId, message), requests };
}

/** One ledger queue message as the evaluate function was handed it. */
export interface HandedMessage {
  readonly messageId: string;
  readonly groupId: string | undefined;
  readonly body: string;
  /** Its requests: a ledger message's, or the body as one request; undefined when it claims the format and breaks it. */
  readonly requests: readonly SequencedRequest[] | undefined;
}

/** The request id an intake body names, if it names one (the evaluate function's own reader). */
export function requestIdOf(body: string): string | undefined {
  const read = readIntakeRequest(new TextEncoder().encode(body));
  return read.ok ? read.value.requestId : read.error.requestId;
}

/** Records every message handed to the evaluate function; pass `wrapHandler` to startE2e. */
export function watchLedgerQueue(): {
  readonly wrapHandler: NonNullable<E2eOptions['wrapHandler']>;
  readonly handed: HandedMessage[];
  /** The messages (each delivery) that carried `requestId`. */
  carriersOf(requestId: string): HandedMessage[];
} {
  const handed: HandedMessage[] = [];
  const see = (event: SQSEvent) => {
    for (const r of event.Records ?? []) {
      const read = isLedgerMessage(r.body) ? readLedgerMessage(r.body) : undefined;
      handed.push({
        messageId: r.messageId,
        groupId: r.attributes?.MessageGroupId,
        body: r.body,
        requests:
          read === undefined ? [{ body: r.body, intakeMessageId: r.messageId }] : read.ok ? read.value : undefined,
      });
    }
  };
  return {
    wrapHandler: (fn, handle) =>
      fn === 'evaluate'
        ? (event) => {
            see(event);
            return handle(event);
          }
        : handle,
    handed,
    carriersOf: (requestId) => handed.filter((m) => (m.requests ?? []).some((q) => requestIdOf(q.body) === requestId)),
  };
}
