/**
 * dynalite's fast paths (ADR 0256) change what a call costs, never what it answers: the same requests, over the wire,
 * to a dynalite as shipped and to one with the fast paths, give the same status, the same body (table timestamps
 * aside) and the checksum dynalite's own buffer-crc32 computes for that body.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../localstack/launcher.js';
import type { FastPathStats } from '../../localstack/dynalite-fast-paths.js';

type Body = Record<string, unknown>;
/** `during`: sent while a table is CREATING, UPDATING or DELETING; only where those states last (see transcript). */
type Step =
  | { readonly target: string; readonly body: Body; readonly during?: true }
  | { readonly waitFor: string; readonly status: string };
interface Answer {
  readonly target: string;
  readonly status: number;
  readonly body: string;
}

const crc32 = createRequire(createRequire(import.meta.url).resolve('dynalite'))('buffer-crc32') as {
  unsigned(body: string): number;
};

const S = (s: string): Body => ({ S: s });
const notExists = (name: string): Body => ({ ConditionExpression: `attribute_not_exists(${name})` });

function steps(): Step[] {
  const put = (table: string, item: Body, extra: Body = {}): Step => ({
    target: 'PutItem',
    body: { TableName: table, Item: item, ...extra },
  });
  const create = (table: string, key: string, type: string, extra: Body = {}): Step => ({
    target: 'CreateTable',
    body: {
      TableName: table,
      AttributeDefinitions: [{ AttributeName: key, AttributeType: type }],
      KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
      ...extra,
    },
  });
  const names = { ExpressionAttributeNames: { '#pk': 'pk' } };
  const during = (step: Step): Step => ({ ...step, during: true });
  return [
    { target: 'GetItem', body: { TableName: 'missing', Key: { pk: S('a') } } },
    create('cond', 'pk', 'S'),
    during(put('cond', { pk: S('a') }, notExists('pk'))),
    { waitFor: 'cond', status: 'ACTIVE' },
    put('cond', { pk: S('a') }, notExists('pk')),
    put('cond', { pk: S('a') }, notExists('pk')),
    put('cond', { pk: S('b') }, { ...notExists('#pk'), ...names }),
    put('cond', { pk: S('b') }, { ...notExists('#pk'), ...names }),
    put('cond', { pk: S('c') }, notExists('#pk')),
    put('cond', { pk: S('c') }, { ...notExists('#pk'), ExpressionAttributeNames: { '#pk': 'pk', '#x': 'x' } }),
    put('cond', { pk: S('c') }, { ...notExists('#pk'), ExpressionAttributeNames: { '#other': 'pk' } }),
    put('cond', { pk: S('c') }, { ConditionExpression: 'attribute_not_exists(pk', ...{} }),
    put('cond', { pk: S('c') }, { ConditionExpression: 'attribute_not_exists(name)' }),
    put('cond', { pk: S('c') }, { ConditionExpression: 'no_such_function(pk)' }),
    put('cond', { pk: S('c') }, { ...notExists('#pk'), ...names }),
    put('cond', { pk: S('c'), v: S('1') }, { ReturnValues: 'ALL_OLD' }),
    put(
      'cond',
      { pk: S('c') },
      {
        ConditionExpression: 'attribute_exists(pk) AND v = :v',
        ExpressionAttributeValues: { ':v': S('1') },
        ReturnValues: 'ALL_OLD',
      },
    ),
    put(
      'cond',
      { pk: S('c') },
      { ConditionExpression: 'attribute_exists(pk) AND v = :v', ExpressionAttributeValues: { ':v': S('1') } },
    ),
    {
      target: 'UpdateItem',
      body: {
        TableName: 'cond',
        Key: { pk: S('a') },
        UpdateExpression: 'SET #v = :v',
        ConditionExpression: 'attribute_exists(#v)',
        ExpressionAttributeNames: { '#v': 'v' },
        ExpressionAttributeValues: { ':v': S('2') },
      },
    },
    {
      target: 'UpdateItem',
      body: {
        TableName: 'cond',
        Key: { pk: S('a') },
        UpdateExpression: 'SET #v = :v',
        ConditionExpression: 'attribute_not_exists(#v)',
        ExpressionAttributeNames: { '#v': 'v' },
        ExpressionAttributeValues: { ':v': S('2') },
        ReturnValues: 'ALL_NEW',
      },
    },
    // The update expression uses #v first; the condition remembered here must still take #v out of a later request.
    {
      target: 'UpdateItem',
      body: {
        TableName: 'cond',
        Key: { pk: S('a') },
        UpdateExpression: 'REMOVE #v',
        ConditionExpression: 'attribute_exists(#v)',
        ExpressionAttributeNames: { '#v': 'v' },
        ReturnValues: 'ALL_OLD',
      },
    },
    put(
      'cond',
      { pk: S('a') },
      { ConditionExpression: 'attribute_exists(#v)', ExpressionAttributeNames: { '#v': 'v' } },
    ),
    put(
      'cond',
      { pk: S('a'), v: S('3') },
      { ConditionExpression: 'attribute_not_exists(#v)', ExpressionAttributeNames: { '#v': 'v' } },
    ),
    { target: 'GetItem', body: { TableName: 'cond', Key: { pk: S('a') } } },
    {
      target: 'GetItem',
      body: {
        TableName: 'cond',
        Key: { pk: S('a') },
        ProjectionExpression: '#v',
        ExpressionAttributeNames: { '#v': 'v' },
      },
    },
    { target: 'GetItem', body: { TableName: 'cond', Key: { id: S('a') } } },
    {
      target: 'Query',
      body: { TableName: 'cond', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': S('a') } },
    },
    {
      target: 'Query',
      body: {
        TableName: 'cond',
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: 'attribute_exists(#v)',
        ExpressionAttributeNames: { '#pk': 'pk', '#v': 'v' },
        ExpressionAttributeValues: { ':pk': S('a') },
      },
    },
    {
      target: 'Scan',
      body: { TableName: 'cond', FilterExpression: 'attribute_exists(#v)', ExpressionAttributeNames: { '#v': 'v' } },
    },
    {
      target: 'Scan',
      body: { TableName: 'cond', FilterExpression: 'attribute_exists(#v)', ExpressionAttributeNames: { '#v': 'v' } },
    },
    {
      target: 'Scan',
      body: {
        TableName: 'cond',
        FilterExpression: 'attribute_exists(#v) OR #pk = #pk',
        ExpressionAttributeNames: { '#v': 'v', '#pk': 'pk' },
      },
    },
    { target: 'DeleteItem', body: { TableName: 'cond', Key: { pk: S('b') }, ...notExists('#pk'), ...names } },
    {
      target: 'DeleteItem',
      body: {
        TableName: 'cond',
        Key: { pk: S('b') },
        ConditionExpression: 'attribute_exists(#pk)',
        ...names,
        ReturnValues: 'ALL_OLD',
      },
    },
    {
      target: 'BatchWriteItem',
      body: {
        RequestItems: { cond: [{ PutRequest: { Item: { pk: S('d') } } }, { DeleteRequest: { Key: { pk: S('c') } } }] },
      },
    },
    { target: 'BatchGetItem', body: { RequestItems: { cond: { Keys: [{ pk: S('c') }, { pk: S('d') }] } } } },
    {
      target: 'UpdateTable',
      body: { TableName: 'cond', ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 7 } },
    },
    during(put('cond', { pk: S('e') }, notExists('pk'))),
    { waitFor: 'cond', status: 'ACTIVE' },
    put('cond', { pk: S('e') }, notExists('pk')),
    { target: 'DescribeTable', body: { TableName: 'cond' } },
    // Deleted and recreated with another key: no answer may come from the old description.
    { target: 'DeleteTable', body: { TableName: 'cond' } },
    during(put('cond', { pk: S('f') }, notExists('pk'))),
    { waitFor: 'cond', status: 'GONE' },
    put('cond', { pk: S('f') }, notExists('pk')),
    create('cond', 'id', 'N'),
    during(put('cond', { pk: S('f') }, notExists('pk'))),
    { waitFor: 'cond', status: 'ACTIVE' },
    put('cond', { pk: S('f') }, notExists('pk')),
    put('cond', { id: { N: '1' } }, notExists('id')),
    put('cond', { id: { N: '1' } }, notExists('id')),
    put('cond', { id: { N: '1' } }, { ...notExists('#pk'), ...names }),
    { target: 'GetItem', body: { TableName: 'cond', Key: { pk: S('a') } } },
    { target: 'GetItem', body: { TableName: 'cond', Key: { id: { N: '1' } } } },
    {
      target: 'Query',
      body: { TableName: 'cond', KeyConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': { N: '1' } } },
    },
    // A table still CREATING is not found by the data plane.
    create('slow', 'pk', 'S'),
    during(put('slow', { pk: S('a') }, notExists('pk'))),
    during({ target: 'GetItem', body: { TableName: 'slow', Key: { pk: S('a') } } }),
    { waitFor: 'slow', status: 'ACTIVE' },
    put('slow', { pk: S('a') }, notExists('pk')),
    { target: 'ListTables', body: {} },
  ];
}

const AUTH = {
  'content-type': 'application/x-amz-json-1.0',
  'x-amz-date': '20261203T000000Z',
  authorization:
    'AWS4-HMAC-SHA256 Credential=test/20261203/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
};

async function call(url: string, target: string, body: Body): Promise<{ status: number; text: string; crc: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...AUTH, 'x-amz-target': `DynamoDB_20120810.${target}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, crc: res.headers.get('x-amz-crc32') ?? '' };
}

async function waitFor(url: string, table: string, status: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { text } = await call(url, 'DescribeTable', { TableName: table });
    const seen = (JSON.parse(text) as { Table?: { TableStatus?: string } }).Table?.TableStatus ?? 'GONE';
    if (seen === status) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${table} never became ${status}`);
}

