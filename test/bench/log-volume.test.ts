/**
 * What the functions write to CloudWatch Logs, measured (docs/adr/0502-log-volume-measured-and-cut.md): the real
 * runtimes (functions/lib/*-runtime.ts) with the observers and batch metrics their handlers give them
 * (functions/evaluate.ts, deliver.ts, sequence.ts), run in process over the in-memory ledger on Lambda-shaped SQS
 * events of 1 and 10 records, every byte they print counted. Two batch sizes split a function's bytes into a part per
 * record and a part per invocation; Lambda's own platform.start and platform.report lines (the published JSON format
 * the functions are configured with) come on top of each invocation when the functions' system log level sends them
 * (INFO; infra/constructs/docket-function.ts keeps WARN, which sends neither). The scale model's constants
 * (bench/support/aws-model/cost-model.ts LOG_BYTES) must not be below what is measured here.
 *
 * `npx vitest run test/bench/log-volume.test.ts` prints the figures.
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOCKET_SERVICES } from '../../core/metric-names.js';
import type { CapacityMeter } from '../../adapters/consumed-capacity.js';
import { measuredBatches, type SqsBatchHandler } from '../../functions/lib/batch-metrics.js';
import { createSequenceRuntime } from '../../functions/lib/sequence-runtime.js';
import { LOG_BYTES } from '../../bench/support/aws-model/cost-model.js';
import { SYSTEM_LOG_LEVEL } from '../../infra/constructs/docket-function.js';
import { triage } from '../pipeline/example-requests-fixture.js';
import { jobBody, observedRuntimes, printedWhile, sqsEvent } from '../pipeline/observed-runtimes-fixture.js';

const LOG = 'prod-0';
const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Lambda's system log lines per invocation in the JSON log format at the default system log level INFO: "start" and
 * "report" (AWS Lambda Developer Guide, "Log-level filtering": at INFO Lambda sends the start and report messages;
 * platform.runtimeDone is DEBUG; https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-log-level.html).
 * Shapes from the Telemetry API event schema reference (telemetry-schema-reference.html there; platform.start: requestId,
 * version, tracing; platform.report: requestId, metrics, tracing, status), with a cold start's initDurationMs and an
 * active-tracing X-Ray header as the functions run (tracing ACTIVE): the longest a warm or cold invocation writes.
 */
const traceHeader = 'Root=1-6571b3a0-5d1a4c3b2e9f8a7b6c5d4e3f;Parent=53995c3f42cd8ad8;Sampled=1';
const PLATFORM_LINES = [
  {
    time: '2026-12-07T06:10:02.123Z',
    type: 'platform.start',
    record: {
      requestId: '6d68ca91-49c9-448d-89b8-7ca3e6dc66aa',
      version: '$LATEST',
      tracing: { spanId: '54565fb41ac79632', type: 'X-Amzn-Trace-Id', value: traceHeader },
    },
  },
  {
    time: '2026-12-07T06:10:02.331Z',
    type: 'platform.report',
    record: {
      requestId: '6d68ca91-49c9-448d-89b8-7ca3e6dc66aa',
      metrics: {
        durationMs: 208.123,
        billedDurationMs: 209,
        memorySizeMB: 1024,
        maxMemoryUsedMB: 141,
        initDurationMs: 412.654,
      },
      tracing: { spanId: '54565fb41ac79632', type: 'X-Amzn-Trace-Id', value: traceHeader },
      status: 'success',
    },
  },
];
const PLATFORM_BYTES = PLATFORM_LINES.reduce((a, l) => a + utf8(JSON.stringify(l)) + 1, 0);
/** Lambda sends the start and report lines at the system log levels INFO and DEBUG, neither at WARN. */
const platformBytesSent = SYSTEM_LOG_LEVEL === 'WARN' ? 0 : PLATFORM_BYTES;

/** The bytes printed while `run` runs. */
async function bytesPrinted(run: () => Promise<unknown>): Promise<{ bytes: number; text: string }> {
  const text = await printedWhile(run);
  return { bytes: utf8(text), text };
}

const event = (bodies: readonly string[], fifo: boolean): SQSEvent => sqsEvent(bodies, fifo ? LOG : undefined);

/** A capacity meter answering as the functions' DynamoDB client does for the tables each one writes and reads. */
const meterOf = (tables: readonly string[]): CapacityMeter => ({
  drain: () => ({
    read: tables.length,
    write: tables.length,
    tables: Object.fromEntries(tables.map((t) => [t, { read: 1.5, write: 12.5 }])),
  }),
});

