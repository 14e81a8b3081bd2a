/**
 * The append protocol (core/ledger/write/append.ts) over the DynamoDB store on the local stack, with 1, 4 and 16
 * concurrent writers and duplicate deliveries (ADR 0160): one entry per request, no fork, no gap, chain intact.
 * Each writer has its own SDK client (its own connections), as separate Lambda instances would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbLedgerStore } from '../../adapters/dynamodb-ledger-store.js';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { appendOnce, slotCommits } from '../../core/ledger/write/append.js';
import { selectLog } from '../../core/ledger/write/log-selection.js';
import { entryHashOf, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { LedgerStore } from '../../core/ledger/store/store.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { fixtureTemplate } from '../localstack/fixture-template.js';
import { digestOf, refusalEntry } from './entry-fixture.js';
import { startRecordingProxy } from './recording-proxy.js';

let stack: LocalStack;
const clients: DynamoDBClient[] = [];
const TABLE = 'ap-ledger';

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template: fixtureTemplate('ap') });
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await stack?.stop();
});

function writerStore(): DynamoDbLedgerStore {
  const client = createDynamoDbClient({ endpoint: stack.endpoint });
  clients.push(client);
  return new DynamoDbLedgerStore({ client, tableName: TABLE });
}

/** Checks one log end to end: contiguous from 0, each prevHash the hash of the entry before, bytes canonical. */
async function auditLog(store: LedgerStore, logId: string): Promise<string[]> {
  const requestIds: string[] = [];
  let expectedSeq = 0;
  let prevHash: string | null = null;
  for await (const e of store.readEntries(logId, 0)) {
    expect(e.seq, `gap before seq ${e.seq} in ${logId}`).toBe(expectedSeq);
    const parsed = parseStoredEntry(e.body);
    expect(parsed.ok, `entry ${logId}/${e.seq} reads back strictly`).toBe(true);
    if (!parsed.ok) break;
    expect(parsed.value.entry.prevHash).toBe(prevHash);
    expect(e.projection.requestId).toBe(parsed.value.entry.requestId);
    expect(e.projection.entryHash).toBe(entryHashOf(e.body));
    prevHash = entryHashOf(e.body);
    requestIds.push(e.projection.requestId);
    expectedSeq++;
  }
  return requestIds;
}

describe.each([1, 4, 16])('appending with %i concurrent writer(s) over the wire', (writers) => {
  it('writes exactly one entry per request across duplicate deliveries, with no fork and no gap', async () => {
    const run = `w${writers}-${Date.now().toString(36)}`;
    const logIds = [`${run}-a`, `${run}-b`];
    const requests = Array.from({ length: 24 }, (_, i) => `${run}-req-${i}`);
    // Every request is delivered twice, the second delivery to another writer, and in a shuffled order.
    const deliveries = [...requests, ...requests.slice().reverse()];
    const stores = Array.from({ length: writers }, () => writerStore());
    const outcomes: Array<{ requestId: string; status: string; logId: string; seq: number }> = [];
    let next = 0;
    await Promise.all(
      stores.map(async (store) => {
        const commits = slotCommits();
        while (next < deliveries.length) {
          const requestId = deliveries[next++]!;
          const r = await appendOnce(store, {
            requestId,
            requestDigest: digestOf(requestId),
            // The writer of the request's FIFO group (core/pipeline/sequencing.ts).
            logId: selectLog(requestId, logIds),
            slotCommits: commits,
            build: (slot) => refusalEntry(slot, requestId),
          });
          if (!r.ok) throw new Error(`append refused: ${r.error.code}`);
          outcomes.push({ requestId, status: r.value.status, logId: r.value.entry.logId, seq: r.value.entry.seq });
        }
      }),
    );
    expect(outcomes).toHaveLength(deliveries.length);
    expect(outcomes.filter((o) => o.status === 'appended')).toHaveLength(requests.length);
    // Both deliveries of a request name the same slot; the one that found the other's entry wrote its position.
    for (const id of requests) {
      const slots = new Set(outcomes.filter((o) => o.requestId === id).map((o) => `${o.logId}/${o.seq}`));
      expect(slots.size, `deliveries of ${id} disagree`).toBe(1);
    }
    const reader = stores[0]!;
    const recorded = [...(await auditLog(reader, logIds[0]!)), ...(await auditLog(reader, logIds[1]!))];
    expect(recorded.slice().sort()).toEqual(requests.slice().sort());
    for (const id of requests) {
      const position = await reader.readPosition(id);
      const outcome = outcomes.find((o) => o.requestId === id)!;
      expect(position).toEqual({ requestId: id, logId: outcome.logId, seq: outcome.seq });
    }
  });
});

describe('a request id reused with other bytes over the wire', () => {
  it('is refused as request-id-conflict and leaves the first entry alone', async () => {
    const store = writerStore();
    const logIds = [`conflict-${Date.now().toString(36)}`];
    const first = await appendOnce(store, {
      requestId: 'dup-id',
      requestDigest: digestOf('one'),
      logId: logIds[0]!,
      slotCommits: slotCommits(),
      build: (s) => refusalEntry(s, 'dup-id', digestOf('one')),
    });
    const second = await appendOnce(store, {
      requestId: 'dup-id',
      requestDigest: digestOf('two'),
      logId: logIds[0]!,
      slotCommits: slotCommits(),
      build: (s) => refusalEntry(s, 'dup-id', digestOf('two')),
    });
    expect(first.ok).toBe(true);
    expect(second.ok ? 'ok' : second.error.code).toBe('request-id-conflict');
    expect(await auditLog(store, logIds[0]!)).toEqual(['dup-id']);
  });
});

describe('a writer that crashes mid-append over the wire', () => {
  type Item = { pk?: { S?: string }; sk?: { N?: string } };
  const cases: Array<[string, (item: Item) => boolean]> = [
    ['after its claim, before its entry', (item) => item.pk?.S?.startsWith('log#') === true],
  ];
  it.each(cases)('leaves exactly one entry once the request is redelivered, when it dies %s', async (_, dies) => {
    const relay = await startRecordingProxy(stack.endpoint);
    const crashing = createDynamoDbClient({ endpoint: relay.endpoint, maxAttempts: 1 });
    try {
      const logIds = [`crash-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`];
      const requestId = `${logIds[0]}-req`;
      const append = (store: LedgerStore) =>
        appendOnce(store, {
          requestId,
          requestDigest: digestOf(requestId),
          logId: logIds[0]!,
          slotCommits: slotCommits(),
          build: (slot) => refusalEntry(slot, requestId),
        });
      // The relay refuses the write the writer would make next, as if its process died before sending it.
      relay.fail = (target, body) =>
        target.endsWith('.PutItem') && dies(body.Item as Item) ? 'InternalServerError' : null;
      await expect(append(new DynamoDbLedgerStore({ client: crashing, tableName: TABLE }))).rejects.toThrow();
      relay.fail = () => null;
      const redelivered = await append(writerStore());
      expect(redelivered.ok && redelivered.value.status).toBe('appended');
      const again = await append(writerStore());
      expect(again.ok && again.value.status).toBe('duplicate');
      const reader = writerStore();
      expect(await auditLog(reader, logIds[0]!)).toEqual([requestId]);
      expect(await reader.readPosition(requestId)).toEqual({ requestId, logId: logIds[0], seq: 0 });
    } finally {
      crashing.destroy();
      await relay.close();
    }
  });
});
