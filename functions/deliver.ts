/**
 * The deliver Lambda, the delivery stage (docs/adr/0404-delivery-stage.md): delivery queue → the ledger's recorded
 * entries → positions, handoffs, result notifications. Thin: the decision is core/pipeline/deliver-job.ts, the work
 * functions/lib/deliver-runtime.ts. Holds no signing key: it reads entries and writes only positions.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createDynamoDbClient, createSnsClient, createSqsClient } from '../adapters/aws-clients.js';
import { meterConsumedCapacity } from '../adapters/consumed-capacity.js';
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';
import { DOCKET_SERVICES } from '../core/metric-names.js';
import { measuredBatches, type SqsBatchHandler } from './lib/batch-metrics.js';
import { powertoolsDeliverObserver } from './lib/deliver-observability.js';
import { deliverRuntimeFromEnv } from './lib/deliver-runtime.js';
import { functionTracer, traced } from './lib/tracing.js';

// node:crypto for the hashes the handoff and notification ids are derived from (docs/adr/0185-ledger-crypto-port.md).
useNodeLedgerCrypto();

const tracer = functionTracer(DOCKET_SERVICES.deliver);
let runtime: SqsBatchHandler | undefined;

function coldStart(): SqsBatchHandler {
  // Traced (functions/lib/tracing.ts) and metered (batch metrics: units consumed) before their first call.
  const env = process.env;
  const dynamodb = tracer.captureAWSv3Client(createDynamoDbClient({}, env));
  const meter = meterConsumedCapacity(dynamodb);
  const rt = deliverRuntimeFromEnv({
    env,
    observer: powertoolsDeliverObserver(),
    dynamodb,
    sqs: tracer.captureAWSv3Client(createSqsClient({}, env)),
    sns: tracer.captureAWSv3Client(createSnsClient({}, env)),
  });
  return traced(
    tracer,
    measuredBatches((event) => rt.handle(event), { serviceName: DOCKET_SERVICES.deliver, meter }),
  );
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  // A failed cold start throws before `runtime` is set: the batch is redelivered and the next invocation retries.
  runtime ??= coldStart();
  return runtime(event);
}
