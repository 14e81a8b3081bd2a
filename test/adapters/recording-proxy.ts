/**
 * A loopback HTTP relay in front of the local stack that records each call's X-Amz-Target and can answer chosen
 * calls with a DynamoDB error, as the real service does under throttling. Not an SDK mock: the SDK, its retries and
 * the wire protocol all run for real.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  readonly endpoint: string;
  readonly targets: string[];
  /** Each call's JSON body, parsed (an empty object when it was not JSON), in the order of `targets`. */
  readonly bodies: Record<string, unknown>[];
  /** Return an error type (e.g. 'ProvisionedThroughputExceededException') to fail the call, or null to pass it on. */
  fail: (target: string, body: Record<string, unknown>) => string | null;
  close(): Promise<void>;
}

export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const up = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const proxy: RecordingProxy = {
    endpoint: '',
    targets: [],
    bodies: [],
    fail: () => null,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = String(req.headers['x-amz-target'] ?? '');
      proxy.targets.push(target);
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        /* not JSON: pass on */
      }
      proxy.bodies.push(parsed);
      const failure = proxy.fail(target, parsed);
      if (failure) {
        const text = JSON.stringify({
          __type: `com.amazonaws.dynamodb.v20120810#${failure}`,
          message: 'injected by the test relay',
        });
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      const fwd = http.request(
        {
          host: up.hostname,
          port: up.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'content-length': String(body.length) },
          agent,
        },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      fwd.on('error', () => res.destroy());
      fwd.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  (proxy as { endpoint: string }).endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
