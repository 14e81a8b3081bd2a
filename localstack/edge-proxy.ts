/**
 * One endpoint like LocalStack's edge port: routes each request by its `X-Amz-Target` header —
 * `DynamoDB_20120810.*` to dynalite, `AmazonSQS.*` and target-less calls (SNS's query protocol, S3's REST, path
 * style on an IP host) to fauxqs 2 — and answers
 * health checks itself. Queue URLs are translated both ways: clients see `http://<the host they called>/<account>/<name>`
 * (what LocalStack hands out), fauxqs sees the `http://sqs.<region>.localhost:<port>/…` form it keys queues by
 * (shared notes, "One endpoint like LocalStack's"; docs/adr/0063-edge-proxy-queue-urls.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

export interface EdgeProxyOptions {
  readonly host?: string;
  readonly port: number;
  /** Base URL of dynalite, e.g. http://127.0.0.1:41234 */
  readonly dynamodbUpstream: string;
  /** Base URL of fauxqs. */
  readonly sqsUpstream: string;
  /** Region used when a request's signature names none. */
  readonly defaultRegion: string;
}

export interface EdgeProxy {
  readonly endpoint: string;
  readonly port: number;
  /**
   * From now on, refuses SendMessage and SendMessageBatch to these queues (by name) with `AccessDenied`, as their
   * queue policy does in AWS (the request path's DLQs: only SQS's redrive fills them, ADR 0455).
   */
  denySends(queueNames: readonly string[]): void;
  close(): Promise<void>;
}