/** The functions as their handlers wire them, over one in-memory ledger, and the delivery jobs evaluate sent. */
function functions() {
  const { evaluate, deliver, jobs } = observedRuntimes(LOG);
  const sqs = {
    send: async (c: { input: { Entries: { Id: string }[] } }) => ({
      Successful: c.input.Entries.map((e) => ({ Id: e.Id, MessageId: randomUUID() })),
      Failed: [],
    }),
  } as unknown as SQSClient;
  const sequence = createSequenceRuntime({ sqs, ledgerQueueUrl: 'https://sqs/ledger.fifo', logIds: [LOG] });
  const handlers: Record<'sequence' | 'evaluate' | 'deliver', SqsBatchHandler> = {
    sequence: (e) => sequence.handle(e),
    evaluate: measuredBatches((e) => evaluate.handle(e), {
      serviceName: DOCKET_SERVICES.evaluate,
      perLog: true,
      meter: meterOf(['docket-prod-ledger', 'docket-prod-requests']),
    }),
    deliver: measuredBatches((e) => deliver.handle(e), {
      serviceName: DOCKET_SERVICES.deliver,
      meter: meterOf(['docket-prod-ledger']),
    }),
  };
  return { handlers, jobs };
}

const requests = (n: number): string[] => Array.from({ length: n }, () => triage(`req-${randomUUID()}`));

/** The measured figures: bytes per evaluation, and per invocation of each function (its lines, without Lambda's). */
async function measure() {
  const f = functions();
  const printed = async (fn: keyof typeof f.handlers, e: SQSEvent) => {
    let answer: Awaited<ReturnType<SqsBatchHandler>> | undefined;
    const p = await bytesPrinted(async () => (answer = await f.handlers[fn](e)));
    expect(answer?.batchItemFailures, p.text).toEqual([]);
    return p.bytes;
  };
  // Warm first (the pack cache filled, module-level state settled), as most invocations run.
  await printed('evaluate', event(requests(1), true));
  const evaluate1 = await printed('evaluate', event(requests(1), true));
  const evaluate10 = await printed('evaluate', event(requests(10), true));
  const [, job1, job10] = f.jobs;
  expect(job1?.entries).toHaveLength(1);
  expect(job10?.entries).toHaveLength(10);
  const deliver1 = await printed('deliver', event([jobBody(job1!)], false));
  const deliver10 = await printed('deliver', event([jobBody(job10!)], false));
  // Two one-entry jobs in one invocation: what a job adds beside the invocation's own lines.
  await printed('evaluate', event(requests(1), true));
  const twoJobs = await printed('deliver', event([jobBody(job1!), jobBody(f.jobs[3]!)], false));
  const sequence1 = await printed('sequence', event(requests(1), false));
  const sequence10 = await printed('sequence', event(requests(10), false));

  const evaluatePerRecord = (evaluate10 - evaluate1) / 9;
  const deliverPerEntry = (deliver10 - deliver1) / 9;
  // twoJobs − deliver1 is one more job and its one entry.
  const deliverPerJob = twoJobs - deliver1 - deliverPerEntry;
  return {
    sequencePerRecord: (sequence10 - sequence1) / 9,
    evaluatePerRecord,
    deliverPerEntry,
    deliverPerJob,
    perEvaluation: evaluatePerRecord + deliverPerEntry,
    perInvocation: {
      sequence: sequence1 - (sequence10 - sequence1) / 9,
      // Each evaluate batch (one log) sends one delivery job: the job's own line is charged to the batch.
      evaluate: evaluate1 - evaluatePerRecord + deliverPerJob,
      deliver: deliver1 - deliverPerEntry - deliverPerJob,
    },
  };
}

describe('the log volume the scale model prices', () => {
  beforeEach(() => {
    // In Lambda with active tracing every line of Powertools Logger carries the invocation's trace id.
    vi.stubEnv('_X_AMZN_TRACE_ID', traceHeader);
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'docket-prod-evaluate');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('prices at least the bytes the functions print per evaluation and per invocation, and Lambda’s lines when sent', async () => {
    const m = await measure();
    const figures = {
      perEvaluation: Math.ceil(m.perEvaluation),
      evaluatePerRecord: Math.ceil(m.evaluatePerRecord),
      deliverPerEntry: Math.ceil(m.deliverPerEntry),
      sequencePerRecord: Math.ceil(m.sequencePerRecord),
      systemLogLevel: SYSTEM_LOG_LEVEL,
      platformPerInvocationAtInfo: PLATFORM_BYTES,
      perInvocation: Object.fromEntries(
        Object.entries(m.perInvocation).map(([k, v]) => [k, Math.ceil(v) + platformBytesSent]),
      ),
    };
    console.info(`log bytes measured: ${JSON.stringify(figures)}`);
    // The sequence function prints nothing of its own for a batch it forwards.
    expect(m.sequencePerRecord).toBe(0);
    expect(LOG_BYTES.perEvaluation).toBeGreaterThanOrEqual(m.perEvaluation);
    for (const fn of ['sequence', 'evaluate', 'deliver'] as const)
      expect(LOG_BYTES.perInvocation[fn], fn).toBeGreaterThanOrEqual(m.perInvocation[fn] + platformBytesSent);
  });
});
