/**
 * The deliver Lambda, the delivery stage (docs/adr/0404-delivery-stage.md): delivery queue → the ledger's recorded
 * entries → positions, handoffs, result notifications. Thin: the decision is core/pipeline/deliver-job.ts, the work
 * functions/lib/deliver-runtime.ts. Holds no signing key: it reads entries and writes only positions.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';
import { powertoolsDeliverObserver } from './lib/deliver-observability.js';
import { deliverRuntimeFromEnv, type DeliverRuntime } from './lib/deliver-runtime.js';

// node:crypto for the hashes the handoff and notification ids are derived from (docs/adr/0185-ledger-crypto-port.md).
useNodeLedgerCrypto();

let runtime: DeliverRuntime | undefined;

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  // A failed cold start throws before `runtime` is set: the batch is redelivered and the next invocation retries.
  runtime ??= deliverRuntimeFromEnv({ env: process.env, observer: powertoolsDeliverObserver() });
  return runtime.handle(event);
}