/** SQS actions whose answers carry queue URLs. */
const URL_ANSWERING_ACTIONS = new Set(['CreateQueue', 'GetQueueUrl', 'ListQueues', 'ListDeadLetterSourceQueues']);
/** SQS actions that put messages on a queue. */
const SEND_ACTIONS = new Set(['SendMessage', 'SendMessageBatch']);
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function startEdgeProxy(options: EdgeProxyOptions): Promise<EdgeProxy> {
  const host = options.host ?? '127.0.0.1';
  const dynamo = new URL(options.dynamodbUpstream);
  const sqs = new URL(options.sqsUpstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sqsPort = sqs.port;
  const sendDenied = new Set<string>();

  const server = http.createServer((req, res) => {
    // DynamoDB calls need no rewriting: stream them through without buffering.
    if (header(req, 'x-amz-target')?.startsWith('DynamoDB_')) {
      pipeThrough(req, res, dynamo);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reply(res, 413, { __type: 'RequestEntityTooLarge', message: 'request body exceeds 16 MiB' });
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      handle(req, res, Buffer.concat(chunks)).catch((e: unknown) => badGateway(res, e as Error));
    });
    req.on('error', () => res.destroy());
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const target = header(req, 'x-amz-target');
    const path = req.url ?? '/';
    if (!target && req.method === 'GET' && (path === '/health' || path === '/_localstack/health')) {
      reply(res, 200, {
        services: { dynamodb: 'running', sqs: 'running', sns: 'running', s3: 'running' },
        edition: 'docket-local',
      });
      return;
    }
    if (target && !target.startsWith('AmazonSQS.')) {
      reply(res, 400, {
        __type: 'UnknownOperationException',
        message: `the docket local stack serves DynamoDB, SQS, SNS and S3 only; no emulator for ${target.split('.')[0]}`,
      });
      return;
    }
    // AmazonSQS.* (JSON protocol) or a target-less call (SQS query protocol, S3): fauxqs.
    const region = signedRegion(req) ?? options.defaultRegion;
    const toFauxqs = (url: string): string => {
      const m = /^[a-z]+:\/\/[^/]+\/(\d{12})\/([^/?#]+)$/i.exec(url);
      return m ? `http://sqs.${region}.localhost:${sqsPort}/${m[1]}/${m[2]}` : url;
    };
    const action = target ? target.slice('AmazonSQS.'.length) : '';
    let upstreamBody = body;
    if (target && body.length > 0) {
      const json = parseObject(body);
      const queueName = typeof json?.QueueUrl === 'string' ? json.QueueUrl.split('/').at(-1) : undefined;
      if (SEND_ACTIONS.has(action) && queueName !== undefined && sendDenied.has(queueName)) {
        res.setHeader('x-amzn-query-error', 'AccessDenied;Sender');
        reply(res, 403, {
          __type: 'com.amazonaws.sqs#AccessDenied',
          message: `SendMessage to ${queueName} is denied to every principal: only SQS's redrive moves messages there`,
        });
        return;
      }
      if (json && typeof json.QueueUrl === 'string') {
        json.QueueUrl = toFauxqs(json.QueueUrl);
        upstreamBody = Buffer.from(JSON.stringify(json), 'utf8');
      }
    }
    const publicBase = `http://${header(req, 'host') ?? `${host}:${(server.address() as AddressInfo).port}`}`;
    const rewrite = URL_ANSWERING_ACTIONS.has(action)
      ? (text: string): string =>
          text.replace(new RegExp(`https?://sqs\\.[a-z0-9-]+\\.localhost:${sqsPort}`, 'g'), publicBase)
      : null;
    // fauxqs builds a queue's URL from the Host header's port; presenting its own keeps every URL canonical.
    // (fauxqs speaks SQS's JSON protocol only; target-less calls are SNS/S3 and keep their Host.)
    await forward(req, res, upstreamBody, rewrite, target ? `${sqs.hostname}:${sqsPort}` : undefined);
  }

  function pipeThrough(req: http.IncomingMessage, res: http.ServerResponse, upstream: URL): void {
    const up = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, ownHeaders(upRes.headers));
        upRes.pipe(res);
      },
    );
    up.on('error', (e) => badGateway(res, e));
    req.pipe(up);
  }

  /** A buffered call to fauxqs, its answer rewritten by `rewrite` when given. */
  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer,
    rewrite: ((text: string) => string) | null,
    hostHeader?: string,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const headers = {
        ...req.headers,
        'content-length': String(body.length),
        ...(hostHeader ? { host: hostHeader } : {}),
      };
      delete headers['transfer-encoding'];
      const up = http.request(
        { host: sqs.hostname, port: sqs.port, method: req.method, path: req.url, headers, agent },
        (upRes) =>
          void buffer(upRes)
            .then((raw) => {
              const out = rewrite ? Buffer.from(rewrite(raw.toString('utf8')), 'utf8') : raw;
              const outHeaders = ownHeaders(upRes.headers);
              delete outHeaders['transfer-encoding'];
              res.writeHead(upRes.statusCode ?? 502, { ...outHeaders, 'content-length': String(out.length) });
              res.end(out);
              resolve();
            })
            // A failed read or rewrite is the request's failure (a 502), never an unhandled rejection.
            .catch(reject),
      );
      up.on('error', reject);
      up.end(body);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://${host}:${port}`,
    port,
    denySends(queueNames) {
      for (const n of queueNames) sendDenied.add(n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

/** An upstream answer's headers without its hop-by-hop ones: the edge's own connection to the client is another. */
function ownHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const { connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The region of a SigV4 Authorization header's credential scope (`Credential=AKID/date/REGION/service/aws4_request`). */
function signedRegion(req: http.IncomingMessage): string | undefined {
  const m = /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\//.exec(header(req, 'authorization') ?? '');
  return m?.[1];
}

/** An upstream failure: a 502 when the answer has not begun, else the connection cut. */
function badGateway(res: http.ServerResponse, e: Error): void {
  if (!res.headersSent) reply(res, 502, { __type: 'BadGateway', message: e.message });
  else res.destroy();
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The request as a JSON object, or null (an unreadable body goes to fauxqs untouched, to be refused there). */
function parseObject(body: Buffer): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
