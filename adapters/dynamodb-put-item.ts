/**
 * DynamoDB PutItem — the conditional create every ledger append and request archive write is made of — sent with
 * the SDK's own parts but not through the client's per-command middleware stack (docs/adr/0262-put-item-lean-path.md).
 *
 * Measured on the 2-core development VM (`node dist/bench/put-item.bench.js`): one PutItem through
 * `client.send(new PutItemCommand(…))` costs ~1,000 µs of CPU in the client, the same request signed by the SDK's
 * SignatureV4 and sent by the client's own NodeHttpHandler ~390 µs, a bare HTTP request ~160 µs. Four conditional
 * creates per request made the SDK's stack the largest single cost of the local pipeline.
 *
 * Everything that decides where and how a call goes is read from the client's resolved config, so this path and the
 * SDK's agree: the endpoint (an override, or the SDK's endpoint rules for the region, FIPS and dual-stack), the
 * credentials provider (memoized and refreshed by the SDK), the clock offset, the HTTP handler, and the retry
 * strategy with the SDK's own error classification. The wire request is the AWS JSON 1.0 protocol's, binary
 * attributes in base64, as the SDK sends it; errors are the SDK's exception classes, so callers cannot tell the
 * paths apart (test/adapters/dynamodb-put-item.stack.test.ts compares them over the wire).
 */
import type { DynamoDBClient, PutItemCommandInput, PutItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { dynamodb } from './aws-sdk.js';
import { KeyedSha256 } from './sdk-sha256.js';

const { DynamoDBServiceException, PutItemCommand } = dynamodb;

/** Clients whose PutItems take the SDK's full command path (fault-injection fixtures add middleware to it). */
const sdkOnly = new WeakSet<DynamoDBClient>();

export function useSdkCommandPath(client: DynamoDBClient): DynamoDBClient {
  sdkOnly.add(client);
  return client;
}

interface Lean {
  readonly url: URL;
  readonly signer: SignatureV4;
}

const leans = new WeakMap<DynamoDBClient, Promise<Lean>>();

/** One conditional or unconditional PutItem; resolves as the SDK would, rejects with the SDK's exception classes. */
export async function putItem(client: DynamoDBClient, input: PutItemCommandInput): Promise<PutItemCommandOutput> {
  // Answers that carry item attributes (old values) need the SDK's deserializer (binary attributes as bytes).
  if (sdkOnly.has(client) || returnsAttributes(input)) return client.send(new PutItemCommand(input));
  let lean = leans.get(client);
  if (lean === undefined) {
    lean = prepare(client);
    leans.set(client, lean);
    lean.catch(() => leans.delete(client));
  }
  return send(client, await lean, input);
}

function returnsAttributes(input: PutItemCommandInput): boolean {
  return (
    (input.ReturnValues !== undefined && input.ReturnValues !== 'NONE') ||
    input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD'
  );
}

async function prepare(client: DynamoDBClient): Promise<Lean> {
  const signer = new SignatureV4({
    credentials: client.config.credentials,
    region: await client.config.region(),
    service: 'dynamodb',
    sha256: KeyedSha256,
    uriEscapePath: true,
  });
  return { url: await putItemEndpoint(client), signer };
}

/** Where this client's calls go: its endpoint override, else the SDK's endpoint rules for its region. */
export async function putItemEndpoint(client: DynamoDBClient): Promise<URL> {
  const c = client.config;
  const region = await c.region();
  let url: URL;
  if (c.endpoint !== undefined) {
    const e = await c.endpoint();
    url = new URL(`${e.protocol}//${e.hostname}${e.port !== undefined ? `:${e.port}` : ''}${e.path}`);
  } else {
    // The SDK's endpoint rules for the region; account-based endpoints are an optimisation the regional one serves.
    url = c.endpointProvider({
      Region: region,
      UseFIPS: await c.useFipsEndpoint(),
      UseDualStack: await c.useDualstackEndpoint(),
      AccountIdEndpointMode: 'disabled',
    }).url;
  }
  return url;
}

/** JSON 1.0 body: blobs (B, BS) as base64, as the SDK serializes them; undefined members are left out. */
function body(input: PutItemCommandInput): string {
  return JSON.stringify(input, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    return raw instanceof Uint8Array
      ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64')
      : value;
  });
}

