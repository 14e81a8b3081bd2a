/**
 * The sequence Lambda (docs/pipeline.md, docs/adr/0270-one-writer-per-log.md): standard intake queue → FIFO ledger
 * queue, message group = the request's log, so the evaluate function has one writer per log. Thin: the decision is
 * core/pipeline/sequencing.ts, the work functions/lib/sequence-runtime.ts. Holds no signing key and no table access.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { createSqsClient } from '../adapters/aws-clients.js';
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';
import { DOCKET_SERVICES } from '../core/metric-names.js';
import { jsonArray, requiredEnv } from './lib/environment-lists.js';
import { createSequenceRuntime } from './lib/sequence-runtime.js';
import { functionTracer, traced } from './lib/tracing.js';

// node:crypto for the deduplication digest (docs/adr/0185-ledger-crypto-port.md).
useNodeLedgerCrypto();

const tracer = functionTracer(DOCKET_SERVICES.sequence);
let runtime: ((event: SQSEvent) => Promise<SQSBatchResponse>) | undefined;

function coldStart(): (event: SQSEvent) => Promise<SQSBatchResponse> {
  const logger = new Logger({ serviceName: DOCKET_SERVICES.sequence });
  const rt = createSequenceRuntime({
    // Traced: its sends carry the trace header on to the evaluate function (functions/lib/tracing.ts).
    sqs: tracer.captureAWSv3Client(createSqsClient({}, process.env)),
    ledgerQueueUrl: requiredEnv(process.env, 'LEDGER_QUEUE_URL'),
    logIds: jsonArray(process.env.LOG_IDS, 'LOG_IDS'),
    observer: {
      failed: (messageId, reason) => logger.error('not forwarded; it will be redelivered', { messageId, reason }),
    },
  });
  return traced(tracer, (event) => rt.handle(event));
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  runtime ??= coldStart();
  return runtime(event);
}
