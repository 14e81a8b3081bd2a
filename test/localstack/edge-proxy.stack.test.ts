import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startEdgeProxy, type EdgeProxy } from '../../localstack/edge-proxy.js';

/** An SQS upstream that starts an answer and cuts the connection before its body ends. */
async function cuttingUpstream(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'content-length': '1000' });
      res.write('{"QueueUrls":["http://sqs.us-east-1.localhost');
      setTimeout(() => res.socket?.destroy(), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function post(endpoint: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${endpoint}/`,
      { method: 'POST', headers: { 'x-amz-target': target, 'content-type': 'application/x-amz-json-1.0' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe('the edge proxy', () => {
  let upstream: http.Server | undefined;
  let proxy: EdgeProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('answers 502 BadGateway when the SQS upstream cuts an answer it must rewrite', async () => {
    upstream = await cuttingUpstream();
    const port = (upstream.address() as AddressInfo).port;
    proxy = await startEdgeProxy({
      port: 0,
      dynamodbUpstream: 'http://127.0.0.1:9',
      sqsUpstream: `http://127.0.0.1:${port}`,
      defaultRegion: 'us-east-1',
    });
    const answer = await post(proxy.endpoint, 'AmazonSQS.ListQueues');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toMatchObject({ __type: 'BadGateway' });
  });
});
