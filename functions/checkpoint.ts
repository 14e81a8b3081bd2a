/**
 * The checkpoint Lambda: on its EventBridge schedule (and when invoked on demand) it runs the verifying checkpoint
 * writer over every log (core/ledger/write/checkpoint-writer.ts) with its own checkpoint key (KMS in the cloud) and the
 * trust policy, and exports all checkpoints outside the table — to S3 in the cloud (CHECKPOINT_EXPORT_BUCKET; the
 * bucket's Object Lock keeps them), to a file locally (DOCKET_CHECKPOINT_EXPORT_FILE). A log whose new entries
 * verify would refuse gets no checkpoint, nor does any log while the archive cross-check finds an archived request
 * without an entry (functions/lib/checkpoint-omissions.ts, ADR 0487): an ERROR log line names the findings and the CheckpointRefusals metric
 * (alarmed in infra/constructs/alarms.ts) counts it, on every run until the log is repaired. Thin: wiring only.
 */
import { writeFile } from 'node:fs/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { createDynamoDbClient, createSqsClient } from '../adapters/aws-clients.js';
import { DynamoDbLedgerStore } from '../adapters/dynamodb-ledger-store.js';
import { describeRefusal, rfc3339Now, runCheckpoints, type CheckpointRun } from './lib/checkpoint-runner.js';
import { checkpointOmissions } from './lib/checkpoint-omissions.js';
import { requiredEnv } from './lib/environment-lists.js';
import { loadCheckpointSigner, loadTrustPolicy } from '../adapters/checkpoint-key.js';
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';
import { DOCKET_SERVICES } from '../core/metric-names.js';
import { functionTracer, traced } from './lib/tracing.js';

// node:crypto for the ledger's hashes and signatures (docs/adr/0185-ledger-crypto-port.md).
useNodeLedgerCrypto();

/** The metric the checkpoint-refusals alarm watches (namespace Docket, service docket-checkpoint). */
export const CHECKPOINT_REFUSALS_METRIC = 'CheckpointRefusals';

const tracer = functionTracer(DOCKET_SERVICES.checkpoint);

export const handler = traced(tracer, checkpointAll);

async function checkpointAll(): Promise<{ checkpoints: CheckpointRun['checkpoints'] }> {
  const env = process.env;
  const table = requiredEnv(env, 'LEDGER_TABLE');
  const logIds = JSON.parse(env.LOG_IDS ?? '[]') as string[];
  const [signer, policy] = await Promise.all([loadCheckpointSigner(env), loadTrustPolicy(env)]);
  const dynamodb = tracer.captureAWSv3Client(createDynamoDbClient({}, env));
  const store = new DynamoDbLedgerStore({ client: dynamodb, tableName: table });
  // The archive cross-check first: no log is signed over an open omission (ADR 0457, ADR 0487).
  const sqs = tracer.captureAWSv3Client(createSqsClient({}, env));
  const omissions = await checkpointOmissions(env, { dynamodb, sqs }, store, logIds);
  const time = rfc3339Now();
  const run = await runCheckpoints({
    store,
    signer,
    policy,
    logIds,
    origin: { environment: env.DOCKET_STAGE ?? 'unknown', table },
    time,
    ...(omissions !== undefined ? { omissions } : {}),
  });
  const metrics = new Metrics({ namespace: 'Docket', serviceName: 'docket-checkpoint' });
  for (const r of run.refused) {
    console.log(JSON.stringify({ level: 'ERROR', message: describeRefusal(r), logId: r.logId, findings: r.findings }));
  }
  // Published on every run (0 when all is well) so the alarm sees data, and refusals repeat until repaired.
  metrics.addMetric(CHECKPOINT_REFUSALS_METRIC, MetricUnit.Count, run.refused.length);
  metrics.publishStoredMetrics();
  if (env.DOCKET_CHECKPOINT_EXPORT_FILE) await writeFile(env.DOCKET_CHECKPOINT_EXPORT_FILE, run.export);
  if (env.DOCKET_CHECKPOINT_NOTES_FILE && run.notes !== null)
    await writeFile(env.DOCKET_CHECKPOINT_NOTES_FILE, run.notes);
  if (env.CHECKPOINT_EXPORT_BUCKET) {
    const s3 = tracer.captureAWSv3Client(new S3Client({}));
    // One immutable object per run (Object Lock retains it) plus nothing mutable: readers list by prefix. The
    // checkpoint notes (C2SP tlog-checkpoint, with any cosignatures so far) beside them, for witnesses.
    const objects = { checkpoints: run.export, ...(run.notes !== null ? { notes: run.notes } : {}) };
    for (const [prefix, body] of Object.entries(objects))
      await s3.send(
        new PutObjectCommand({
          Bucket: env.CHECKPOINT_EXPORT_BUCKET,
          Key: `${prefix}/${time}.json`,
          Body: body,
          ContentType: 'application/json',
        }),
      );
  }
  console.log(JSON.stringify({ level: 'INFO', message: 'checkpoints written', checkpoints: run.checkpoints }));
  return { checkpoints: run.checkpoints };
}
