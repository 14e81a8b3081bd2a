/**
 * The archive cross-check the scheduled checkpoint function runs before it signs (docs/adr/0457-no-checkpoint-over-an-open-omission.md,
 * docs/adr/0487-the-checkpoint-function-cross-checks-the-archive.md), from its environment: the request archive
 * (REQUESTS_TABLE), the configured logs' entries, the intake queue and the FIFO ledger queue (their attributes), and
 * both DLQs on that path (read without consuming). Any read failure throws: the run signs nothing rather than sign
 * without the check. The rejects queue is not read: a reject has no `DeadLetterQueueSourceArn` and excuses no
 * omission (docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDbRequestArchive } from '../../adapters/dynamodb-request-archive.js';
import { crossCheckArchive, requestPath } from '../../adapters/request-omissions.js';
import type { LedgerStore, RequestWithoutEntryFinding } from '../../core/ledger/index.js';

/** The environment the cross-check reads (infra/function-environment.ts `checkpointEnvironment`). */
const NEEDED = ['REQUESTS_TABLE', 'INTAKE_QUEUE_URL', 'LEDGER_QUEUE_URL', 'INTAKE_DLQ_URL', 'LEDGER_DLQ_URL'] as const;

/** A queue's physical name: the last segment of its URL (https://sqs.<region>.amazonaws.com/<account>/<name>). */
const nameOf = (url: string): string => url.split('/').at(-1) ?? url;

/**
 * The open omissions, or undefined for a stage whose environment names no request archive (nothing to cross-check).
 * An environment naming some of the inputs but not all is a misconfiguration: it throws, and nothing is signed.
 */
export async function checkpointOmissions(
  env: NodeJS.ProcessEnv,
  clients: { readonly dynamodb: DynamoDBClient; readonly sqs: SQSClient },
  store: Pick<LedgerStore, 'readEntries'>,
  logIds: readonly string[],
): Promise<readonly RequestWithoutEntryFinding[] | undefined> {
  const missing = NEEDED.filter((k) => !env[k]);
  if (missing.length === NEEDED.length) return undefined;
  if (missing.length > 0)
    throw new TypeError(`the archive cross-check needs ${missing.join(', ')} (set with ${NEEDED.join(', ')})`);
  const url = (k: (typeof NEEDED)[number]): string => env[k]!;
  const check = await crossCheckArchive({
    archive: new DynamoDbRequestArchive({ client: clients.dynamodb, tableName: url('REQUESTS_TABLE') }),
    store,
    logIds,
    sqs: clients.sqs,
    pathQueues: requestPath(
      { name: nameOf(url('INTAKE_QUEUE_URL')), url: url('INTAKE_QUEUE_URL') },
      { name: nameOf(url('LEDGER_QUEUE_URL')), url: url('LEDGER_QUEUE_URL') },
    ),
    deadLetterQueueUrls: [url('INTAKE_DLQ_URL'), url('LEDGER_DLQ_URL')],
  });
  return check.findings;
}
