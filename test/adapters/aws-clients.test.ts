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
});
