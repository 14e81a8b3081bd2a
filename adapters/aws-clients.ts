/**
 * The one place that builds AWS SDK clients. It honours an explicit endpoint, then the SDK's own
 * AWS_ENDPOINT_URL_<SERVICE> / AWS_ENDPOINT_URL variables (the local stack, LocalStack), a region and — only when an
 * endpoint override is in force and no credentials are configured — dummy credentials, because the emulators
 * ignore signatures but the SDK refuses to sign without some (see docs/adr/0060-aws-client-settings.md).
 *
 * `cacheMiddleware`: the SDK resolves a command's middleware stack once per command class instead of on every call
 * (its documented trade: no middleware changes after the first request, which nothing here makes; ADR 0060).
 *
 * `sha256`: SigV4's HMACs with the signing key as a reused KeyObject (adapters/sdk-sha256.ts, ADR 0250).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { dynamodb, sns, sqs } from './aws-sdk.js';
import { KeyedSha256 } from './sdk-sha256.js';

export interface AwsClientOptions {
  /** Explicit endpoint (e.g. the local stack's `http://127.0.0.1:4566`). Wins over the environment. */
  readonly endpoint?: string;
  readonly region?: string;
  readonly credentials?: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
  /** SDK attempts per call (default 3, the SDK's standard retry mode: throttling and 5xx are retried). */
  readonly maxAttempts?: number;
  /** Connections the client keeps open at most (default the SDK's 50); calls past it wait for one to free. */
  readonly maxSockets?: number;
}

/** Credentials the local stack accepts (any non-empty pair does; these are LocalStack's documented defaults). */
export const LOCAL_CREDENTIALS = Object.freeze({ accessKeyId: 'test', secretAccessKey: 'test' });
/** LocalStack's edge port on the loopback interface: where `docket local start` listens. */
export const DEFAULT_LOCAL_ENDPOINT = 'http://127.0.0.1:4566';
export const DEFAULT_LOCAL_REGION = 'us-east-1';

export interface ResolvedAwsSettings {
  readonly endpoint: string | undefined;
  readonly region: string | undefined;
  readonly credentials: AwsClientOptions['credentials'] | undefined;
  readonly maxAttempts: number;
  readonly maxSockets: number | undefined;
}

type Service = 'DYNAMODB' | 'SQS' | 'SNS';

/** Pure resolution of the client settings, exported so tests can pin the precedence. */
export function resolveAwsSettings(
  service: Service,
  options: AwsClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedAwsSettings {
  const endpoint =
    nonEmpty(options.endpoint) ?? nonEmpty(env[`AWS_ENDPOINT_URL_${service}`]) ?? nonEmpty(env.AWS_ENDPOINT_URL);
  const region =
    nonEmpty(options.region) ??
    nonEmpty(env.AWS_REGION) ??
    nonEmpty(env.AWS_DEFAULT_REGION) ??
    (endpoint ? DEFAULT_LOCAL_REGION : undefined);
  const envHasCredentials = nonEmpty(env.AWS_ACCESS_KEY_ID) !== undefined || nonEmpty(env.AWS_PROFILE) !== undefined;
  // A fresh object each time: the SDK annotates the credentials it is given.
  const credentials =
    (options.credentials && { ...options.credentials }) ??
    (endpoint && !envHasCredentials ? { ...LOCAL_CREDENTIALS } : undefined);
  return { endpoint, region, credentials, maxAttempts: options.maxAttempts ?? 3, maxSockets: options.maxSockets };
}

/** What every client is built with: the resolved settings, the cached middleware stack and the keyed SHA-256. */
function clientConfig(service: Service, options: AwsClientOptions, env: NodeJS.ProcessEnv) {
  const s = resolveAwsSettings(service, options, env);
  return {
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    ...(s.region ? { region: s.region } : {}),
    ...(s.credentials ? { credentials: s.credentials } : {}),
    maxAttempts: s.maxAttempts,
    // The SDK's NodeHttpHandler takes its options as this plain object; the agent keeps its connections alive.
    ...(s.maxSockets
      ? { requestHandler: { httpAgent: { maxSockets: s.maxSockets }, httpsAgent: { maxSockets: s.maxSockets } } }
      : {}),
    cacheMiddleware: true,
    sha256: KeyedSha256,
  };
}

export function createDynamoDbClient(
  options: AwsClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): DynamoDBClient {
  return new dynamodb.DynamoDBClient(clientConfig('DYNAMODB', options, env));
}

export function createSqsClient(options: AwsClientOptions = {}, env: NodeJS.ProcessEnv = process.env): SQSClient {
  const config = clientConfig('SQS', options, env);
  return new sqs.SQSClient({
    ...config,
    // With an endpoint override every call goes to it, never to the host inside a QueueUrl (fauxqs hands out
    // sqs.<region>.localhost URLs that do not resolve here; see shared notes "One endpoint like LocalStack's").
    ...(config.endpoint ? { useQueueUrlAsEndpoint: false } : {}),
  });
}

/** The results topic's client (docs/pipeline.md "Result notifications"). */
export function createSnsClient(options: AwsClientOptions = {}, env: NodeJS.ProcessEnv = process.env): SNSClient {
  return new sns.SNSClient(clientConfig('SNS', options, env));
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}
