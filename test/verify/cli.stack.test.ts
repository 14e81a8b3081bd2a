import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/commands/verify.js';
import { memoryIo } from '../../cli/io.js';
import { createDynamoDbClient } from '../../adapters/aws-clients.js';
import { DynamoDbLedgerStore } from '../../adapters/dynamodb-ledger-store.js';
import { readCheckpointExport, readLedgerExport } from '../../core/ledger/export/export.js';
import { readMarkers } from '../../core/ledger/verify/markers.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { StoreReadError, type StoredEntry } from '../../core/ledger/store/store.js';
import { readFileSync } from 'node:fs';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { fixtureTemplate } from '../localstack/fixture-template.js';
import { startRecordingProxy, type RecordingProxy } from '../adapters/recording-proxy.js';

const SCENARIOS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'scenarios');
const file = (scenario: string, name: string) => join(SCENARIOS, scenario, name);
const exportArgs = (scenario: string, checkpoints = scenario) => [
  '--export',
  file(scenario, 'ledger.jsonl'),
  '--policy',
  file(scenario, 'policy.json'),
  '--checkpoints',
  file(checkpoints, 'checkpoints.json'),
];

function oneJsonLine(out: string): Record<string, unknown> {
  expect(out.endsWith('\n')).toBe(true);
  expect(out.slice(0, -1)).not.toContain('\n');
  return JSON.parse(out) as Record<string, unknown>;
}

describe('docket verify on export files', () => {
  it('prints one line of JSON with ok true and exits 0 for an honest ledger', async () => {
    const io = memoryIo();
    expect(await run(exportArgs('baseline'), io)).toBe(0);
    const v = oneJsonLine(io.out());
    expect(v.ok).toBe(true);
    expect(v.findings).toEqual([]);
    expect((v.summary as { entries: number }).entries).toBe(12);
  });

  it('exits 1 and lists the finding when an entry was edited', async () => {
    const io = memoryIo();
    expect(await run(exportArgs('edited-signed-body-tail'), io)).toBe(1);
    const v = oneJsonLine(io.out());
    expect(v.ok).toBe(false);
    expect(v.findings).toEqual([{ code: 'signature-mismatch', logId: 'log-a', seq: 5 }]);
  });

  it('checks every entry signature with --all-signatures and says so in the summary', async () => {
    const quick = memoryIo();
    expect(await run(exportArgs('verifying-checkpoint-vouches-for-covered-entries'), quick)).toBe(0);
    // log-a's 9 entries are vouched for by KC's /2 checkpoint; log-b's entries 4 and 5 lie past its checkpoint.
    expect((oneJsonLine(quick.out()).summary as { entrySignaturesChecked: number }).entrySignaturesChecked).toBe(2);
    const all = memoryIo();
    expect(
      await run([...exportArgs('verifying-checkpoint-vouches-for-covered-entries'), '--all-signatures'], all),
    ).toBe(1);
    const v = oneJsonLine(all.out());
    expect((v.summary as { mode: string; entrySignaturesChecked: number }).mode).toBe('all-signatures');
    expect((v.summary as { entrySignaturesChecked: number }).entrySignaturesChecked).toBe(15);
  });

  it('fails closed when an honest ledger is presented without any checkpoint', async () => {
    const io = memoryIo();
    expect(await run(exportArgs('baseline', 'empty-ledger-without-anchor'), io)).toBe(1);
    expect(oneJsonLine(io.out()).findings).toEqual([
      { code: 'unregistered-log', logId: 'log-a', missing: 'checkpoint' },
      { code: 'unregistered-log', logId: 'log-b', missing: 'checkpoint' },
    ]);
  });

  it('gives no verdict (exit 2, one JSON line) for an export cut short', async () => {
    const io = memoryIo();
    expect(await run(exportArgs('truncated-export'), io)).toBe(2);
    expect(oneJsonLine(io.out())).toMatchObject({ noVerdict: { code: 'export-unreadable' } });
  });

  it('gives no verdict when the trust policy file cannot be read', async () => {
    const io = memoryIo();
    expect(
      await run(
        [
          '--export',
          file('baseline', 'ledger.jsonl'),
          '--policy',
          file('baseline', 'no-such-policy.json'),
          '--checkpoints',
          file('baseline', 'checkpoints.json'),
        ],
        io,
      ),
    ).toBe(2);
    expect(oneJsonLine(io.out())).toMatchObject({ noVerdict: { code: 'policy-unreadable' } });
  });

  it('draws progress on stderr only, keeping stdout to the one verdict line', async () => {
    const io = memoryIo();
    expect(await run(exportArgs('baseline'), io, { progressEvery: 5 })).toBe(0);
    expect(io.err()).toContain('10 entries checked');
    expect(oneJsonLine(io.out()).ok).toBe(true);
  });

  it('rejects an unknown flag as a usage error (exit 64) without a verdict on stdout', async () => {
    const io = memoryIo();
    expect(await run(['--frobnicate'], io)).toBe(64);
    expect(io.out()).toBe('');
  });
});

