/**
 * CPU per PutItem in the calling thread, two ways against the same answering server in the same run, for
 * information: the SDK's command path (`client.send(new PutItemCommand(…))`, the only path Docket uses, ADR 0285)
 * and a bare keep-alive HTTP POST of the same JSON body (the floor: Node's HTTP client alone). In Lambda this CPU
 * overlaps the network wait of the call; it is not a goal to trade the SDK's behaviour for (ADR 0285).
 *
 *   npm run build && node dist/bench/put-item.bench.js [calls=4000]
 *
 * The server runs on a worker thread and answers `{}` at once, so the figures are the client's own cost; CPU is
 * this thread's (process.threadCpuUsage), 10 calls in flight, after a warm-up of 2,000 calls per path.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import type { DynamoDBClient, PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import { dynamodb } from '../adapters/aws-sdk.js';
import { createDynamoDbClient } from '../adapters/aws-clients.js';

const CALLS = Number(process.argv[2] ?? 4000);
const IN_FLIGHT = 10;

const SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'bench', 'content-length': 2 });
    res.end('{}');
  });
});
server.listen(0, '127.0.0.1', () => require('node:worker_threads').parentPort.postMessage(server.address().port));
`;

const input: PutItemCommandInput = {
  TableName: 'bench-ledger',
  Item: {
    pk: { S: 'req#0f4c2b9e-bench/0' },
    sk: { N: '0' },
    requestId: { S: '0f4c2b9e-bench' },
    logId: { S: 'log-1' },
    requestDigest: { S: 'a'.repeat(64) },
    headBefore: { N: '123' },
    body: { B: new Uint8Array(900).fill(7) },
  },
  ConditionExpression: 'attribute_not_exists(pk)',
};

async function cpuPerCall(one: () => Promise<unknown>): Promise<number> {
  const run = async (n: number): Promise<void> => {
    let started = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (started++ < n) await one();
      }),
    );
  };
  await run(2000);
  const before = process.threadCpuUsage();
  await run(CALLS);
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / CALLS;
}

function bareHttp(port: number): () => Promise<unknown> {
  const agent = new http.Agent({ keepAlive: true });
  const body = JSON.stringify(input, function (this: Record<string, unknown>, k, v: unknown) {
    const raw = this[k];
    return raw instanceof Uint8Array ? Buffer.from(raw).toString('base64') : v;
  });
  const headers = {
    'content-type': 'application/x-amz-json-1.0',
    'x-amz-target': 'DynamoDB_20120810.PutItem',
    'content-length': Buffer.byteLength(body),
  };
  return () =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      });
      req.on('error', reject);
      req.end(body);
    });
}

async function main(): Promise<void> {
  const server = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((r) => server.once('message', r));
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: DynamoDBClient[] = [];
  const make = (): DynamoDBClient => {
    const c = createDynamoDbClient({ endpoint, credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
    clients.push(c);
    return c;
  };
  const sdkClient = make();
  const sdk = await cpuPerCall(() => sdkClient.send(new dynamodb.PutItemCommand(input)));
  const bare = await cpuPerCall(bareHttp(port));
  const line = (name: string, us: number): string =>
    `  ${name.padEnd(34)}: ${us.toFixed(0).padStart(5)} µs CPU/call  (${(us / sdk).toFixed(2)}× the SDK command)`;
  console.log(`PutItem, ${CALLS} calls per path, ${IN_FLIGHT} in flight, server on its own thread answering {}`);
  console.log(line('SDK command (client.send)', sdk));
  console.log(line('bare HTTP POST (floor)', bare));
  console.log('command: npm run build && node dist/bench/put-item.bench.js');
  for (const c of clients) c.destroy();
  await server.terminate();
}

await main();
