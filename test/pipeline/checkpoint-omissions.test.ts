/**
 * The scheduled checkpoint function's archive cross-check reads its inputs from the environment
 * (functions/lib/checkpoint-omissions.ts, docs/adr/0487-the-checkpoint-function-cross-checks-the-archive.md): none
 * named is a stage with nothing to cross-check; some but not all is a misconfiguration that signs nothing. The
 * cross-check itself over the wire: test/e2e/handler.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { checkpointOmissions } from '../../functions/lib/checkpoint-omissions.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';

/** Clients that are never called: every test here decides before any read. */
const clients = {
  dynamodb: new DynamoDBClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:9' }),
  sqs: new SQSClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:9' }),
};

describe('the checkpoint function’s archive cross-check', () => {
  it('is not run for an environment that names no request archive and no path queue', async () => {
    expect(await checkpointOmissions({}, clients, new MemoryLedgerStore(), ['log-0'])).toBeUndefined();
  });

  it('refuses, naming what is missing, an environment that names the archive but not every queue it reads', async () => {
    const env = {
      REQUESTS_TABLE: 'docket-dev-requests',
      LEDGER_QUEUE_URL: 'https://sqs.example/1/docket-dev-ledger.fifo',
    };
    await expect(checkpointOmissions(env, clients, new MemoryLedgerStore(), ['log-0'])).rejects.toThrow(
      /needs INTAKE_QUEUE_URL, INTAKE_DLQ_URL, LEDGER_DLQ_URL/,
    );
  });
});