/** Loads a corpus scenario's entries and checkpoints into a store, as they would sit in the table. */
async function load(
  store: {
    putEntryIfAbsent(e: StoredEntry): Promise<boolean>;
    putCheckpointIfAbsent(c: { logId: string; treeSize: number; body: string }): Promise<boolean>;
  },
  scenario: string,
): Promise<void> {
  const exp = readLedgerExport(new Uint8Array(readFileSync(file(scenario, 'ledger.jsonl'))));
  const cps = readCheckpointExport(new Uint8Array(readFileSync(file(scenario, 'checkpoints.json'))));
  if (!exp.ok || !cps.ok) throw new Error('corpus scenario unreadable');
  for (const e of exp.value.entries) expect(await store.putEntryIfAbsent(e)).toBe(true);
  for (const c of cps.value) expect(await store.putCheckpointIfAbsent(c)).toBe(true);
}

describe('docket verify on a live ledger store', () => {
  it('gives no verdict (exit 2) when the store cuts a read short, never a shorter ok', async () => {
    class CutShort extends MemoryLedgerStore {
      override async *readEntries(logId: string, fromSeq: number, toSeq?: number): AsyncIterable<StoredEntry> {
        let n = 0;
        for await (const e of super.readEntries(logId, fromSeq, toSeq)) {
          if (++n > 3) throw new StoreReadError('page 2 throttled');
          yield e;
        }
      }
    }
    const store = new CutShort();
    await load(store, 'baseline');
    const io = memoryIo();
    const code = await run(
      ['--policy', file('baseline', 'policy.json'), '--checkpoints', file('baseline', 'checkpoints.json')],
      io,
      { openStore: () => ({ store, close: () => {} }) },
    );
    expect(code).toBe(2);
    expect(oneJsonLine(io.out())).toMatchObject({ noVerdict: { code: 'store-read-incomplete' } });
  });

  it("checks the table's own position markers when no markers file is given: a deleted unanchored tail is found (exit 1)", async () => {
    const scenario = 'deleted-unanchored-tail-markers-intact';
    const store = new MemoryLedgerStore();
    await load(store, scenario);
    const markers = readMarkers(new Uint8Array(readFileSync(file(scenario, 'markers.json'))));
    if (!markers.ok) throw new Error(markers.error);
    for (const p of markers.value) expect(await store.putPositionIfAbsent(p)).toBe(true);
    const args = ['--policy', file(scenario, 'policy.json'), '--checkpoints', file(scenario, 'checkpoints.json')];
    const io = memoryIo();
    expect(await run(args, io, { openStore: () => ({ store, close: () => {} }) })).toBe(1);
    const v = oneJsonLine(io.out());
    expect(v.findings).toEqual([{ code: 'position-without-entry', logId: 'log-a', seq: 5, requestId: 'log-a-req-5' }]);
    // The same table without its markers is the undetectable case (corpus: deleted-unanchored-tail-without-markers).
    const bare = new MemoryLedgerStore();
    await load(bare, scenario);
    const io2 = memoryIo();
    expect(await run(args, io2, { openStore: () => ({ store: bare, close: () => {} }) })).toBe(0);
  });

  it("checks the positions the table's batch markers name the same way: the deleted unanchored tail is found (exit 1)", async () => {
    const scenario = 'deleted-unanchored-tail-markers-intact';
    const store = new MemoryLedgerStore();
    await load(store, scenario);
    const markers = readMarkers(new Uint8Array(readFileSync(file(scenario, 'markers.json'))));
    if (!markers.ok) throw new Error(markers.error);
    // The same positions as one batch marker per log (ADR 0498), as the delivery stage now writes them.
    for (const logId of new Set(markers.value.map((p) => p.logId))) {
      const mine = markers.value.filter((p) => p.logId === logId).sort((a, b) => a.seq - b.seq);
      for (let i = 0; i < mine.length; i += 10)
        expect(
          await store.putMarkerIfAbsent({
            logId,
            positions: mine.slice(i, i + 10).map((p) => ({ seq: p.seq, requestId: p.requestId })),
          }),
        ).toBe(true);
    }
    expect(store.markers().positions).toHaveLength(markers.value.length);
    const args = ['--policy', file(scenario, 'policy.json'), '--checkpoints', file(scenario, 'checkpoints.json')];
    const io = memoryIo();
    expect(await run(args, io, { openStore: () => ({ store, close: () => {} }) })).toBe(1);
    expect(oneJsonLine(io.out()).findings).toEqual([
      { code: 'position-without-entry', logId: 'log-a', seq: 5, requestId: 'log-a-req-5' },
    ]);
  });

  describe('over the local stack (DynamoDB wire protocol)', () => {
    let stack: LocalStack;
    let relay: RecordingProxy;
    const TABLE = 'vf-ledger';
    beforeAll(async () => {
      stack = await startLocalStack({ port: 0, template: fixtureTemplate('vf') });
      relay = await startRecordingProxy(stack.endpoint);
      const client = createDynamoDbClient({ endpoint: stack.endpoint });
      try {
        await load(new DynamoDbLedgerStore({ client, tableName: TABLE }), 'baseline');
      } finally {
        client.destroy();
      }
    }, 60_000);
    afterAll(async () => {
      await relay?.close();
      await stack?.stop();
    });

    it('verifies the table against the policy using the checkpoints stored in it (exit 0)', async () => {
      const io = memoryIo();
      expect(
        await run(
          [
            '--endpoint',
            stack.endpoint,
            '--table',
            TABLE,
            '--policy',
            file('baseline', 'policy.json'),
            '--checkpoints',
            file('baseline', 'checkpoints.json'),
          ],
          io,
        ),
      ).toBe(0);
      const v = oneJsonLine(io.out());
      expect(v.ok).toBe(true);
      expect((v.summary as { entries: number; checkpoints: number }).entries).toBe(12);
      expect((v.summary as { anchors: unknown[] }).anchors).toHaveLength(2);
    });

    it('gives no verdict (exit 2) when DynamoDB throttles a query for good', async () => {
      relay.fail = (target) => (target.endsWith('.Query') ? 'ProvisionedThroughputExceededException' : null);
      try {
        const io = memoryIo();
        expect(
          await run(
            [
              '--endpoint',
              relay.endpoint,
              '--table',
              TABLE,
              '--policy',
              file('baseline', 'policy.json'),
              '--checkpoints',
              file('baseline', 'checkpoints.json'),
            ],
            io,
          ),
        ).toBe(2);
        expect(oneJsonLine(io.out())).toMatchObject({ noVerdict: { code: 'store-read-incomplete' } });
      } finally {
        relay.fail = () => null;
      }
    }, 60_000);

    // Runs after the honest verdicts above: it plants an item in the shared table.
    it('finds a batch marker planted by a writer with table access and no key: it names a request at another’s seq (exit 1)', async () => {
      // The item the delivery stage writes (adapters/ledger-marker-item.ts), written past every role: only verify stands.
      const client = createDynamoDbClient({ endpoint: stack.endpoint });
      try {
        const planted = new DynamoDbLedgerStore({ client, tableName: TABLE });
        expect(
          await planted.putMarkerIfAbsent({ logId: 'log-a', positions: [{ seq: 3, requestId: 'log-a-req-1' }] }),
        ).toBe(true);
      } finally {
        client.destroy();
      }
      const io = memoryIo();
      const args = ['--endpoint', stack.endpoint, '--table', TABLE, '--policy', file('baseline', 'policy.json')];
      expect(await run([...args, '--checkpoints', file('baseline', 'checkpoints.json')], io)).toBe(1);
      expect(oneJsonLine(io.out()).findings).toEqual([
        { code: 'position-mismatch', logId: 'log-a', seq: 3, requestId: 'log-a-req-1' },
      ]);
    });
  });
});
