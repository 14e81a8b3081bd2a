/**
 * `docket submit --wait`: reads result notifications (docket.result/2) from the short-lived queue subscribed for
 * this run and prints one line per awaited request once its result is proven — never polling the ledger table
 * (docs/adr/0173-submit-wait-listens-on-a-filtered-queue.md). Anyone who may publish to the topic can write a
 * notification, so a result is printed only after its entry verifies under the trust policy and records exactly the
 * request this run sent (core/pipeline/result-verdict.ts, docs/adr/0290-verifiable-result-notifications.md); one
 * that fails is reported on stderr with its reason and the wait goes on for the genuine one. Ctrl-C ends the wait
 * early (the caller then removes the queue). Duplicates (at-least-once delivery) print once.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { DeleteMessageBatchCommand } from '@aws-sdk/client-sqs';
import { receiveMessages } from '../adapters/sqs.js';
import { proveResult, resultLine, type ProvenEntry, type SentRequest } from '../core/pipeline/index.js';
import { graphRunStatus, type LedgerStore, type ParsedEntry, type TrustPolicy } from '../core/ledger/index.js';
import type { CliIo } from './io.js';
import { terminalText } from './terminal-text.js';

export interface WaitOptions {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  /** What was sent, by request id: every printed result records exactly these bytes. */
  readonly sent: ReadonlyMap<string, SentRequest>;
  readonly policy: TrustPolicy;
  /** Where an entry too large for its notification (entryOmitted) is read. */
  readonly store: Pick<LedgerStore, 'readEntries'>;
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly json: boolean;
  readonly io: CliIo;
  /** Told of each proven result as it arrives, instead of printing it (`docket bench live` times them). */
  readonly onResult?: (proven: ProvenEntry) => void;
}

/** Waits until every request has a result, the deadline passes or SIGINT arrives; returns the ids still waiting. */
export async function waitForResults(o: WaitOptions): Promise<{ missing: string[]; interrupted: boolean }> {
  const pending = new Set(o.sent.keys());
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
        const waitTimeSeconds = Math.max(1, Math.min(20, Math.floor(left / 1000)));
        messages = await receiveMessages(o.sqs, o.queueUrl, { waitTimeSeconds, abortSignal: abort.signal });
      } catch (e) {
        if (abort.signal.aborted) break;
        throw e;
      }
      for (const m of messages) {
        const proven = await provenResult(m.Body ?? '', o);
        if (proven === undefined || !pending.delete(proven.entry.requestId)) continue; // refused, a duplicate, not ours
        if (o.onResult !== undefined) o.onResult(proven);
        else o.io.stdout(`${o.json ? resultLine(proven, proven.body) : humanLine(proven)}\n`);
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
  return { missing: [...o.sent.keys()].filter((id) => pending.has(id)), interrupted: abort.signal.aborted };
}

/** The verified entry a notification carries (or points at), or undefined after saying on stderr why not. */
async function provenResult(body: string, o: WaitOptions): Promise<ProvenEntry | undefined> {
  const proof = await proveResult(body, o.sent, o.policy, o.store);
  if (proof.ok) return proof.entry;
  const about = 'requestId' in proof ? ` (request ${proof.requestId})` : '';
  // The notification and the entry it names are anyone's writing until verified: what they say is terminal text.
  o.io.stderr(
    `docket submit: refused a result notification: ${terminalText(`${proof.reason}: ${proof.detail}${about}`)}\n`,
  );
  return undefined;
}

/** One result as a terminal line: the entry's strings (ids, outcome, codes) escaped by terminalText. */
export const humanLine = (p: ParsedEntry): string => terminalText(humanText(p));

function humanText(p: ParsedEntry): string {
  const n = p.entry;
  const at = `(${n.logId} #${n.seq})`;
  if (n.kind === 'disposition') {
    const d = n.disposition;
    const what = `${d.kind}${d.kind === 'outcome' ? ` ${d.outcomeId}` : ''}${d.reasons.length ? ` [${d.reasons.join(', ')}]` : ''}${d.handoff.state === 'requested' ? ' handoff requested' : ''}`;
    return `${n.requestId}  ${what}  ${at}`;
  }
  if (n.kind === 'evaluation-error')
    return `${n.requestId}  evaluation error ${n.error.class} (${n.error.phase}) ${n.error.code}  ${at}`;
  if (n.kind === 'graph-run') return `${n.requestId}  graph run ${graphRunStatus(n.run)}  ${at}`;
  return `${n.requestId}  admission refusal ${n.refusal.code}  ${at}`;
}
