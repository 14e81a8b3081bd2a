/**
 * `docket submit --wait`: reads result notifications (docket.result/1) from the short-lived queue subscribed for
 * this run and prints one line per awaited request as its result arrives — never polling the ledger table. Ctrl-C
 * ends the wait early (the caller then removes the queue). Duplicates (at-least-once delivery) print once.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import canonicalize from 'canonicalize';
import { readResultNotification, type ResultNotification } from '../core/pipeline/index.js';
import type { CliIo } from './io.js';

export interface WaitOptions {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly requestIds: readonly string[];
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly json: boolean;
  readonly io: CliIo;
}

/** Waits until every request has a result, the deadline passes or SIGINT arrives; returns the ids still waiting. */
export async function waitForResults(o: WaitOptions): Promise<{ missing: string[]; interrupted: boolean }> {
  const pending = new Set(o.requestIds);
  const abort = new AbortController();
  const onInterrupt = (): void => {
    o.io.stderr('docket submit: interrupted; removing the wait queue\n');
    abort.abort();
  };
  process.once('SIGINT', onInterrupt);
  try {
    while (pending.size > 0 && !abort.signal.aborted) {
      const left = o.deadline - Date.now();
      if (left <= 0) break;
      let messages;
      try {
        const r = await o.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: o.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: Math.max(1, Math.min(20, Math.floor(left / 1000))),
          }),
          { abortSignal: abort.signal },
        );
        messages = r.Messages ?? [];
      } catch (e) {
        if (abort.signal.aborted) break;
        throw e;
      }
      for (const m of messages) {
        const read = readResultNotification(new TextEncoder().encode(m.Body ?? ''));
        if (!read.ok) {
          o.io.stderr(`docket submit: ignored a message that is not a result notification: ${read.error.message}\n`);
          continue;
        }
        const n = read.value;
        if (!pending.delete(n.requestId)) continue; // a redelivered duplicate, or not ours
        o.io.stdout(`${o.json ? jsonLine(n) : humanLine(n)}\n`);
      }
      if (messages.length > 0)
        await o.sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: o.queueUrl,
            Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
          }),
        );
    }
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
  return { missing: o.requestIds.filter((id) => pending.has(id)), interrupted: abort.signal.aborted };
}

/** Like `docket evaluate`'s line ({"disposition"|"error", "work"}), with the request id and ledger coordinates. */
export function jsonLine(n: ResultNotification): string {
  const head = `{"requestId":${JSON.stringify(n.requestId)},"ledger":${canonicalize(n.ledger) as string},"kind":"${n.kind}"`;
  let result: string;
  if (n.kind === 'disposition')
    result =
      n.disposition !== undefined
        ? `"disposition":${canonicalize(n.disposition) as string}`
        : `"dispositionOmitted":true,"dispositionDigest":"${n.dispositionDigest}"`;
  else if (n.kind === 'evaluation-error') result = `"error":${canonicalize(n.error) as string}`;
  else result = `"refusal":${canonicalize(n.refusal) as string}`;
  return `${head},${result},"work":${n.work}}`;
}

export function humanLine(n: ResultNotification): string {
  const at = `(${n.ledger.logId} #${n.ledger.seq})`;
  if (n.kind === 'disposition') {
    const d = n.disposition;
    const what =
      d === undefined
        ? 'disposition (too large for the notification: docket show)'
        : `${d.kind}${d.kind === 'outcome' ? ` ${d.outcomeId}` : ''}${d.reasons.length ? ` [${d.reasons.join(', ')}]` : ''}${d.handoff.state === 'requested' ? ' handoff requested' : ''}`;
    return `${n.requestId}  ${what}  ${at}`;
  }
  if (n.kind === 'evaluation-error')
    return `${n.requestId}  evaluation error ${n.error!.class} (${n.error!.phase}) ${n.error!.code}  ${at}`;
  return `${n.requestId}  admission refusal ${n.refusal!.code}  ${at}`;
}
