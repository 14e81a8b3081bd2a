import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { entriesItem, entryItem, listedEntriesItem } from '../../adapters/ledger-entry-item.js';
import { markerItem } from '../../adapters/ledger-marker-item.js';
import { refusalEntryBody } from '../ledger/refusal-entry.js';
import { BUILD, K1, KC, policyText } from '../../conformance/ledger/fixtures.js';
import { buildEntry, toStoredEntry, type BuiltEntry } from '../../core/ledger/entries/entry.js';
import { signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { verifyLedger } from '../../core/ledger/verify/index.js';
import { DynamoDbLedgerStore } from '../../adapters/dynamodb-ledger-store.js';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { MAX_GROUP_MEMBERS, MAX_MARKER_MEMBERS, StoreReadError } from '../../core/ledger/store/store.js';
import { appendOnce, slotCommits } from '../../core/ledger/write/append.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { fixtureTemplate } from '../localstack/fixture-template.js';
import { ledgerStoreBehaviour } from './ledger-store-behaviour.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import { digestOf, rawEntry, refusalEntry } from './entry-fixture.js';

let stack: LocalStack;
let client: DynamoDBClient;
const TABLE = 'lt-ledger';

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template: fixtureTemplate('lt') });
  client = createDynamoDbClient({ endpoint: stack.endpoint });
});
afterAll(async () => {
  client?.destroy();
  await stack?.stop();
});

