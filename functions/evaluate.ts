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
import { evaluateRuntimeFromEnv, type EvaluateRuntime } from './lib/evaluate-runtime.js';
import { powertoolsObservability } from './lib/observability.js';
import { loadSigningKey } from '../adapters/signing-key.js';
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';

// node:crypto for the ledger's hashes and signatures (docs/adr/0185-ledger-crypto-port.md).
useNodeLedgerCrypto();

let runtime: Promise<EvaluateRuntime> | undefined;

async function coldStart(): Promise<EvaluateRuntime> {
  const signer = await loadSigningKey(process.env);
  return evaluateRuntimeFromEnv({
    env: process.env,
    signer,
    buildDigest: buildDigest(process.env, import.meta.url),
    observability: powertoolsObservability('docket-evaluate', 'Docket'),
  });
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  runtime ??= coldStart();
  let rt: EvaluateRuntime;
  try {
    rt = await runtime;
  } catch (e) {
    // A failed cold start (key unreadable, bad configuration) is not cached: the next invocation retries it.
    // Throwing fails the whole batch, which SQS redelivers (never an empty failure list, which would mean success).
    runtime = undefined;
    throw e;
  }
  return rt.handle(event);
}
