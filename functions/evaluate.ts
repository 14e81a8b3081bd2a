/**
 * The evaluate Lambda: FIFO ledger queue (one message group per log) → admission → evaluation → append → one
 * delivery job per log on the delivery queue, with partial batch responses (ReportBatchItemFailures); the deliver
 * function sends the handoffs and notifications (docs/architecture.md, docs/adr/0404-delivery-stage.md). Thin by
 * design: decode the event, call the pipeline, return. Everything else lives in
 * core/pipeline (logic) and adapters (AWS). Built once per cold start: the signing key (Secrets Manager, or a local
 * key file), the build digest of this bundle, the clients and the compiled-pack cache.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { buildDigest } from './lib/build-digest.js';
import { measuredBatches, type SqsBatchHandler } from './lib/batch-metrics.js';
import { evaluateRuntimeFromEnv } from './lib/evaluate-runtime.js';
import { powertoolsObservability } from './lib/observability.js';
import { functionTracer, traced } from './lib/tracing.js';
import { createDynamoDbClient, createSqsClient } from '../adapters/aws-clients.js';
import { meterConsumedCapacity } from '../adapters/consumed-capacity.js';
import { DOCKET_SERVICES } from '../core/metric-names.js';
import { loadSigningKey } from '../adapters/signing-key.js';
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';

// node:crypto for the ledger's hashes and signatures (docs/adr/0185-ledger-crypto-port.md).
useNodeLedgerCrypto();

const tracer = functionTracer(DOCKET_SERVICES.evaluate);
let runtime: Promise<SqsBatchHandler> | undefined;

async function coldStart(): Promise<SqsBatchHandler> {
  const signer = await loadSigningKey(process.env);
  // Traced (functions/lib/tracing.ts) and metered (batch metrics: units consumed) before their first call.
  const dynamodb = tracer.captureAWSv3Client(createDynamoDbClient({}, process.env));
  const meter = meterConsumedCapacity(dynamodb);
  const rt = evaluateRuntimeFromEnv({
    env: process.env,
    signer,
    buildDigest: buildDigest(process.env, import.meta.url),
    observability: powertoolsObservability(DOCKET_SERVICES.evaluate, 'Docket'),
    dynamodb,
    sqs: tracer.captureAWSv3Client(createSqsClient({}, process.env)),
  });
  return traced(
    tracer,
    measuredBatches((event) => rt.handle(event), { serviceName: DOCKET_SERVICES.evaluate, perLog: true, meter }),
  );
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  runtime ??= coldStart();
  let rt: SqsBatchHandler;
  try {
    rt = await runtime;
  } catch (e) {
    // A failed cold start (key unreadable, bad configuration) is not cached: the next invocation retries it.
    // Throwing fails the whole batch, which SQS redelivers (never an empty failure list, which would mean success).
    runtime = undefined;
    throw e;
  }
  return rt(event);
}
