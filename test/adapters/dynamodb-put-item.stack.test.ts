/**
 * The PutItem lean path (adapters/dynamodb-put-item.ts, ADR 0262) against the SDK's command path, over the wire:
 * dynalite on the local stack behind a recording relay that sees every request body and can answer with errors.
 * Whatever a caller can observe — the request on the wire, the stored item, the result, the exception class and
 * message, retries — must be the same on both paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamodb } from '../../adapters/aws-sdk.js';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { putItem, putItemEndpoint, useSdkCommandPath } from '../../adapters/dynamodb-put-item.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { fixtureTemplate } from '../localstack/fixture-template.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';

const { ConditionalCheckFailedException, GetItemCommand } = dynamodb;
const TABLE = 'pi-ledger';

let stack: LocalStack;
let relay: RecordingProxy;
const clients: DynamoDBClient[] = [];

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template: fixtureTemplate('pi') });
  relay = await startRecordingProxy(stack.dynamodbEndpoint);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await relay?.close();
  await stack?.stop();
});

function client(options: { sdk?: boolean; maxAttempts?: number } = {}): DynamoDBClient {
  const c = createDynamoDbClient({ endpoint: relay.endpoint, maxAttempts: options.maxAttempts ?? 3 });
  clients.push(c);
  return options.sdk ? useSdkCommandPath(c) : c;
}

function everyType(pk: string): Record<string, AttributeValue> {
  return {
    pk: { S: pk },
    sk: { N: '0' },
    text: { S: 'é ✓ "quoted" \\ \u0000' },
    count: { N: '-12.50' },
    bytes: { B: new Uint8Array([0, 1, 2, 254, 255]) },
    // A Buffer (which has its own toJSON) must be sent as base64 like any other Uint8Array.
    buffer: { B: Buffer.from('entry bytes') },
    flag: { BOOL: false },
    nothing: { NULL: true },
    list: { L: [{ S: 'a' }, { N: '1' }, { B: new Uint8Array([9]) }] },
    map: { M: { inner: { S: 'x' }, blob: { B: new Uint8Array([7, 7]) } } },
    strings: { SS: ['b', 'a'] },
    numbers: { NS: ['1', '2.5'] },
    blobs: { BS: [new Uint8Array([1]), new Uint8Array([2, 3])] },
  };
}

async function stored(pk: string): Promise<Record<string, AttributeValue> | undefined> {
  const out = await client({ sdk: true }).send(
    new GetItemCommand({ TableName: TABLE, Key: { pk: { S: pk }, sk: { N: '0' } }, ConsistentRead: true }),
  );
  return out.Item;
}

function lastBody(target: string): Record<string, unknown> {
  const i = relay.targets.lastIndexOf(target);
  expect(i, `a ${target} call reached the relay`).toBeGreaterThanOrEqual(0);
  return relay.bodies[i]!;
}

describe('PutItem on the lean path and through the SDK command', () => {
  it('sends the same JSON body as the SDK for every attribute type, and stores the same item', async () => {
    const condition = { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': 'pk' } };
    await putItem(client({ sdk: true }), { TableName: TABLE, Item: everyType('sdk-1'), ...condition });
    const viaSdk = lastBody('DynamoDB_20120810.PutItem');
    await putItem(client(), { TableName: TABLE, Item: everyType('lean-1'), ...condition });
    const viaLean = lastBody('DynamoDB_20120810.PutItem');
    expect(viaLean).toEqual({ ...viaSdk, Item: { ...(viaSdk.Item as object), pk: { S: 'lean-1' } } });
    expect((viaLean.Item as Record<string, { B?: string }>).buffer!.B).toBe(
      Buffer.from('entry bytes').toString('base64'),
    );
    const a = await stored('sdk-1');
    const b = await stored('lean-1');
    expect(a).toBeDefined();
    expect({ ...b, pk: { S: 'sdk-1' } }).toEqual(a);
  });

  it('resolves to the SDK output shape with the HTTP status in $metadata', async () => {
    const out = await putItem(client(), { TableName: TABLE, Item: { pk: { S: 'meta' }, sk: { N: '0' } } });
    expect(out.$metadata.httpStatusCode).toBe(200);
    expect(out.Attributes).toBeUndefined();
  });

  it('answers a request for the old item with its binary attributes as bytes, as the SDK does', async () => {
    const c = client();
    await putItem(c, {
      TableName: TABLE,
      Item: { pk: { S: 'old' }, sk: { N: '0' }, b: { B: new Uint8Array([1, 2]) } },
    });
    const out = await putItem(c, {
      TableName: TABLE,
      Item: { pk: { S: 'old' }, sk: { N: '0' } },
      ReturnValues: 'ALL_OLD',
    });
    expect(out.Attributes?.b?.B).toEqual(new Uint8Array([1, 2]));
  });

  it('rejects a failed condition with the SDK class and message, after exactly one call', async () => {
    const item = { pk: { S: 'taken' }, sk: { N: '0' } };
    await putItem(client(), { TableName: TABLE, Item: item });
    const attempt = async (c: DynamoDBClient): Promise<unknown> =>
      putItem(c, { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }).then(
        () => 'created',
        (e: unknown) => e,
      );
    const before = relay.targets.length;
    const lean = await attempt(client());
    expect(relay.targets.length - before, 'a client error is not retried').toBe(1);
    const sdk = await attempt(client({ sdk: true }));
    expect(lean).toBeInstanceOf(ConditionalCheckFailedException);
    expect(sdk).toBeInstanceOf(ConditionalCheckFailedException);
    expect((lean as Error).name).toBe((sdk as Error).name);
    expect((lean as Error).message).toBe((sdk as Error).message);
    expect((lean as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode).toBe(400);
  });

  it('rejects an invalid request with the same exception name and message as the SDK', async () => {
    const bad = { TableName: TABLE, Item: { pk: { S: 'no sort key' } } };
    const lean = await putItem(client(), bad).catch((e: unknown) => e);
    const sdk = await putItem(client({ sdk: true }), bad).catch((e: unknown) => e);
    expect((lean as Error).name).toBe('ValidationException');
    expect((lean as Error).name).toBe((sdk as Error).name);
    expect((lean as Error).message).toBe((sdk as Error).message);
    expect(lean).toBeInstanceOf(dynamodb.DynamoDBServiceException);
  });

  it('retries throttling with the client retry strategy and succeeds within maxAttempts', async () => {
    let throttled = 0;
    relay.fail = (target, body) =>
      target.endsWith('.PutItem') && (body.Item as { pk?: { S?: string } }).pk?.S === 'busy' && throttled++ < 2
        ? 'ProvisionedThroughputExceededException'
        : null;
    try {
      const before = relay.targets.length;
      await putItem(client({ maxAttempts: 3 }), { TableName: TABLE, Item: { pk: { S: 'busy' }, sk: { N: '0' } } });
      expect(relay.targets.length - before).toBe(3);
      expect(await stored('busy')).toEqual({ pk: { S: 'busy' }, sk: { N: '0' } });
    } finally {
      relay.fail = () => null;
    }
  });

  it('gives up after maxAttempts with the last throttling error, as the SDK does', async () => {
    relay.fail = (target) => (target.endsWith('.PutItem') ? 'ThrottlingException' : null);
    try {
      const item = { TableName: TABLE, Item: { pk: { S: 'never' }, sk: { N: '0' } } };
      const before = relay.targets.length;
      const lean = await putItem(client({ maxAttempts: 2 }), item).catch((e: unknown) => e);
      expect(relay.targets.length - before).toBe(2);
      const mid = relay.targets.length;
      const sdk = await putItem(client({ sdk: true, maxAttempts: 2 }), item).catch((e: unknown) => e);
      expect(relay.targets.length - mid).toBe(2);
      expect((lean as Error).name).toBe('ThrottlingException');
      expect((lean as Error).name).toBe((sdk as Error).name);
      expect((lean as { $metadata: { attempts: number } }).$metadata.attempts).toBe(2);
    } finally {
      relay.fail = () => null;
    }
    expect(await stored('never')).toBeUndefined();
  });

  it('leaves a client marked for the SDK command path on it, where its middleware sees every PutItem', async () => {
    const c = client({ sdk: true });
    const seen: string[] = [];
    c.middlewareStack.add(
      (next) => async (args) => {
        seen.push((args.input as { Item: { pk: { S: string } } }).Item.pk.S);
        return next(args);
      },
      { step: 'initialize', name: 'seePuts' },
    );
    await putItem(c, { TableName: TABLE, Item: { pk: { S: 'watched' }, sk: { N: '0' } } });
    expect(seen).toEqual(['watched']);
  });
});

describe('where the lean path sends a PutItem', () => {
  it('uses the endpoint override when one is configured', async () => {
    const c = createDynamoDbClient({ endpoint: 'http://127.0.0.1:4566' });
    clients.push(c);
    expect((await putItemEndpoint(c)).href).toBe('http://127.0.0.1:4566/');
  });

  it('uses the SDK endpoint rules for the region otherwise, FIPS included', async () => {
    const { DynamoDBClient } = dynamodb;
    const plain = new DynamoDBClient({ region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    const fips = new DynamoDBClient({
      region: 'us-east-2',
      useFipsEndpoint: true,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    clients.push(plain, fips);
    expect((await putItemEndpoint(plain)).href).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
    expect((await putItemEndpoint(fips)).href).toBe('https://dynamodb-fips.us-east-2.amazonaws.com/');
  });
});
