import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@smithy/core/checksum';
import { KeyedSha256 } from '../../adapters/sdk-sha256.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
async function digestOf(
  h: { update(d: string | Uint8Array): void; digest(): Promise<Uint8Array> },
  ...parts: (string | Uint8Array)[]
) {
  for (const p of parts) h.update(p);
  return hex(await h.digest());
}

describe('the SDK SHA-256 with byte HMAC keys as KeyObjects', () => {
  it('hashes exactly as node:crypto does, in one part or several', async () => {
    const want = createHash('sha256').update('hello world').digest('hex');
    expect(await digestOf(new KeyedSha256(), 'hello world')).toBe(want);
    expect(await digestOf(new KeyedSha256(), 'hello ', new TextEncoder().encode('world'))).toBe(want);
  });

  it('computes HMACs exactly as node:crypto does, for string and byte keys', async () => {
    const key = new Uint8Array(32).map((_, i) => i * 7);
    expect(await digestOf(new KeyedSha256(key), 'message')).toBe(
      createHmac('sha256', Buffer.from(key)).update('message').digest('hex'),
    );
    expect(await digestOf(new KeyedSha256('AWS4secret'), 'message')).toBe(
      createHmac('sha256', 'AWS4secret').update('message').digest('hex'),
    );
  });

  it('reuses a byte key only while its bytes are unchanged', async () => {
    const key = new Uint8Array(32).fill(1);
    const first = await digestOf(new KeyedSha256(key), 'm');
    expect(await digestOf(new KeyedSha256(key), 'm')).toBe(first);
    key[0] = 2;
    expect(await digestOf(new KeyedSha256(key), 'm')).toBe(
      createHmac('sha256', Buffer.from(key)).update('m').digest('hex'),
    );
    expect(await digestOf(new KeyedSha256(key), 'm')).not.toBe(first);
  });

  it('refuses an update after an HMAC digest and starts over after reset, as the SDK own does', async () => {
    const h = new KeyedSha256('k');
    h.update('a');
    await h.digest();
    expect(() => h.update('b')).toThrow(/already finished/);
    h.reset();
    h.update('a');
    expect(hex(await h.digest())).toBe(createHmac('sha256', 'k').update('a').digest('hex'));
  });

  it('lets a plain hash be digested and then updated further, as the SDK own does', async () => {
    const h = new KeyedSha256();
    h.update('a');
    expect(hex(await h.digest())).toBe(createHash('sha256').update('a').digest('hex'));
    h.update('b');
    expect(hex(await h.digest())).toBe(createHash('sha256').update('ab').digest('hex'));
  });

  it('gives SigV4 the same Authorization header as the SDK default SHA-256, request after request', async () => {
    const signer = (sha256: typeof Sha256 | typeof KeyedSha256) =>
      new SignatureV4({
        service: 'dynamodb',
        region: 'eu-west-1',
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
        sha256,
      });
    const request = (body: string) => ({
      method: 'POST',
      protocol: 'https:',
      hostname: 'dynamodb.eu-west-1.amazonaws.com',
      path: '/',
      headers: {
        host: 'dynamodb.eu-west-1.amazonaws.com',
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.PutItem',
      },
      body,
    });
    const signingDate = new Date('2026-12-03T12:00:00Z');
    const ours = signer(KeyedSha256);
    const theirs = signer(Sha256);
    for (const body of ['{"TableName":"a"}', '{"TableName":"b"}']) {
      const a = await ours.sign(request(body), { signingDate });
      const b = await theirs.sign(request(body), { signingDate });
      expect(a.headers.authorization).toBe(b.headers.authorization);
      expect(a.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261203\/eu-west-1\//);
    }
  });
});
