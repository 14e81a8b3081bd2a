import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  createDynamoDbClient,
  createSqsClient,
  LOCAL_CREDENTIALS,
  resolveAwsSettings,
} from '../../adapters/aws-clients.js';
import { KeyedSha256 } from '../../adapters/sdk-sha256.js';

describe('AWS client settings', () => {
  it('prefers an explicit endpoint, then the service variable, then AWS_ENDPOINT_URL', () => {
    const env = { AWS_ENDPOINT_URL: 'http://general:1', AWS_ENDPOINT_URL_SQS: 'http://sqs:2' };
    expect(resolveAwsSettings('SQS', { endpoint: 'http://explicit:3' }, env).endpoint).toBe('http://explicit:3');
    expect(resolveAwsSettings('SQS', {}, env).endpoint).toBe('http://sqs:2');
    expect(resolveAwsSettings('DYNAMODB', {}, env).endpoint).toBe('http://general:1');
  });

  it('uses dummy credentials and a default region only when pointed at a local endpoint without credentials', () => {
    const local = resolveAwsSettings('DYNAMODB', {}, { AWS_ENDPOINT_URL: 'http://127.0.0.1:4566' });
    expect(local.credentials).toEqual(LOCAL_CREDENTIALS);
    expect(local.region).toBe('us-east-1');
    const cloud = resolveAwsSettings('DYNAMODB', {}, {});
    expect(cloud.credentials).toBeUndefined();
    expect(cloud.region).toBeUndefined();
    const withKeys = resolveAwsSettings(
      'DYNAMODB',
      {},
      { AWS_ENDPOINT_URL: 'http://127.0.0.1:4566', AWS_ACCESS_KEY_ID: 'AKIA', AWS_REGION: 'eu-west-1' },
    );
    expect(withKeys.credentials).toBeUndefined();
    expect(withKeys.region).toBe('eu-west-1');
  });

  it('ignores blank variables rather than treating them as an endpoint', () => {
    expect(resolveAwsSettings('SQS', {}, { AWS_ENDPOINT_URL: '  ' }).endpoint).toBeUndefined();
  });

  it('builds clients that resolve their middleware once per command class (cacheMiddleware, ADR 0060)', () => {
    const env = { AWS_ENDPOINT_URL: 'http://127.0.0.1:4566' };
    const ddb = createDynamoDbClient({}, env);
    const sqs = createSqsClient({}, env);
    expect((ddb.config as { cacheMiddleware?: boolean }).cacheMiddleware).toBe(true);
    expect((sqs.config as { cacheMiddleware?: boolean }).cacheMiddleware).toBe(true);
    ddb.destroy();
    sqs.destroy();
  });

  it('signs with the SHA-256 that keeps byte HMAC keys as KeyObjects (ADR 0250)', () => {
    const ddb = createDynamoDbClient({ endpoint: 'http://127.0.0.1:1' });
    const sqs = createSqsClient({ endpoint: 'http://127.0.0.1:1' });
    try {
      expect(ddb.config.sha256).toBe(KeyedSha256);
      expect(sqs.config.sha256).toBe(KeyedSha256);
    } finally {
      ddb.destroy();
      sqs.destroy();
    }
  });

  it('opens as many connections at once as maxSockets allows, and the SDK default of 50 without it', async () => {
    expect(await mostConnectionsAtOnce(undefined, 80)).toBe(50);
    expect(await mostConnectionsAtOnce(130, 80)).toBe(80);
  });
});

/**
 * Sends `calls` GetItems at once to a server that answers only when no new connection has come for 100 ms, and
 * returns how many connections were open together.
 */
async function mostConnectionsAtOnce(maxSockets: number | undefined, calls: number): Promise<number> {
  const held: ServerResponse[] = [];
  let open = 0;
  let most = 0;
  let timer: NodeJS.Timeout | undefined;
  const answerAll = (): void => {
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    held.push(res);
    clearTimeout(timer);
    timer = setTimeout(answerAll, 100);
  });
  server.on('connection', (socket) => {
    most = Math.max(most, ++open);
    socket.on('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const ddb = createDynamoDbClient({ endpoint: `http://127.0.0.1:${port}`, maxSockets });
  try {
    const get = new GetItemCommand({ TableName: 't', Key: { pk: { S: 'k' } } });
    await Promise.all(Array.from({ length: calls }, () => ddb.send(get)));
    return most;
  } finally {
    ddb.destroy();
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