async function send(client: DynamoDBClient, lean: Lean, input: PutItemCommandInput): Promise<PutItemCommandOutput> {
  const strategy = await client.config.retryStrategy();
  // A client configured with a legacy (v1) retry strategy keeps the SDK's own path, which knows how to drive it.
  if (!('acquireInitialRetryToken' in strategy)) return client.send(new PutItemCommand(input));
  const text = body(input);
  let token = await strategy.acquireInitialRetryToken('');
  for (let attempt = 1; ; attempt++) {
    try {
      const out = await once(client, lean, text, attempt);
      strategy.recordSuccess(token);
      return out;
    } catch (e) {
      const error = e as Error & { $metadata?: { attempts?: number; totalRetryDelay?: number } };
      try {
        token = await strategy.refreshRetryTokenForRetry(token, {
          error: error as never,
          errorType: isThrottlingError(error as never)
            ? 'THROTTLING'
            : isTransientError(error as never)
              ? 'TRANSIENT'
              : isServerError(error as never)
                ? 'SERVER_ERROR'
                : 'CLIENT_ERROR',
        });
      } catch {
        if (error.$metadata) error.$metadata.attempts = attempt;
        throw error;
      }
      await new Promise((r) => setTimeout(r, token.getRetryDelay()));
    }
  }
}

async function once(client: DynamoDBClient, lean: Lean, text: string, attempt: number): Promise<PutItemCommandOutput> {
  const { url, signer } = lean;
  const request = new HttpRequest({
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port !== '' ? { port: Number(url.port) } : {}),
    method: 'POST',
    path: url.pathname,
    headers: {
      host: url.host,
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'DynamoDB_20120810.PutItem',
      'content-length': String(Buffer.byteLength(text)),
      'amz-sdk-request': `attempt=${attempt}`,
    },
    body: text,
  });
  const signed = await signer.sign(request, {
    signingDate: new Date(Date.now() + (client.config.systemClockOffset ?? 0)),
  });
  const { response } = await client.config.requestHandler.handle(signed as HttpRequest);
  const raw = await responseText(response.body as NodeJS.ReadableStream);
  const $metadata = {
    httpStatusCode: response.statusCode,
    requestId: response.headers['x-amzn-requestid'],
    attempts: attempt,
    totalRetryDelay: 0,
  };
  const parsed = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
  if (response.statusCode >= 200 && response.statusCode < 300) return { ...parsed, $metadata } as PutItemCommandOutput;
  throw serviceError(parsed, $metadata);
}

/** The response body as text; read by events, which costs less per call than an async iterator over the stream. */
function responseText(body: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('error', reject);
  });
}

/** The SDK's exception for an error body: its own class when the client exports one, else DynamoDBServiceException. */
function serviceError(
  parsed: Record<string, unknown>,
  $metadata: { httpStatusCode: number; requestId?: string },
): Error {
  const name = String(parsed.__type ?? parsed.code ?? 'UnknownError')
    .split('#')
    .pop()!;
  const message = String(parsed.message ?? parsed.Message ?? name);
  const Known = (dynamodb as unknown as Record<string, unknown>)[name];
  const fault: 'server' | 'client' = $metadata.httpStatusCode >= 500 ? 'server' : 'client';
  const options = { ...parsed, name, $fault: fault, message, $metadata };
  if (typeof Known === 'function' && Known.prototype instanceof DynamoDBServiceException) {
    return new (Known as new (o: typeof options) => Error)(options);
  }
  return new DynamoDBServiceException(options);
}
