/**
 * The checkpoint Lambda: on its EventBridge schedule (and when invoked on demand) it writes a signed checkpoint of
 * every log and exports all checkpoints outside the table — to S3 in the cloud (CHECKPOINT_EXPORT_BUCKET; the
 * bucket's Object Lock keeps them), to a file locally (DOCKET_CHECKPOINT_EXPORT_FILE). Thin: wiring only.
 */
import { writeFile } from 'node:fs/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createDynamoDbClient } from '../adapters/aws-clients.js';
import { DynamoDbLedgerStore } from '../adapters/dynamodb-ledger-store.js';
import { rfc3339Now, runCheckpoints, type CheckpointRun } from './lib/checkpoint-runner.js';
import { loadSigningKey } from './lib/signing-key.js';

export async function handler(): Promise<{ checkpoints: CheckpointRun['checkpoints'] }> {
  const env = process.env;
  const table = env.LEDGER_TABLE;
  if (!table) throw new TypeError('LEDGER_TABLE is required');
  const logIds = JSON.parse(env.LOG_IDS ?? '[]') as string[];
  const signer = await loadSigningKey(env);
  const store = new DynamoDbLedgerStore({ client: createDynamoDbClient({}, env), tableName: table });
  const time = rfc3339Now();
  const run = await runCheckpoints({
    store,
    signer,
    logIds,
    origin: { environment: env.DOCKET_STAGE ?? 'unknown', table },
    time,
  });
  if (env.DOCKET_CHECKPOINT_EXPORT_FILE) await writeFile(env.DOCKET_CHECKPOINT_EXPORT_FILE, run.export);
  if (env.DOCKET_CHECKPOINT_NOTES_FILE && run.notes !== null)
    await writeFile(env.DOCKET_CHECKPOINT_NOTES_FILE, run.notes);
  if (env.CHECKPOINT_EXPORT_BUCKET) {
    const s3 = new S3Client({});
    // One immutable object per run (Object Lock retains it) plus nothing mutable: readers list by prefix.
    await s3.send(
      new PutObjectCommand({
        Bucket: env.CHECKPOINT_EXPORT_BUCKET,
        Key: `checkpoints/${time}.json`,
        Body: run.export,
        ContentType: 'application/json',
      }),
    );
    // The checkpoint notes (C2SP tlog-checkpoint, with any cosignatures so far) beside them, for witnesses.
    if (run.notes !== null)
      await s3.send(
        new PutObjectCommand({
          Bucket: env.CHECKPOINT_EXPORT_BUCKET,
          Key: `notes/${time}.json`,
          Body: run.notes,
          ContentType: 'application/json',
        }),
      );
  }
  console.log(JSON.stringify({ level: 'INFO', message: 'checkpoints written', checkpoints: run.checkpoints }));
  return { checkpoints: run.checkpoints };
}
