import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
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
    // Through the SDK's own command path (ADR 0285): a client with the default SHA-256 and one with KeyedSha256 sign
    // the same commands at the same instant; a finalize-step middleware reads the signed header and stops the call.
    vi.useFakeTimers({ now: new Date('2026-12-03T12:00:00Z'), toFake: ['Date'] });
    try {
      const signedBy = async (sha256: typeof KeyedSha256 | undefined, table: string): Promise<string> => {
        const client = new DynamoDBClient({
          region: 'eu-west-1',
          credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
          ...(sha256 !== undefined ? { sha256 } : {}),
        });
        let authorization = '';
        // The invocation id is random and signed: pin it so the two signatures can be compared.
        client.middlewareStack.addRelativeTo(
          ((next: (args: { request: unknown }) => Promise<unknown>) => (args: { request: unknown }) => {
            (args.request as { headers: Record<string, string> }).headers['amz-sdk-invocation-id'] = 'fixed';
            return next(args);
          }) as unknown as Parameters<typeof client.middlewareStack.addRelativeTo>[0],
          { relation: 'before', toMiddleware: 'httpSigningMiddleware', name: 'pinInvocationId' },
        );
        client.middlewareStack.add(
          () => (args) => {
            authorization = String((args.request as { headers: Record<string, string> }).headers['authorization']);
            return Promise.reject(new Error('signed'));
          },
          { step: 'finalizeRequest', priority: 'low', name: 'readSignature' },
        );
        await expect(client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'x' } } }))).rejects.toThrow(
          'signed',
        );
        client.destroy();
        return authorization;
      };
      for (const table of ['a', 'b']) {
        const ours = await signedBy(KeyedSha256, table);
        expect(ours).toBe(await signedBy(undefined, table));
        expect(ours).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261203\/eu-west-1\//);
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
