import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { DynamoDbPackRegistry, RegistryIntegrityError } from '../../adapters/dynamodb-pack-registry.js';
import { ArchiveIntegrityError, DynamoDbRequestArchive } from '../../adapters/dynamodb-request-archive.js';
import { MAX_STORED_BYTES } from '../../adapters/content-table.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';

// The real tables of infra's template (pk S / sk S), so the adapters' key layout is checked against infra's.
const STAGE = 'content';
let stack: LocalStack;
let client: DynamoDBClient;
let registry: DynamoDbPackRegistry;
let archive: DynamoDbRequestArchive;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, stage: STAGE });
  client = createDynamoDbClient({ endpoint: stack.endpoint });
  registry = new DynamoDbPackRegistry({ client, tableName: `docket-${STAGE}-packs` });
  archive = new DynamoDbRequestArchive({ client, tableName: `docket-${STAGE}-requests` });
});
afterAll(async () => {
  client?.destroy();
  await stack?.stop();
});

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('both content tables', () => {
  it('refuse bytes that could not fit one item with a RangeError, and store none of them', async () => {
    const big = new Uint8Array(MAX_STORED_BYTES + 1).fill(0x20);
    await expect(registry.putPack(big)).rejects.toThrow(RangeError);
    await expect(archive.put(big)).rejects.toThrow(
      `request of ${MAX_STORED_BYTES + 1} bytes exceeds the ${MAX_STORED_BYTES}-byte item limit`,
    );
    expect(await registry.getPack(sha(big))).toBeNull();
    expect(await archive.get(sha(big))).toBeNull();
  });
});

describe('the pack registry over the wire', () => {
  it('stores a pack under the SHA-256 of its exact bytes and returns those bytes', async () => {
    const pack = bytes('{"specVersion":"0.3.0",  "id":"p"}\n'); // whitespace kept: exact bytes, not a re-serialization
    const out = await registry.publish('triage', '1.0.0', pack);
    expect(out).toEqual({ ok: true, digest: sha(pack), alias: 'triage@1.0.0', created: true });
    expect(Buffer.from((await registry.getPack(sha(pack)))!).equals(Buffer.from(pack))).toBe(true);
    expect(await registry.resolveAlias('triage@1.0.0')).toBe(sha(pack));
  });

  it('accepts publishing the same bytes under the same alias again as a no-op', async () => {
    const pack = bytes('{"same":true}');
    await registry.publish('same', '1', pack);
    expect(await registry.publish('same', '1', pack)).toEqual({
      ok: true,
      digest: sha(pack),
      alias: 'same@1',
      created: false,
    });
  });

  it('refuses to point a published alias at other bytes, keeps the first and stores none of the other', async () => {
    const first = bytes('{"v":1}');
    const second = bytes('{"v":2}');
    await registry.publish('immutable', '2.0.0', first);
    const out = await registry.publish('immutable', '2.0.0', second);
    expect(out).toMatchObject({ ok: false, code: 'alias-conflict', existingDigest: sha(first), digest: sha(second) });
    expect(await registry.resolveAlias('immutable@2.0.0')).toBe(sha(first));
    // Refused before any byte is stored (ADR 0450): no second pack claims immutable@2.0.0 for a digest request.
    expect(await registry.getPack(sha(second))).toBeNull();
  });

  it('answers null for an unknown digest, an unknown alias and a string that is not a digest', async () => {
    expect(await registry.getPack('0'.repeat(64))).toBeNull();
    expect(await registry.getPack('../etc/passwd')).toBeNull();
    expect(await registry.resolveAlias('nobody@0')).toBeNull();
  });

  it('refuses a malformed alias and a pack too large for one item, with typed codes', async () => {
    expect(await registry.publish('a@b', '1', bytes('{}'))).toMatchObject({ ok: false, code: 'invalid-alias' });
    expect(await registry.publish('', '1', bytes('{}'))).toMatchObject({ ok: false, code: 'invalid-alias' });
    expect(await registry.publish('big', '1', new Uint8Array(MAX_STORED_BYTES + 1))).toMatchObject({
      ok: false,
      code: 'pack-too-large',
    });
  });

  it('stores a pack just under the item limit', async () => {
    const pack = new Uint8Array(MAX_STORED_BYTES).fill(0x20);
    const out = await registry.publish('large', '1', pack);
    expect(out.ok).toBe(true);
    expect((await registry.getPack(sha(pack)))?.byteLength).toBe(MAX_STORED_BYTES);
  });

  it('refuses to serve a stored pack whose bytes do not hash to its key', async () => {
    const digest = sha(bytes('original'));
    await client.send(
      new PutItemCommand({
        TableName: `docket-${STAGE}-packs`,
        Item: { pk: { S: `pack#${digest}` }, sk: { S: 'pack' }, bytes: { B: bytes('tampered') } },
      }),
    );
    await expect(registry.getPack(digest)).rejects.toBeInstanceOf(RegistryIntegrityError);
  });
});

describe('the request archive over the wire', () => {
  it('retains exact request bytes by digest, idempotently', async () => {
    const req = bytes('{"requestId":"r-1","facts":{"a":1.50}}');
    expect(await archive.put(req)).toEqual({ digest: sha(req), created: true });
    expect(await archive.put(req)).toEqual({ digest: sha(req), created: false });
    expect(Buffer.from((await archive.get(sha(req)))!).equals(Buffer.from(req))).toBe(true);
  });

  it('forgets purged bytes while other requests stay retrievable', async () => {
    const a = bytes('{"requestId":"purge-me"}');
    const b = bytes('{"requestId":"keep-me"}');
    await archive.put(a);
    await archive.put(b);
    await archive.purge(sha(a));
    expect(await archive.get(sha(a))).toBeNull();
    expect(await archive.get(sha(b))).not.toBeNull();
  });

  it('lists every retained request with the time it was first retained, which a redelivery never moves', async () => {
    const at = (seconds: number) =>
      new DynamoDbRequestArchive({ client, tableName: `docket-${STAGE}-requests`, now: () => seconds * 1000 });
    const req = bytes('{"requestId":"listed"}');
    await at(1_800_000_000).put(req);
    await at(1_800_000_900).put(req); // the same bytes delivered again later
    const listed = [];
    for await (const a of archive.list()) listed.push(a);
    expect(listed.find((a) => a.digest === sha(req))).toEqual({
      digest: sha(req),
      bytes: req,
      retainedAt: 1_800_000_000,
    });
    // Everything retained by the tests above is listed, each under the digest of its bytes.
    expect(listed.map((a) => a.digest).sort()).toEqual(listed.map((a) => sha(a.bytes)).sort());
    expect(listed.map((a) => a.digest)).toContain(sha(bytes('{"requestId":"keep-me"}')));
    expect(listed.map((a) => a.digest)).not.toContain(sha(bytes('{"requestId":"purge-me"}')));
  });

  it('refuses to serve retained bytes that do not hash to their digest', async () => {
    const digest = sha(bytes('real request'));
    await client.send(
      new PutItemCommand({
        TableName: `docket-${STAGE}-requests`,
        Item: { pk: { S: `request#${digest}` }, sk: { S: 'request' }, bytes: { B: bytes('edited request') } },
      }),
    );
    await expect(archive.get(digest)).rejects.toBeInstanceOf(ArchiveIntegrityError);
    const listing = (async () => {
      for await (const _ of archive.list());
    })();
    await expect(listing).rejects.toBeInstanceOf(ArchiveIntegrityError);
  });
});
