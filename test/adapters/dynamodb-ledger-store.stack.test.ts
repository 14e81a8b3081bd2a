import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbLedgerStore } from '../../adapters/dynamodb-ledger-store.js';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { StoreReadError } from '../../core/ledger/store/store.js';
import { appendOnce } from '../../core/ledger/write/append.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { fixtureTemplate } from '../localstack/fixture-template.js';
import { ledgerStoreBehaviour } from './ledger-store-behaviour.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import { digestOf, rawEntry, refusalEntry } from './entry-fixture.js';

let stack: LocalStack;
let client: DynamoDBClient;
const TABLE = 'lt-ledger';

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template: fixtureTemplate('lt') });
  client = createDynamoDbClient({ endpoint: stack.endpoint });
});
afterAll(async () => {
  client?.destroy();
  await stack?.stop();
});

ledgerStoreBehaviour('the in-memory store', () => new MemoryLedgerStore());
ledgerStoreBehaviour(
  'the DynamoDB store over the local stack',
  () => new DynamoDbLedgerStore({ client, tableName: TABLE }),
);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('the DynamoDB ledger store over the wire', () => {
  let relay: RecordingProxy;
  let relayed: DynamoDBClient;
  beforeAll(async () => {
    relay = await startRecordingProxy(stack.endpoint);
    relayed = createDynamoDbClient({ endpoint: relay.endpoint, maxAttempts: 2 });
  });
  afterAll(async () => {
    relayed?.destroy();
    await relay?.close();
  });

  it('throws StoreReadError, never a shorter log, when a later result page cannot be read', async () => {
    const store = new DynamoDbLedgerStore({ client: relayed, tableName: TABLE });
    const log = `throttled-${Date.now()}`;
    for (let seq = 0; seq < 80; seq++) await store.putEntryIfAbsent(rawEntry(log, seq, 30_000));
    relay.fail = (target, body) =>
      target.endsWith('.Query') && body.ExclusiveStartKey ? 'ProvisionedThroughputExceededException' : null;
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const e of store.readEntries(log, 0)) seen.push(e.seq);
    } catch (e) {
      error = e;
    }
    relay.fail = () => null;
    expect(error).toBeInstanceOf(StoreReadError);
    expect((error as StoreReadError).code).toBe('store-read-incomplete');
    // The first page was delivered before the failure, and the failure was not swallowed as an end of log.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(80);
    expect((await collect(store.readEntries(log, 0))).length).toBe(80);
  });

  it('throws StoreReadError when listing logs is cut short by throttling', async () => {
    const store = new DynamoDbLedgerStore({ client: relayed, tableName: TABLE });
    relay.fail = (target) => (target.endsWith('.Scan') ? 'ProvisionedThroughputExceededException' : null);
    await expect(store.listLogs()).rejects.toBeInstanceOf(StoreReadError);
    relay.fail = () => null;
  });

  it('throws StoreReadError for every read when the table does not exist', async () => {
    const store = new DynamoDbLedgerStore({ client, tableName: 'no-such-table' });
    await expect(store.readHead('l')).rejects.toBeInstanceOf(StoreReadError);
    await expect(collect(store.readEntries('l', 0))).rejects.toBeInstanceOf(StoreReadError);
    await expect(store.readClaim('r')).rejects.toBeInstanceOf(StoreReadError);
    await expect(store.readPosition('r')).rejects.toBeInstanceOf(StoreReadError);
    await expect(collect(store.readCheckpoints('l'))).rejects.toBeInstanceOf(StoreReadError);
    await expect(store.listLogs()).rejects.toBeInstanceOf(StoreReadError);
  });

  it('lets a write that is not a lost race fail loudly instead of reporting the slot taken', async () => {
    const store = new DynamoDbLedgerStore({ client, tableName: 'no-such-table' });
    await expect(store.putEntryIfAbsent(rawEntry('l', 0))).rejects.toThrow();
  });

  it('appends using only conditional PutItem, GetItem and Query: never UpdateItem, DeleteItem or a batch', async () => {
    relay.targets.length = 0;
    const store = new DynamoDbLedgerStore({ client: relayed, tableName: TABLE });
    const logIds = [`ops-${Date.now()}`];
    for (const requestId of ['ops-1', 'ops-2', 'ops-1']) {
      const r = await appendOnce(store, {
        requestId,
        requestDigest: digestOf(requestId),
        logIds,
        build: (slot) => refusalEntry(slot, requestId),
      });
      expect(r.ok).toBe(true);
    }
    const ops = new Set(relay.targets.map((t) => t.split('.')[1]));
    expect([...ops].sort()).toEqual(['GetItem', 'PutItem', 'Query']);
  });

  it('surfaces an entry item with no body as an empty body for verify to judge, not as a repaired entry', async () => {
    const log = `bodyless-${Date.now()}`;
    await client.send(
      new PutItemCommand({
        TableName: TABLE,
        Item: { pk: { S: `log#${log}` }, sk: { N: '0' }, requestId: { S: 'r' } },
      }),
    );
    const head = await new DynamoDbLedgerStore({ client, tableName: TABLE }).readHead(log);
    expect(head).toEqual({ logId: log, seq: 0, body: '', projection: { requestId: 'r', kind: '', entryHash: '' } });
  });

  it('refuses an item whose sequence key is not a safe integer instead of guessing', async () => {
    const log = `badseq-${Date.now()}`;
    await client.send(
      new PutItemCommand({
        TableName: TABLE,
        Item: { pk: { S: `log#${log}` }, sk: { N: '9007199254740993' }, body: { S: '{}' } },
      }),
    );
    await expect(new DynamoDbLedgerStore({ client, tableName: TABLE }).readHead(log)).rejects.toBeInstanceOf(
      StoreReadError,
    );
  });
});