/** Table timestamps are the clock's and table ids random; everything else must match byte for byte. */
const withoutClock = (text: string): string =>
  text
    .replace(/("(?:CreationDateTime|Last(?:In|De)creaseDateTime)":)[\d.e+]+/g, '$1 0')
    .replace(/("TableId":)"[0-9a-f-]+"/g, '$1"-"');

/**
 * With immediate table states (the stack's), a request right after CreateTable, UpdateTable or DeleteTable races
 * dynalite's own timer that ends the state, with or without the fast paths: those requests are sent only where the
 * states last long enough to be seen the same way twice.
 */
async function transcript(url: string, withDuring: boolean): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const step of steps()) {
    if ('waitFor' in step) {
      await waitFor(url, step.waitFor, step.status);
      continue;
    }
    if (step.during && !withDuring) continue;
    const { status, text, crc } = await call(url, step.target, step.body);
    // The checksum header is what dynalite's own buffer-crc32 computes for these bytes.
    expect(crc).toBe(String(crc32.unsigned(text)));
    answers.push({ target: step.target, status, body: withoutClock(text) });
  }
  return answers;
}

describe.each([
  { lifecycle: 'immediate table states (the stack’s setting)', tableLifecycleMs: 0 },
  { lifecycle: 'tables CREATING, UPDATING and DELETING for 1 s', tableLifecycleMs: 1000 },
])('dynalite with and without its fast paths, $lifecycle', ({ tableLifecycleMs }) => {
  const servers: Array<{ stop: () => Promise<void> }> = [];
  let shipped: Answer[] = [];
  let fast: Answer[] = [];
  let plainStats: FastPathStats | undefined;
  let fastStats: FastPathStats | undefined;

  beforeAll(async () => {
    const plain = await startDynalite({ fastPaths: false, tableLifecycleMs });
    servers.push(plain);
    const memo = await startDynalite({ fastPaths: true, tableLifecycleMs });
    servers.push(memo);
    shipped = await transcript(plain.url, tableLifecycleMs > 0);
    fast = await transcript(memo.url, tableLifecycleMs > 0);
    plainStats = await plain.fastPathStats();
    fastStats = await memo.fastPathStats();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('gives byte-identical answers to the same sequence of requests', () => {
    expect(fast.length).toBe(shipped.length);
    for (let i = 0; i < shipped.length; i++) expect({ i, ...fast[i] }).toEqual({ i, ...shipped[i] });
  });

  it('answers the sequence as DynamoDB does: conditional failures, name errors, a recreated key schema', () => {
    const bodies = fast.map((a) => a.body);
    const count = (text: string): number => bodies.filter((b) => b.includes(text)).length;
    expect(bodies[0]).toContain('ResourceNotFoundException');
    expect(count('ConditionalCheckFailedException')).toBeGreaterThanOrEqual(6);
    expect(count('Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}')).toBe(1);
    expect(count('An expression attribute name used in the document path is not defined; attribute name: #pk')).toBe(2);
    expect(count('Invalid ConditionExpression: Syntax error;')).toBe(1);
    expect(count('Missing the key id in the item')).toBeGreaterThanOrEqual(1);
    // After the remembered parse, a PutItem with the same condition and names takes #v out of the unused list.
    expect(count('unused in expressions: keys: {#v}')).toBe(0);
  });

  it.runIf(tableLifecycleMs > 0)('does not find a table still CREATING, then finds it ACTIVE', () => {
    const [created, putCreating, getCreating, putActive] = fast.slice(-5);
    expect(created?.body).toContain('"TableStatus":"CREATING"');
    expect(putCreating?.body).toContain('ResourceNotFoundException');
    expect(getCreating?.body).toContain('ResourceNotFoundException');
    expect(putActive).toEqual({ target: 'PutItem', status: 200, body: '{}' });
  });

  it('served the data plane from the remembered descriptions and parses (the comparison exercised them)', () => {
    expect(fastStats?.tableHits).toBeGreaterThan(10);
    expect(fastStats?.parseHits).toBeGreaterThan(5);
    expect(plainStats).toBeUndefined();
  });
});
