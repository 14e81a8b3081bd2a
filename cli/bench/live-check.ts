/**
 * `docket bench live`: real evaluation requests through a stack's real intake at a set rate for a set time, each
 * timed until its result notification arrives and proves its entry (the checks of `docket submit --wait`,
 * cli/wait-results.ts), then the functions' own metrics of the same run read back (cli/bench/emf-metrics.ts) and
 * everything printed as the scale model's figures (cli/bench/live-figures.ts;
 * docs/adr/0481-live-check-reads-the-functions-own-metrics.md). The requests go out through the sender `docket
 * submit` and the requester client use (adapters/sqs.ts `sendMessages`), after the wait queue listens.
 */
import { randomBytes } from 'node:crypto';
import type { SNSClient } from '@aws-sdk/client-sns';
import { openFilteredSubscription } from '../../adapters/sns.js';
import { SqsBatchError, sendMessages } from '../../adapters/sqs.js';
import type { TrustPolicy } from '../../core/ledger/index.js';
import { requestIdFilterPolicies, sentRequestOf, type SentRequest } from '../../core/pipeline/index.js';
import type { StackClients } from '../../stack/clients.js';
import type { CliIo } from '../io.js';
import { waitForResults } from '../wait-results.js';
import { DOCKET_METRICS, DOCKET_SERVICES } from '../../core/metric-names.js';
import { emfSamples, logOffset, logTextSince, type MetricSample } from './emf-metrics.js';
import { liveFigures, type LiveFigures } from './live-figures.js';

export interface LiveRequest {
  readonly requestId: string;
  readonly text: string;
}

export interface LiveCheckOptions {
  readonly stack: StackClients;
  readonly sns: SNSClient;
  readonly intakeUrl: string;
  readonly resultsTopicArn: string;
  readonly policy: TrustPolicy;
  readonly rate: number;
  readonly durationSeconds: number;
  /** Seconds to wait for the last results after the last send. */
  readonly waitSeconds: number;
  /** The i-th request (0-based) of the run. */
  readonly request: (i: number) => LiveRequest;
  /**
   * The file the functions' stdout (their EMF lines) goes to: the local stack's log. Undefined on AWS, where they go
   * to CloudWatch, which this build does not read: the figures from them are null.
   */
  readonly metricsLog: string | undefined;
  readonly io: CliIo;
}

const TICK_MS = 50;
const utf8 = new TextEncoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function liveCheck(o: LiveCheckOptions): Promise<LiveFigures> {
  const total = Math.max(1, Math.round(o.rate * o.durationSeconds));
  const requests = Array.from({ length: total }, (_, i) => o.request(i));
  const expected = new Map<string, SentRequest>(
    requests.map((r) => [r.requestId, sentRequestOf(r.requestId, utf8.encode(r.text))]),
  );
  // Listening before the first send, so no result is published before the queue is subscribed (ADR 0173).
  const subscription = await openFilteredSubscription(o.sns, o.stack.sqs, {
    topicArn: o.resultsTopicArn,
    queueName: `${o.stack.settings.queuePrefix}-wait-${randomBytes(8).toString('hex')}`,
    filterPolicies: requestIdFilterPolicies([...expected.keys()]),
  });
  const sentAt = new Map<string, number>();
  const results = new Map<string, { at: number; logId: string; seq: number }>();
  let notSent = 0;
  const offset = o.metricsLog === undefined ? 0 : logOffset(o.metricsLog);
  try {
    o.io.stderr(`docket bench live: ${total} requests at ${o.rate}/s over ${o.durationSeconds} s\n`);
    const start = Date.now();
    const waiting = waitForResults({
      sqs: o.stack.sqs,
      queueUrl: subscription.queueUrl,
      sent: expected,
      policy: o.policy,
      store: o.stack.store,
      deadline: start + (o.durationSeconds + o.waitSeconds) * 1000,
      json: false,
      io: o.io,
      onResult: (p) => results.set(p.entry.requestId, { at: Date.now(), logId: p.entry.logId, seq: p.entry.seq }),
    });
    let next = 0;
    while (next < total) {
      // Paced on the schedule, not on the sends: a slow send is caught up on the next tick.
      const due = Math.min(total, Math.floor(((Date.now() - start) / 1000) * o.rate) + 1);
      if (due > next) {
        const chunk = requests.slice(next, due);
        next = due;
        const at = Date.now();
        const refused = await send(o, chunk);
        for (const r of chunk) if (!refused.has(r.requestId)) sentAt.set(r.requestId, at);
        notSent += refused.size;
      }
      await sleep(TICK_MS);
    }
    await waiting;
  } finally {
    await subscription.close().catch((e: unknown) => {
      o.io.stderr(`docket bench live: could not remove the wait queue: ${(e as Error).message}\n`);
    });
  }
  const samples = o.metricsLog === undefined ? undefined : await logSamples(o.metricsLog, offset, results.size, 5_000);
  return liveFigures({
    rate: o.rate,
    durationSeconds: o.durationSeconds,
    requests: total,
    sentAt,
    results,
    logs: o.policy.logs,
    tableKeys: new Map([
      [o.stack.settings.ledgerTable, 'ledger'],
      [o.stack.settings.requestsTable, 'requests'],
      [o.stack.settings.packsTable, 'packs'],
    ]),
    samples,
    sources: {
      latency:
        'p50Ms/p99Ms: the evaluate function (RequestToEntryMs); notified*: this client, send → verified notification',
      metrics:
        o.metricsLog === undefined
          ? 'unread: on AWS the functions publish to CloudWatch (namespace Docket; see the stack dashboard), which ' +
            'this build does not read: batch cycle, request → entry and units are null'
          : `EMF lines in ${o.metricsLog}`,
      units: 'ReturnConsumedCapacity, as the table answered each call (ConsumedWriteUnits, ConsumedReadUnits)',
      ...(notSent > 0 ? { notSent: `${notSent} request(s) refused by SQS` } : {}),
    },
  });
}

/** Sends `chunk`; the ids SQS refused (the rest were sent). */
async function send(o: LiveCheckOptions, chunk: readonly LiveRequest[]): Promise<Set<string>> {
  try {
    await sendMessages(
      o.stack.sqs,
      o.intakeUrl,
      chunk.map((r) => ({ body: r.text })),
    );
    return new Set();
  } catch (e) {
    if (!(e instanceof SqsBatchError)) throw e;
    for (const f of e.failed)
      o.io.stderr(`docket bench live: ${chunk[Number(f.id)]?.requestId}: not sent (${f.code})\n`);
    return new Set(e.failed.map((f) => chunk[Number(f.id)]!.requestId));
  }
}

/**
 * The EMF lines of Docket's namespace appended to `path` since `offset`, once they hold at least `batchRecords`
 * evaluate records (or `settleMs` passed: EMF lines are written after each invocation answers, a little after its
 * notification).
 */
async function logSamples(path: string, offset: number, batchRecords: number, settleMs: number) {
  const read = () => emfSamples(logTextSince(path, offset), DOCKET_METRICS.namespace);
  const until = Date.now() + settleMs;
  while (evaluateRecords(read()) < batchRecords && Date.now() < until) await sleep(200);
  // The deliver function's units come after the notifications: a moment more for its last line.
  await sleep(500);
  return read();
}

/** The records the evaluate function's batches held, by its own BatchRecords metric. */
const evaluateRecords = (samples: readonly MetricSample[]): number =>
  samples
    .filter((s) => s.name === DOCKET_METRICS.batchRecords && s.dimensions.service === DOCKET_SERVICES.evaluate)
    .reduce((n, s) => n + s.values.reduce((a, b) => a + b, 0), 0);