ledgerStoreBehaviour('the in-memory store', () => new MemoryLedgerStore());
ledgerStoreBehaviour(
  'the DynamoDB store over the local stack',
  () => new DynamoDbLedgerStore({ client, tableName: TABLE }),
);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('the DynamoDB ledger store over the wire', () => {
  let relay: RecordingProxy;
  let relayed: DynamoDBClient;
  beforeAll(async () => {
    relay = await startRecordingProxy(stack.endpoint);
    relayed = createDynamoDbClient({ endpoint: relay.endpoint, maxAttempts: 2 });
  });
  afterAll(async () => {
    relayed?.destroy();
    await relay?.close();
  });

  it('throws StoreReadError, never a shorter log, when a later result page cannot be read', async () => {
    const store = new DynamoDbLedgerStore({ client: relayed, tableName: TABLE });
    const log = `throttled-${Date.now()}`;
    for (let seq = 0; seq < 80; seq++) await store.putEntryIfAbsent(rawEntry(log, seq, 30_000));
    relay.fail = (target, body) =>
      target.endsWith('.Query') && body.ExclusiveStartKey ? 'ProvisionedThroughputExceededException' : null;
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const e of store.readEntries(log, 0)) seen.push(e.seq);
    } catch (e) {
      error = e;
    }
    relay.fail = () => null;
    expect(error).toBeInstanceOf(StoreReadError);
    expect((error as StoreReadError).code).toBe('store-read-incomplete');
    // The first page was delivered before the failure, and the failure was not swallowed as an end of log.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(80);
    expect((await collect(store.readEntries(log, 0))).length).toBe(80);
  });

  it('throws StoreReadError when listing logs is cut short by throttling', async () => {
    const store = new DynamoDbLedgerStore({ client: relayed, tableName: TABLE });
    relay.fail = (target) => (target.endsWith('.Scan') ? 'ProvisionedThroughputExceededException' : null);
    await expect(store.listLogs()).rejects.toBeInstanceOf(StoreReadError);
    relay.fail = () => null;
  });

  it('throws StoreReadError for every read when the table does not exist', async () => {
    const store = new DynamoDbLedgerStore({ client, tableName: 'no-such-table' });
    await expect(store.readHead('l')).rejects.toBeInstanceOf(StoreReadError);
    await expect(collect(store.readEntries('l', 0))).rejects.toBeInstanceOf(StoreReadError);
    await expect(store.readClaim('r')).rejects.toBeInstanceOf(StoreReadError);
    await expect(store.readPosition('r')).rejects.toBeInstanceOf(StoreReadError);
    await expect(collect(store.readMarkers('l', 0))).rejects.toBeInstanceOf(StoreReadError);
    await expect(collect(store.readCheckpoints('l'))).rejects.toBeInstanceOf(StoreReadError);
    await expect(store.listLogs()).rejects.toBeInstanceOf(StoreReadError);
  });

  it('stores a batch marker as one item under one write unit, and refuses every other marker shape as StoreReadError', async () => {
    const store = new DynamoDbLedgerStore({ client, tableName: TABLE });
    const log = `marker-shape-${Date.now()}`;
    // A full delivery job of UUID-length request ids (ADR 0498 prices a marker at one write unit per job).
    const positions = Array.from({ length: 10 }, (_, i) => ({ seq: 20 + i, requestId: crypto.randomUUID() }));
    expect(await store.putMarkerIfAbsent({ logId: log, positions })).toBe(true);
    const stored = await client.send(
      new GetItemCommand({
        TableName: TABLE,
        Key: { pk: { S: `mark#${log}` }, sk: { N: '29' } },
        ConsistentRead: true,
      }),
    );
    expect(Object.keys(stored.Item!).sort()).toEqual(['pk', 'requestIds', 'seqs', 'sk']);
    // The item's JSON, type tags and quotes included, bounds what DynamoDB meters for it from above.
    expect(JSON.stringify(stored.Item).length).toBeLessThan(1024);
    expect(await collect(store.readMarkers(log, 0))).toEqual([{ logId: log, positions }]);
    // A job of one whole bundle (ADR 0506): 64 UUID positions stay under 4 KB, four write units at the most.
    const whole = Array.from({ length: MAX_MARKER_MEMBERS }, (_, i) => ({
      seq: 40 + i,
      requestId: crypto.randomUUID(),
    }));
    expect(await store.putMarkerIfAbsent({ logId: log, positions: whole })).toBe(true);
    const wholeItem = await client.send(
      new GetItemCommand({
        TableName: TABLE,
        Key: { pk: { S: `mark#${log}` }, sk: { N: '103' } },
        ConsistentRead: true,
      }),
    );
    expect(JSON.stringify(wholeItem.Item).length).toBeLessThan(4096);
    expect(await collect(store.readMarkers(log, 40))).toEqual([{ logId: log, positions: whole }]);
    const good = markerItem({ logId: log, positions: [{ seq: 3, requestId: 'a' }] });
    const tooMany = markerItem({ logId: log, positions: whole });
    const bad: [string, Record<string, AttributeValue>][] = [
      ['an extra attribute', { ...good, logId: { S: log } }],
      ['seqs not a list', { ...good, seqs: { N: '3' } }],
      ['no seqs', { pk: good.pk!, sk: good.sk!, requestIds: good.requestIds! }],
      ['an id that is not S', { ...good, requestIds: { L: [{ N: '1' }] } }],
      ['lists of two lengths', { ...good, requestIds: { L: [{ S: 'a' }, { S: 'b' }] } }],
      ['a key other than its last seq', { ...good, sk: { N: '4' } }],
      ['no members', { ...good, seqs: { L: [] }, requestIds: { L: [] } }],
      [
        'more positions than a job names',
        {
          ...tooMany,
          sk: { N: '104' },
          seqs: { L: [...tooMany.seqs!.L!, { N: '104' }] },
          requestIds: { L: [...tooMany.requestIds!.L!, { S: 'one-more' }] },
        },
      ],
    ];
    for (const [what, item] of bad) {
      const planted = `marker-bad-${Date.now()}-${what.replace(/\W/g, '')}`;
      await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...item, pk: { S: `mark#${planted}` } } }));
      await expect(collect(store.readMarkers(planted, 0)), what).rejects.toBeInstanceOf(StoreReadError);
    }
  });

  it('lets a write that is not a lost race fail loudly instead of reporting the slot taken', async () => {
    const store = new DynamoDbLedgerStore({ client, tableName: 'no-such-table' });
    await expect(store.putEntryIfAbsent(rawEntry('l', 0))).rejects.toThrow();
  });

  it('appends using only conditional PutItem, GetItem and Query: never UpdateItem, DeleteItem or a batch', async () => {
    relay.targets.length = 0;
    const store = new DynamoDbLedgerStore({ client: relayed, tableName: TABLE });
    const logIds = [`ops-${Date.now()}`];
    const commits = slotCommits();
    for (const requestId of ['ops-1', 'ops-2', 'ops-1']) {
      const r = await appendOnce(store, {
        requestId,
        requestDigest: digestOf(requestId),
        logId: logIds[0]!,
        slotCommits: commits,
        build: (slot) => refusalEntry(slot, requestId),
      });
      expect(r.ok).toBe(true);
    }
    const ops = new Set(relay.targets.map((t) => t.split('.')[1]));
    expect([...ops].sort()).toEqual(['GetItem', 'PutItem', 'Query']);
  });

  it('surfaces an entry item with no body as an empty body for verify to judge, not as a repaired entry', async () => {
    const log = `bodyless-${Date.now()}`;
    await client.send(
      new PutItemCommand({
        TableName: TABLE,
        Item: { pk: { S: `log#${log}` }, sk: { N: '0' }, requestId: { S: 'r' } },
      }),
    );
    const head = await new DynamoDbLedgerStore({ client, tableName: TABLE }).readHead(log);
    expect(head).toEqual({ logId: log, seq: 0, body: '', projection: { requestId: 'r', kind: '', entryHash: '' } });
  });

  describe('entry bodies stored compressed (ADR 0355)', () => {
    const store = (): DynamoDbLedgerStore => new DynamoDbLedgerStore({ client, tableName: TABLE });
    const plant = async (log: string, seq: number, attributes: Record<string, AttributeValue>): Promise<void> => {
      await client.send(
        new PutItemCommand({
          TableName: TABLE,
          Item: { pk: { S: `log#${log}` }, sk: { N: String(seq) }, requestId: { S: `r-${seq}` }, ...attributes },
        }),
      );
    };
    /** What verify makes of the log: its findings at each seq (the policy trusts the entry key K1). */
    const findingsOf = async (log: string): Promise<string[]> => {
      const r = readTrustPolicy(
        new TextEncoder().encode(
          policyText(
            [log],
            [
              { keys: K1, role: 'entries', validity: [{ logId: log, fromSeq: 0, toSeq: null }] },
              { keys: KC, role: 'checkpoints', validity: [{ logId: log, fromSeq: 0, toSeq: null }] },
            ],
          ),
        ),
      );
      if (!r.ok) throw new Error(r.error.detail);
      const source = {
        async *logs() {
          yield { logId: log, entries: store().readEntries(log, 0) };
        },
      };
      const v = await verifyLedger(source, r.value, []);
      if (!v.ok) throw new Error(v.error.detail);
      return v.value.findings.filter((f) => 'seq' in f).map((f) => `${f.code}@${(f as { seq: number }).seq}`);
    };
    const honest = (log: string, seq: number, prevHash: string | null): BuiltEntry => {
      const body = refusalEntryBody({
        slot: { logId: log, seq, prevHash },
        requestId: `r-${seq}`,
        requestDigest: digestOf(`r-${seq}`),
        packDigest: digestOf('pack'),
        evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD },
        time: '2026-12-04T10:00:00Z',
        keyId: signerFromKeyPair(K1).keyId,
        refusal: { code: 'unknown-pack-digest', message: 'no pack with this digest is published' },
      });
      return buildEntry(body, signerFromKeyPair(K1));
    };

    it('writes the body as raw DEFLATE in a Binary bodyz, never as a String body, and reads back the exact bytes', async () => {
      const log = `z-${Date.now()}`;
      const built = honest(log, 0, null);
      const entry = toStoredEntry(built);
      expect(await store().putEntryIfAbsent(entry)).toBe(true);
      const raw = await client.send(
        new GetItemCommand({ TableName: TABLE, Key: { pk: { S: `log#${log}` }, sk: { N: '0' } } }),
      );
      expect(raw.Item?.body).toBeUndefined();
      const stored = raw.Item!.bodyz!.B!;
      expect(inflateRawSync(stored).toString('utf8')).toBe(entry.body);
      expect(stored.byteLength).toBeLessThan(Buffer.byteLength(entry.body, 'utf8'));
      expect(await store().readHead(log)).toEqual(entry);
      expect(await findingsOf(log)).toEqual([]);
    });

    const run = (log: string, n: number): BuiltEntry[] => {
      const built = [honest(log, 0, null)];
      for (let seq = 1; seq < n; seq++) built.push(honest(log, seq, built.at(-1)!.entryHash));
      return built;
    };

    it('writes a group as one bundle item keyed by its first seq, its members one compressed stream, and reads each back', async () => {
      const log = `zt-${Date.now()}`;
      const built = run(log, 4);
      const entries = built.map(toStoredEntry);
      expect(await store().putEntryIfAbsent(entries[0]!)).toBe(true);
      expect(await store().putEntriesIfAbsent(entries.slice(1))).toBe(true);
      const page = await client.send(
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: `log#${log}` } },
        }),
      );
      expect(Object.keys(page.Items![1]!).sort()).toEqual(['entriesz', 'pk', 'sk']);
      expect(page.Items!.map((i) => [i.sk!.N, i.bodyz !== undefined, i.entriesz !== undefined])).toEqual([
        ['0', true, false],
        ['1', false, true],
      ]);
      // Layout 2 (ADR 0476): each member's exact bytes, newline-ended, in one raw DEFLATE stream.
      const stream = page.Items![1]!.entriesz!.B!;
      expect(inflateRawSync(stream).toString('utf8')).toBe(
        entries
          .slice(1)
          .map((e) => `${e.body}\n`)
          .join(''),
      );
      const perMember = entries.slice(1).reduce((n, e) => n + deflateRawSync(e.body).byteLength, 0);
      expect(stream.byteLength).toBeLessThan(perMember);
      // The projection is derived from each body, so the entries read back are exactly the ones written.
      expect(await collect(store().readEntries(log, 0))).toEqual(entries);
      expect(await collect(store().readEntries(log, 2, 2))).toEqual([entries[2]]);
      expect(await store().readHead(log)).toEqual(entries[3]);
      expect(await findingsOf(log)).toEqual([]);
      // The next group starts after the bundle: its key is free exactly when the log has nothing after seq 3.
      expect(await store().putEntriesIfAbsent([toStoredEntry(honest(log, 1, built[0]!.entryHash))])).toBe(false);
    });

    it('refuses to write a bundle member whose projection is not the one its body states (a caller bug)', () => {
      const entries = run(`zp-${Date.now()}`, 2).map(toStoredEntry);
      const lying = { ...entries[1]!, projection: { ...entries[1]!.projection, requestId: 'r-x' } };
      expect(() => entriesItem([entries[0]!, lying])).toThrow(TypeError);
      expect(entriesItem(entries).entriesz).toBeDefined();
    });

    it('still reads a bundle in the listed layout written before, each member with its own projection', async () => {
      const log = `zl-${Date.now()}`;
      const entries = run(log, 3).map(toStoredEntry);
      await client.send(new PutItemCommand({ TableName: TABLE, Item: listedEntriesItem(entries) }));
      expect(await collect(store().readEntries(log, 0))).toEqual(entries);
      expect(await store().readHead(log)).toEqual(entries[2]);
      expect(await findingsOf(log)).toEqual([]);
    });

    it('judges a listed bundle member like an entry item: a zip bomb in one member is that entry malformed, the rest valid', async () => {
      const log = `zb-${Date.now()}`;
      const [first, second, third] = run(log, 3);
      const item = listedEntriesItem([first!, second!, third!].map(toStoredEntry));
      item.entries!.L![1]!.M!.bodyz = { B: deflateRawSync(second!.body + ' '.repeat(10_000_000)) };
      await client.send(new PutItemCommand({ TableName: TABLE, Item: item }));
      expect((await collect(store().readEntries(log, 0))).map((e) => e.body === '')).toEqual([false, true, false]);
      const findings = await findingsOf(log);
      expect(findings).toContain('malformed@1');
      expect(findings.filter((f) => f.endsWith('@0'))).toEqual([]);
    });

    it('judges a compressed bundle member by its body: one rewritten member is that entry reported, the rest valid', async () => {
      const log = `zr-${Date.now()}`;
      const entries = run(log, 3).map(toStoredEntry);
      // A keyless table writer recompresses the stream with member 1's request id changed.
      const forged = { ...entries[1]!, body: entries[1]!.body.replace('"requestId":"r-1"', '"requestId":"r-x"') };
      const stream = deflateRawSync([entries[0]!, forged, entries[2]!].map((e) => `${e.body}\n`).join(''));
      const item = { pk: { S: `log#${log}` }, sk: { N: '0' }, entriesz: { B: stream } };
      await client.send(new PutItemCommand({ TableName: TABLE, Item: item }));
      const read = await collect(store().readEntries(log, 0));
      expect(read.map((e) => e.projection.requestId)).toEqual(['r-0', 'r-x', 'r-2']);
      const findings = await findingsOf(log);
      expect(findings.some((f) => f.endsWith('@1'))).toBe(true);
      expect(findings.filter((f) => f.endsWith('@0'))).toEqual([]);
    });

    // Shapes the store never writes: read as StoreReadError (verify: no verdict), never as a shorter or chosen log.
    const zs = (text: string): Uint8Array => deflateRawSync(text);
    const badBundles: [string, (item: Record<string, AttributeValue>) => Record<string, AttributeValue>][] = [
      ['entries that are not a list', (i) => ({ ...i, entries: { S: 'x' } })],
      ['a bundle of one member', (i) => ({ ...i, entries: { L: i.entries!.L!.slice(0, 1) } })],
      [
        'a bundle of 17 members',
        (i) => ({ ...i, entries: { L: Array.from({ length: 17 }, () => i.entries!.L![0]!) } }),
      ],
      ['a member that is not a map', (i) => ({ ...i, entries: { L: [i.entries!.L![0]!, { S: 'x' }] } })],
      ['a bundle that also carries a body', (i) => ({ ...i, bodyz: i.entries!.L![0]!.M!.bodyz! })],
      ['a bundle in both layouts', (i) => ({ ...i, entriesz: { B: zs('a\nb\n') } })],
      [
        'a compressed bundle that also carries a body',
        ({ entries: _l, ...i }) => ({ ...i, entriesz: { B: zs('a\nb\n') }, bodyz: { B: zs('a') } }),
      ],
      ['a stream that is not Binary', ({ entries: _l, ...i }) => ({ ...i, entriesz: { S: 'a\nb\n' } })],
      ['a stream of one member', ({ entries: _l, ...i }) => ({ ...i, entriesz: { B: zs('a\n') } })],
      [
        `a stream of ${MAX_GROUP_MEMBERS + 1} members`,
        ({ entries: _l, ...i }) => ({ ...i, entriesz: { B: zs('a\n'.repeat(MAX_GROUP_MEMBERS + 1)) } }),
      ],
      // Two whole members and a third cut off: never read as a bundle of two.
      [
        'a stream whose last member has no newline',
        ({ entries: _l, ...i }) => ({ ...i, entriesz: { B: zs('a\nb\nc') } }),
      ],
      [
        'a truncated stream',
        ({ entries: _l, ...i }) => ({ ...i, entriesz: { B: zs('a\nb\n'.repeat(50)).subarray(0, 8) } }),
      ],
      // 10 MB of spaces in ~10 KB: inflating stops at one item's bytes instead of allocating it all.
      [
        'a zip bomb stream',
        ({ entries: _l, ...i }) => ({ ...i, entriesz: { B: zs(`a\nb${' '.repeat(10_000_000)}\n`) } }),
      ],
    ];
    it.each(badBundles)('refuses %s as a store read error', async (_name, mangle) => {
      const log = `bb-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const first = honest(log, 0, null);
      const item = listedEntriesItem([first, honest(log, 1, first.entryHash)].map(toStoredEntry));
      await client.send(new PutItemCommand({ TableName: TABLE, Item: mangle(item) }));
      await expect(collect(store().readEntries(log, 0))).rejects.toBeInstanceOf(StoreReadError);
      await expect(store().readHead(log)).rejects.toBeInstanceOf(StoreReadError);
    });

    it('refuses two items holding one seq (a planted bundle over an entry) as a store read error, never a choice', async () => {
      const log = `ov-${Date.now()}`;
      const built = [honest(log, 0, null)];
      for (let seq = 1; seq < 3; seq++) built.push(honest(log, seq, built.at(-1)!.entryHash));
      const entries = built.map(toStoredEntry);
      for (const e of entries) expect(await store().putEntryIfAbsent(e)).toBe(true);
      expect(await collect(store().readEntries(log, 0))).toEqual(entries);
      // A keyless table writer adds a bundle at seq 1 that also claims seq 2.
      const forged = toStoredEntry(honest(log, 2, built[1]!.entryHash));
      const item = listedEntriesItem([entries[1]!, { ...forged, body: forged.body.replace('r-2', 'r-x') }]);
      await client.send(new PutItemCommand({ TableName: TABLE, Item: item }));
      await expect(collect(store().readEntries(log, 0))).rejects.toBeInstanceOf(StoreReadError);
      await expect(collect(store().readEntries(log, 2))).rejects.toBeInstanceOf(StoreReadError);
    });

    it('still reads an entry written before, with its body as a String', async () => {
      const log = `plain-${Date.now()}`;
      const entry = toStoredEntry(honest(log, 0, null));
      const { bodyz: _compressed, ...rest } = entryItem(entry);
      await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...rest, body: { S: entry.body } } }));
      expect(await store().readHead(log)).toEqual(entry);
      expect(await findingsOf(log)).toEqual([]);
    });

    // Each hostile item stands in slot 1 for an honest next entry `next` (so a lenient reader would show a valid
    // entry, or a longer body): it is read as the empty body (no crash, no repair) and verify reports that one entry.
    const z = (bytes: Uint8Array | string): Buffer => deflateRawSync(bytes);
    const hostile: [string, (next: string) => Record<string, AttributeValue>][] = [
      // 10 MB of spaces in ~10 KB: inflating stops at the entry's byte cap instead of allocating it all.
      ['a zip bomb', (next) => ({ bodyz: { B: z(next + ' '.repeat(10_000_000)) } })],
      [
        'invalid UTF-8 inside the deflate stream',
        (next) => ({ bodyz: { B: z(Buffer.concat([Buffer.from(next), Buffer.from([0xff])])) } }),
      ],
      ['a truncated stream', (next) => ({ bodyz: { B: z(next).subarray(0, z(next).length - 4) } })],
      ['bytes after the end of the stream', (next) => ({ bodyz: { B: Buffer.concat([z(next), Buffer.from('{}')]) } })],
      ['both a String body and a bodyz', (next) => ({ body: { S: next }, bodyz: { B: z(next) } })],
      ['a bodyz that is a String, not Binary', (next) => ({ bodyz: { S: next } })],
    ];
    it.each(hostile)('surfaces %s as an empty body that verify reports malformed', async (_name, attributes) => {
      const log = `hostile-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const first = honest(log, 0, null);
      const next = toStoredEntry(honest(log, 1, first.entryHash));
      expect(await store().putEntryIfAbsent(toStoredEntry(first))).toBe(true);
      await plant(log, 1, {
        ...attributes(next.body),
        kind: { S: next.projection.kind },
        entryHash: { S: next.projection.entryHash },
      });
      const read = await collect(store().readEntries(log, 0));
      expect(read.map((e) => e.body)).toEqual([toStoredEntry(first).body, '']);
      expect(await store().readHead(log)).toMatchObject({ seq: 1, body: '' });
      const findings = await findingsOf(log);
      expect(findings).toContain('malformed@1');
      expect(findings.filter((f) => f.endsWith('@0'))).toEqual([]);
    });

    it('reads the same entry, planted the way the hostile ones are, as valid (the hostile tests can fail)', async () => {
      const log = `control-${Date.now()}`;
      const first = honest(log, 0, null);
      const next = toStoredEntry(honest(log, 1, first.entryHash));
      expect(await store().putEntryIfAbsent(toStoredEntry(first))).toBe(true);
      await plant(log, 1, {
        bodyz: { B: z(next.body) },
        kind: { S: next.projection.kind },
        entryHash: { S: next.projection.entryHash },
      });
      expect(await store().readHead(log)).toEqual(next);
      expect(await findingsOf(log)).toEqual([]);
    });
  });

  it('refuses an item whose sequence key is not a safe integer instead of guessing', async () => {
    const log = `badseq-${Date.now()}`;
    await client.send(
      new PutItemCommand({
        TableName: TABLE,
        Item: { pk: { S: `log#${log}` }, sk: { N: '9007199254740993' }, body: { S: '{}' } },
      }),
    );
    await expect(new DynamoDbLedgerStore({ client, tableName: TABLE }).readHead(log)).rejects.toBeInstanceOf(
      StoreReadError,
    );
  });
});
