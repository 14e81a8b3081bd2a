/**
 * The overview's first paint reads per log (a head, the checkpoints, the notes), never every entry; the charts come
 * from the index on their own endpoint (ADR 0230). Over a real socket, files mode.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerStore } from '../../core/ledger/index.js';
import { checkpointView } from '../../cli/console/overview.js';
import { startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource, type ConsoleSource } from '../../cli/console/source.js';
import type { Overview, OverviewChart } from '../../core/console-api/index.js';
import { writeLedgerFiles, type LedgerFiles } from './ledger-files.js';

let files: LedgerFiles;
let c: RunningConsole;
let entryReads = 0;
/** While closed, every readEntries waits: an overview that needed the index could not answer. */
let release: () => void = () => undefined;
const gate: Promise<void> = new Promise((r) => (release = r));

/** The files store with readEntries counted and held at the gate. */
function gated(store: LedgerStore): LedgerStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'readEntries') return Reflect.get(target, prop, receiver) as unknown;
      return async function* (logId: string, fromSeq: number, toSeq?: number) {
        entryReads++;
        await gate;
        yield* target.readEntries(logId, fromSeq, toSeq);
      };
    },
  });
}

beforeAll(async () => {
  files = writeLedgerFiles(['log-a', 'log-b'], 7);
  const opened = await openFileSource(files);
  const source: ConsoleSource = { ...opened, store: gated(opened.store) };
  c = await startConsoleServer({ source, host: '127.0.0.1', port: 0, distDir: files.dir });
});

afterAll(async () => {
  release();
  await c?.close();
  rmSync(files.dir, { recursive: true, force: true });
});

const get = async <T>(path: string): Promise<T> => (await (await fetch(new URL(path, c.url))).json()) as T;

describe('the overview paints without reading every entry', () => {
  it('answers with each log, its head and its newest checkpoint while no entry has been read', async () => {
    const o = await get<Overview>('/api/overview');
    expect(entryReads).toBe(0);
    expect(o.entries).toBe(14);
    expect(o.logs.map((l) => [l.logId, l.entries, l.head?.seq, l.checkpoint?.treeSize, l.checkpoint?.status])).toEqual([
      ['log-a', 7, 6, 7, 'ok'],
      ['log-b', 7, 6, 7, 'ok'],
    ]);
    expect(o.logs[0]?.head?.entryHash).toMatch(/^[0-9a-f]{64}$/);
    expect(o).not.toHaveProperty('chart');
  });

  it('gives the charts only once the index has read every entry, and the head hash is the indexed one', async () => {
    const pending = get<OverviewChart>('/api/overview/chart');
    await new Promise((r) => setTimeout(r, 50));
    expect(entryReads).toBeGreaterThan(0);
    release();
    const chart = await pending;
    expect(chart.indexed).toBe(14);
    const perKind = chart.chart.byKind.reduce((a, s) => a + s.counts.reduce((x, y) => x + y, 0), 0);
    expect(perKind).toBe(14);
    const o = await get<Overview>('/api/overview');
    const list = await get<{ entries: { logId: string; seq: number; entryHash: string }[] }>(
      '/api/entries?log=log-a&pageSize=500',
    );
    expect(o.logs[0]?.head?.entryHash).toBe(list.entries.find((e) => e.seq === 6)?.entryHash);
  });
});

describe('the files store is read-only', () => {
  it('refuses every write with console-read-only, so the console cannot change what it shows', async () => {
    const { store, close } = await openFileSource(files);
    const head = (await store.readHead('log-a'))!;
    const writes = [
      () => store.putEntryIfAbsent(head),
      () => store.putClaimIfAbsent({ requestId: head.projection.requestId, logId: 'log-a' } as never),
      () => store.putPositionIfAbsent({ requestId: head.projection.requestId, logId: 'log-a', seq: 0 } as never),
      () => store.putCheckpointIfAbsent({ logId: 'log-a', treeSize: 1, body: '{}' } as never),
    ];
    for (const write of writes) await expect(write()).rejects.toMatchObject({ code: 'console-read-only' });
    close();
  });
});

describe('a checkpoint as the overview shows it', () => {
  it('is malformed, every member read from it null, when the stored bytes are not a checkpoint', () => {
    expect(checkpointView({ logId: 'log-a', treeSize: 3, body: 'not a checkpoint' }, null)).toEqual({
      logId: 'log-a',
      treeSize: 3,
      time: null,
      rootHash: null,
      chainHead: null,
      keyId: null,
      status: 'malformed',
    });
  });

  it('keeps what it states and says no-policy when there is no trust policy to judge it by', async () => {
    const { store, close } = await openFileSource(files);
    let seen = 0;
    for await (const c of store.readCheckpoints('log-a')) {
      seen++;
      const v = checkpointView(c, null);
      expect(v.status).toBe('no-policy');
      expect(v.treeSize).toBe(7);
      expect(v.rootHash).toMatch(/^[0-9a-f]{64}$/);
      expect(v.keyId).not.toBeNull();
    }
    expect(seen).toBe(1);
    close();
  });
});
