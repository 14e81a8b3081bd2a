/**
 * Clients and adapters for one stack (the local stack or an account), shared by the pipeline CLI commands and the
 * local runner, built from resolved settings (stack/settings.ts).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createDynamoDbClient, createSqsClient } from '../adapters/aws-clients.js';
import { DynamoDbLedgerStore } from '../adapters/dynamodb-ledger-store.js';
import { DynamoDbGraphRegistry } from '../adapters/dynamodb-graph-registry.js';
import { DynamoDbPackRegistry } from '../adapters/dynamodb-pack-registry.js';
import { DynamoDbRequestArchive } from '../adapters/dynamodb-request-archive.js';
import { getQueueUrl } from '../adapters/sqs.js';
import type { StackSettings } from './settings.js';

export interface StackClients {
  readonly settings: StackSettings;
  readonly dynamodb: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly store: DynamoDbLedgerStore;
  readonly registry: DynamoDbPackRegistry;
  /** Published judgment graphs, in the pack registry's table (ADR 0340). */
  readonly graphs: DynamoDbGraphRegistry;
  readonly archive: DynamoDbRequestArchive;
  /** A queue URL from a name (looked up once) or a URL (as is). */
  queueUrl(nameOrUrl: string): Promise<string>;
  close(): void;
}

export function openStack(settings: StackSettings): StackClients {
  const opts = { ...(settings.endpoint ? { endpoint: settings.endpoint } : {}), region: settings.region };
  // The CLI resolves its own endpoint; a stray AWS_ENDPOINT_URL must not redirect a command told "--endpoint aws".
  const env = settings.endpoint
    ? process.env
    : {
        ...process.env,
        AWS_ENDPOINT_URL: undefined,
        AWS_ENDPOINT_URL_SQS: undefined,
        AWS_ENDPOINT_URL_DYNAMODB: undefined,
      };
  const dynamodb = createDynamoDbClient(opts, env);
  const sqs = createSqsClient(opts, env);
  const urls = new Map<string, Promise<string>>();
  return {
    settings,
    dynamodb,
    sqs,
    store: new DynamoDbLedgerStore({ client: dynamodb, tableName: settings.ledgerTable }),
    registry: new DynamoDbPackRegistry({ client: dynamodb, tableName: settings.packsTable }),
    graphs: new DynamoDbGraphRegistry({ client: dynamodb, tableName: settings.packsTable }),
    archive: new DynamoDbRequestArchive({ client: dynamodb, tableName: settings.requestsTable }),
    queueUrl(nameOrUrl) {
      if (/^https?:\/\//.test(nameOrUrl)) return Promise.resolve(nameOrUrl);
      if (!urls.has(nameOrUrl)) urls.set(nameOrUrl, getQueueUrl(sqs, nameOrUrl));
      return urls.get(nameOrUrl)!;
    },
    close() {
      dynamodb.destroy();
      sqs.destroy();
    },
  };
}

/** A table or queue the stage does not have. */
export const isMissingResource = (e: unknown): boolean =>
  ['ResourceNotFoundException', 'QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue'].includes(
    (e as { name?: string } | null)?.name ?? '',
  );

/** A connection failure to the local stack, explained for people. */
export function explainStackError(e: unknown, settings: StackSettings): string {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err?.code ?? err?.cause?.code ?? err?.name;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(err?.message ?? '')) {
    return `cannot reach ${settings.endpoint ?? 'AWS'}: is the local stack running? Start it with "npm start" (docket local start).`;
  }
  if (isMissingResource(e))
    return `${err.message ?? err.name} (stage ${settings.stage}; check --stage, --table, --queue)`;
  return `${err?.name ?? 'Error'}: ${err?.message ?? String(e)}`;
}
