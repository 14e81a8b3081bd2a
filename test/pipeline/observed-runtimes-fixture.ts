/**
 * The evaluate and deliver runtimes with the observers their handlers give them (functions/evaluate.ts,
 * functions/deliver.ts: Powertools Logger and Metrics), over the in-memory ledger; Lambda-shaped SQS events; and
 * everything they print. For the tests of what the functions log (docs/adr/0502-log-volume-measured-and-cut.md).
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { vi } from 'vitest';
import { deliveryJobBytes, type DeliveryJob } from '../../core/pipeline/delivery-job.js';
import { DOCKET_SERVICES } from '../../core/metric-names.js';
import { powertoolsDeliverObserver } from '../../functions/lib/deliver-observability.js';
import { createDeliverRuntime } from '../../functions/lib/deliver-runtime.js';
import { createEvaluateRuntime } from '../../functions/lib/evaluate-runtime.js';
import { powertoolsObservability } from '../../functions/lib/observability.js';
import { ledgerMessage } from './ledger-queue-fixture.js';
import { memoryPipeline } from './memory-pipeline-fixture.js';

/** Everything printed to stdout, stderr or the console while `run` runs (Powertools prints through a Console). */
export async function printedWhile(run: () => Promise<unknown>): Promise<string> {
  const out: string[] = [];
  const keep = (chunk: string | Uint8Array) => (
    out.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()),
    true
  );
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' ') + '\n')),
    ),
  ];
  try {
    await run();
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
  return out.join('');
}

/**
 * An SQS record as the event source mapping hands it over: ids and timestamps as SQS sets them, and on the FIFO ledger
 * queue (`group` given) the group.
 */
function sqsRecord(body: string, group: string | undefined): SQSRecord {
  const sent = String(Date.now() - 40);
  return {
    messageId: randomUUID(),
    receiptHandle: `AQEB${'x'.repeat(160)}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: sent,
      SenderId: 'AROAEXAMPLEROLEID:docket-prod-sequence',
      ApproximateFirstReceiveTimestamp: sent,
      ...(group !== undefined
        ? { MessageGroupId: group, MessageDeduplicationId: 'd'.repeat(64), SequenceNumber: '1'.repeat(20) }
        : {}),
    },
    messageAttributes: {},
    md5OfBody: '0'.repeat(32),
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:123456789012:docket-prod-${group !== undefined ? 'ledger.fifo' : 'delivery'}`,
    awsRegion: 'us-east-1',
  } as SQSRecord;
}

/**
 * An event of `bodies`: from the FIFO ledger queue's `group` when given, one ledger message carrying them all with
 * their intake ids and sent times (as the sequence function packs an intake batch); else each from a standard queue.
 */
export const sqsEvent = (bodies: readonly string[], group?: string): SQSEvent => {
  if (group === undefined) return { Records: bodies.map((b) => sqsRecord(b, undefined)) };
  const intakeSentTimestamp = String(Date.now() - 90);
  const message = ledgerMessage(bodies.map((body) => ({ body, intakeMessageId: randomUUID(), intakeSentTimestamp })));
  return { Records: [sqsRecord(message, group)] };
};

/** A delivery job's body, as the evaluate function sends it. */
export function jobBody(job: DeliveryJob): string {
  const b = deliveryJobBytes(job);
  if (!b.ok) throw new Error(b.error.message);
  return b.value;
}

/** The two runtimes over one ledger of `logId`, the delivery jobs evaluate sent and the handoff ids deliver sent. */
export function observedRuntimes(logId: string) {
  const p = memoryPipeline({ logIds: [logId] });
  const jobs: DeliveryJob[] = [];
  const sent: string[] = [];
  const evaluate = createEvaluateRuntime({
    config: p.config,
    ports: { packs: p.packSource, archive: { put: async () => undefined } },
    ledger: p.writer,
    jobs: { send: async (list) => (jobs.push(...list), { failed: [] }) },
    deadLetter: async () => undefined,
    observability: powertoolsObservability(DOCKET_SERVICES.evaluate, 'Docket'),
  });
  const deliver = createDeliverRuntime({
    config: p.routes,
    ports: {
      store: p.store,
      packs: p.packSource,
      outbox: {
        handoffs: { sendBatch: async (_q, hs) => (sent.push(...hs.map((h) => h.handoffId)), { failed: [] }) },
        results: { publishBatch: async () => ({ failed: [] }) },
      },
    },
    deadLetter: async () => undefined,
    observer: powertoolsDeliverObserver(DOCKET_SERVICES.deliver, 'Docket'),
  });
  return { evaluate, deliver, jobs, sent };
}
