/**
 * The table-description memory of dynalite's fast paths (ADR 0256) against interleavings the wire cannot order on
 * demand: a read that a write overtakes, a read that returns while a write is in flight, a table not ACTIVE, the
 * control-plane form. dynalite's store is stood in for by one whose reads and writes settle when the test says.
 */
import { describe, expect, it } from 'vitest';
import { installDynaliteFastPaths } from '../../localstack/dynalite-fast-paths.js';

type Callback = (err: unknown, value?: unknown) => void;

function fakeDynalite() {
  const stored = new Map<string, { TableStatus: string; v: number }>();
  const pendingReads: Array<() => void> = [];
  const pendingWrites: Array<() => void> = [];
  let reads = 0;
  const store = {
    lifecycleManager: { getState: () => 'open' },
    tableDb: {
      put(key: string, value: { TableStatus: string; v: number }, cb: Callback): void {
        pendingWrites.push(() => {
          stored.set(key, value);
          cb(null);
        });
      },
      del(key: string, cb: Callback): void {
        pendingWrites.push(() => {
          stored.delete(key);
          cb(null);
        });
      },
    },
    getTable(name: string, checkStatus: unknown, cb?: Callback): void {
      const done = (typeof checkStatus === 'function' ? checkStatus : cb) as Callback;
      reads++;
      // What the read sees is fixed when it starts (a LevelDB read may miss a write issued after it).
      const table = stored.get(name);
      pendingReads.push(() => {
        if (table === undefined) done(new Error('NotFoundError'));
        else done(null, structuredClone(table));
      });
    },
  };
  const db = { create: (_options: unknown) => store };
  const parser = { parse: (input: string) => input };
  installDynaliteFastPaths((id) => (id === './db' ? db : parser));
  const memoStore = db.create({});
  const get = (name: string): Promise<unknown> =>
    new Promise((resolve, reject) =>
      memoStore.getTable(name, (err: unknown, t?: unknown) => (err ? reject(err as Error) : resolve(t))),
    );
  const flush = (queue: Array<() => void>): void => {
    for (const f of queue.splice(0)) f();
  };
  return {
    stored,
    memoStore,
    get,
    reads: () => reads,
    settleReads: () => flush(pendingReads),
    settleWrites: () => flush(pendingWrites),
  };
}

describe('the table-description memory of the dynalite fast paths', () => {
  it('answers a second data-plane read of an ACTIVE table from memory', async () => {
    const d = fakeDynalite();
    d.stored.set('t', { TableStatus: 'ACTIVE', v: 1 });
    const first = d.get('t');
    d.settleReads();
    expect(await first).toEqual({ TableStatus: 'ACTIVE', v: 1 });
    expect(await d.get('t')).toEqual({ TableStatus: 'ACTIVE', v: 1 });
    expect(d.reads()).toBe(1);
  });

  it('never remembers a table that is CREATING, UPDATING or DELETING', async () => {
    const d = fakeDynalite();
    for (const status of ['CREATING', 'UPDATING', 'DELETING']) {
      d.stored.set('t', { TableStatus: status, v: 1 });
      const read = d.get('t');
      d.settleReads();
      await read;
      const again = d.get('t');
      d.settleReads();
      await again;
    }
    expect(d.reads()).toBe(6);
  });

  it('forgets on a write and reads the new description afterwards', async () => {
    const d = fakeDynalite();
    d.stored.set('t', { TableStatus: 'ACTIVE', v: 1 });
    const first = d.get('t');
    d.settleReads();
    await first;
    d.memoStore.tableDb.put('t', { TableStatus: 'ACTIVE', v: 2 }, () => undefined);
    d.settleWrites();
    const next = d.get('t');
    d.settleReads();
    expect(await next).toEqual({ TableStatus: 'ACTIVE', v: 2 });
  });

  it('does not remember a read that a write overtook', async () => {
    const d = fakeDynalite();
    d.stored.set('t', { TableStatus: 'ACTIVE', v: 1 });
    // A read starts, a write starts and settles, then the read returns the description from before the write.
    const overtaken = d.get('t');
    d.memoStore.tableDb.put('t', { TableStatus: 'ACTIVE', v: 2 }, () => undefined);
    d.settleWrites();
    d.settleReads();
    expect(await overtaken).toEqual({ TableStatus: 'ACTIVE', v: 1 });
    const next = d.get('t');
    d.settleReads();
    expect(await next).toEqual({ TableStatus: 'ACTIVE', v: 2 });
    expect(d.reads()).toBe(2);
  });

  it('does not remember a read that returned while a write was in flight', async () => {
    const d = fakeDynalite();
    d.stored.set('t', { TableStatus: 'ACTIVE', v: 1 });
    const first = d.get('t');
    d.memoStore.tableDb.del('t', () => undefined);
    d.settleReads();
    expect(await first).toEqual({ TableStatus: 'ACTIVE', v: 1 });
    // Started and returned while the delete is still in flight: read again each time, never from memory.
    for (let i = 0; i < 2; i++) {
      const whileDeleting = d.get('t');
      d.settleReads();
      await whileDeleting;
    }
    d.settleWrites();
    const after = d.get('t');
    d.settleReads();
    await expect(after).rejects.toThrow('NotFoundError');
    expect(d.reads()).toBe(4);
  });

  it('leaves the control-plane form (name, false, cb) to dynalite every time', async () => {
    const d = fakeDynalite();
    d.stored.set('t', { TableStatus: 'ACTIVE', v: 1 });
    const first = d.get('t');
    d.settleReads();
    await first;
    const control = new Promise((resolve) => d.memoStore.getTable('t', false, (_e, t) => resolve(t)));
    d.settleReads();
    await control;
    expect(d.reads()).toBe(2);
  });
});
