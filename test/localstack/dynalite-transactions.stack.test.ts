/**
 * The emulator's TransactWriteItems (ADR 0351), driven by the real @aws-sdk/client-dynamodb over the wire: the SDK's
 * own parsing of its answers is what Docket's adapter relies on in AWS.
 */
import {
  CreateTableCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  TransactionCanceledException,
  type DynamoDBClient,
  type TransactWriteItemsCommandInput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { startDynalite } from '../../localstack/launcher.js';

let dynalite: Awaited<ReturnType<typeof startDynalite>>;
let client: DynamoDBClient;
const TABLE = 'tx-ledger';

beforeAll(async () => {
  dynalite = await startDynalite();
  client = createDynamoDbClient({ endpoint: dynalite.url, maxAttempts: 1 });
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'N' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
});
afterAll(async () => {
  client?.destroy();
  await dynalite?.stop();
});

const item = (pk: string, sk: number, body = 'b') => ({ pk: { S: pk }, sk: { N: String(sk) }, body: { S: body } });
const put = (pk: string, sk: number, body?: string) => ({
  Put: { TableName: TABLE, Item: item(pk, sk, body), ConditionExpression: 'attribute_not_exists(pk)' },
});
const get = async (pk: string, sk: number) =>
  (
    await client.send(
      new GetItemCommand({ TableName: TABLE, Key: { pk: { S: pk }, sk: { N: String(sk) } }, ConsistentRead: true }),
    )
  ).Item;

async function refusal(input: TransactWriteItemsCommandInput): Promise<{ name: string; message: string }> {
  try {
    await client.send(new TransactWriteItemsCommand(input));
  } catch (e) {
    return { name: (e as Error).name, message: (e as Error).message };
  }
  throw new Error('the transaction was accepted');
}

describe('TransactWriteItems on the local emulator', () => {
  it('writes every conditional Put of a transaction when all items are absent', async () => {
    await client.send(
      new TransactWriteItemsCommand({ TransactItems: [put('log#a', 0), put('log#a', 1), put('log#a', 2)] }),
    );
    for (const sk of [0, 1, 2]) expect(await get('log#a', sk)).toEqual(item('log#a', sk));
  });

  it('cancels the whole transaction when one item exists, with per-action reasons the SDK parses', async () => {
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item('log#b', 1, 'first') }));
    let error: unknown;
    try {
      await client.send(
        new TransactWriteItemsCommand({ TransactItems: [put('log#b', 0), put('log#b', 1, 'second'), put('log#b', 2)] }),
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'None',
      'ConditionalCheckFailed',
      'None',
    ]);
    expect(await get('log#b', 0)).toBeUndefined();
    expect(await get('log#b', 2)).toBeUndefined();
    expect((await get('log#b', 1))?.body).toEqual({ S: 'first' });
  });

  it('answers a repeated ClientRequestToken with the same request as success without writing again', async () => {
    const input = { ClientRequestToken: 'token-c', TransactItems: [put('log#c', 0), put('log#c', 1)] };
    await client.send(new TransactWriteItemsCommand(input));
    await client.send(new TransactWriteItemsCommand(input));
    expect(await get('log#c', 1)).toEqual(item('log#c', 1));
    const other = await refusal({ ClientRequestToken: 'token-c', TransactItems: [put('log#c', 5)] });
    expect(other.name).toBe('IdempotentParameterMismatchException');
    expect(await get('log#c', 5)).toBeUndefined();
  });

  it('serializes concurrent transactions on the same items: exactly one of them lands', async () => {
    const racers = Array.from({ length: 8 }, (_, i) =>
      client
        .send(new TransactWriteItemsCommand({ TransactItems: [put('log#d', 0, `w${i}`), put('log#d', 1, `w${i}`)] }))
        .then(
          () => i,
          (e: Error) => e.name,
        ),
    );
    const outcomes = await Promise.all(racers);
    const winners = outcomes.filter((o) => typeof o === 'number');
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'TransactionCanceledException')).toHaveLength(7);
    expect((await get('log#d', 0))?.body).toEqual((await get('log#d', 1))?.body);
  });

  it('refuses what it does not implement with a ValidationException, writing nothing', async () => {
    const cases: TransactWriteItemsCommandInput[] = [
      { TransactItems: [{ Delete: { TableName: TABLE, Key: { pk: { S: 'log#e' }, sk: { N: '0' } } } }] },
      {
        TransactItems: [
          { Put: { TableName: TABLE, Item: item('log#e', 0), ConditionExpression: 'attribute_exists(pk)' } },
        ],
      },
      {
        TransactItems: [
          {
            Put: {
              TableName: TABLE,
              Item: item('log#e', 0),
              ConditionExpression: 'body = :b',
              ExpressionAttributeValues: { ':b': { S: 'x' } },
            },
          },
        ],
      },
      { TransactItems: [put('log#e', 0), put('log#e', 0)] },
      { TransactItems: Array.from({ length: 101 }, (_, i) => put('log#e', i)) },
      { TransactItems: [{ Put: { TableName: TABLE, Item: { pk: { S: 'log#e' } } } }] },
      { ClientRequestToken: 'x'.repeat(37), TransactItems: [put('log#e', 0)] },
    ];
    for (const input of cases) expect((await refusal(input)).name).toBe('ValidationException');
    expect(await get('log#e', 0)).toBeUndefined();
  });

  it('answers a transaction on a missing table as ResourceNotFoundException', async () => {
    const r = await refusal({ TransactItems: [{ Put: { TableName: 'no-such-table', Item: item('x', 0) } }] });
    expect(r.name).toBe('ResourceNotFoundException');
  });

  it('leaves every other operation to dynalite itself', async () => {
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item('log#f', 0) }));
    expect(await get('log#f', 0)).toEqual(item('log#f', 0));
  });
});
