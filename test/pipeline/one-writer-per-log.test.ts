import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../core/ledger/write/append.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import type { LedgerStore, StoredEntry } from '../../core/ledger/store/store.js';
import { LedgerWriteError, ledgerWriter, type LedgerWriterOptions } from '../../core/pipeline/ledger-writer.js';
import { refusalDraft } from './entry-draft-fixture.js';

const draft = refusalDraft;

const SIGNER = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(7)));

function writer(store: LedgerStore, extra: Partial<LedgerWriterOptions> = {}) {
  return ledgerWriter({
    store,
    signer: SIGNER,
    logIds: ['log-a', 'log-b'],
    now: () => '2026-12-04T06:00:00Z',
    ...extra,
  });
}

/**
 * A store from which entries were deleted (as someone able to change the table policy could): reads no longer see
 * the deleted seqs, so the head moves back. The memory store itself never deletes.
 */
function withDeleted(store: MemoryLedgerStore, deleted: Set<string>): LedgerStore {
  const gone = (e: StoredEntry): boolean => deleted.has(`${e.logId}/${e.seq}`);
  return new Proxy(store, {
    get(target, prop, recv) {
      if (prop === 'readHead')
        return async (logId: string) => {
          const live = target.snapshot(logId).filter((e) => !gone(e));
          await Promise.resolve();
          return live.at(-1) ?? null;
        };
      if (prop === 'readEntries')
        return async function* (logId: string, from: number, to?: number) {
          for await (const e of target.readEntries(logId, from, to)) if (!gone(e)) yield e;
        };
      const v = Reflect.get(target, prop, recv) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as LedgerStore;
}

async function refusal(p: Promise<unknown>): Promise<LedgerWriteError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(LedgerWriteError);
  return e as LedgerWriteError;
}

/**
 * A writer that wrote e-0..e-2 to log-a, whose newest entry was then deleted from under it (as someone able to change
 * the table policy could), at the start of a new batch: its next head read of log-a regresses.
 */
async function regressedLogA() {
  const store = new MemoryLedgerStore();
  const deleted = new Set<string>();
  const w = writer(withDeleted(store, deleted));
  const a = w.forLog('log-a');
  for (const id of ['e-0', 'e-1', 'e-2']) await a.append(draft(id));
  deleted.add('log-a/2');
  w.forgetHeads(); // a new batch: the head is read once
  return { store, a };
}

/** The store, with `seen(method, args)` called before each call of one of its methods is passed on. */
function observed(store: MemoryLedgerStore, seen: (method: string, args: unknown[]) => void): LedgerStore {
  return new Proxy(store, {
    get(target, prop, recv) {
      const v = Reflect.get(target, prop, recv) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        seen(String(prop), args);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as LedgerStore;
}

describe('the writer bound to a message group writes only to that log', () => {
  it('appends every request of group log-b to log-b, whatever selectLog would pick', async () => {
    const store = new MemoryLedgerStore();
    const w = writer(store).forLog('log-b');
    for (const id of ['r-1', 'r-2', 'r-3', 'r-4']) expect((await w.append(draft(id))).status).toBe('appended');
    expect(store.snapshot('log-b').map((e) => e.projection.requestId)).toEqual(['r-1', 'r-2', 'r-3', 'r-4']);
    expect(store.snapshot('log-a')).toEqual([]);
  });

  it('refuses a group that is not a configured log as not-a-log-group and writes nothing', async () => {
    const store = new MemoryLedgerStore();
    const e = await refusal(writer(store).forLog('log-z').append(draft('stray')));
    expect(e.code).toBe('not-a-log-group');
    expect(e.logId).toBe('log-z');
    expect(await store.readClaim('stray')).toBeNull();
    expect(store.snapshot('log-z')).toEqual([]);
  });

  it('refuses a redelivery whose claim names another log as claim-in-other-log, naming that log, and writes nothing', async () => {
    const store = new MemoryLedgerStore();
    // The first delivery claimed log-a and died before its slot (as under a reconfiguration of the logs).
    await store.putClaimIfAbsent({ requestId: 'moved', logId: 'log-a', requestDigest: 'a'.repeat(64), headBefore: -1 });
    const e = await refusal(writer(store).forLog('log-b').append(draft('moved')));
    expect(e.code).toBe('claim-in-other-log');
    expect(e.logId).toBe('log-a');
    expect(store.snapshot('log-a')).toEqual([]);
    expect(store.snapshot('log-b')).toEqual([]);
    // From its claim's group it is written, once.
    expect((await writer(store).forLog('log-a').append(draft('moved'))).status).toBe('appended');
    expect(store.snapshot('log-a').map((e) => e.projection.requestId)).toEqual(['moved']);
  });

  it('answers a duplicate whose entry is already placed from any group, writing nothing new', async () => {
    const store = new MemoryLedgerStore();
    await writer(store).forLog('log-a').append(draft('done'));
    // Placed: the delivery stage wrote its position (core/pipeline/deliver-job.ts).
    await store.putPositionIfAbsent({ requestId: 'done', logId: 'log-a', seq: 0 });
    const again = await writer(store).forLog('log-b').append(draft('done'));
    expect(again.status).toBe('existing');
    expect(store.snapshot('log-b')).toEqual([]);
  });

  it('still refuses a request id reused with other bytes as a conflict', async () => {
    const store = new MemoryLedgerStore();
    const w = writer(store).forLog('log-a');
    await w.append(draft('dup', 'a'));
    expect(await w.append(draft('dup', 'b'))).toEqual({ status: 'conflict', existingRequestDigest: 'a'.repeat(64) });
  });
});

describe('a head that moves backwards is refused', () => {
  it('shares one head read of a log among the concurrent first sights of a batch', async () => {
    const store = new MemoryLedgerStore();
    let reads = 0;
    const counted = new Proxy(store, {
      get(target, prop, recv) {
        if (prop === 'readHead')
          return async (logId: string) => {
            reads += 1;
            await new Promise((r) => setTimeout(r, 5));
            return target.readHead(logId);
          };
        const v = Reflect.get(target, prop, recv) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    }) as LedgerStore;
    const w = writer(counted);
    w.forgetHeads();
    const a = w.forLog('log-a');
    const out = await Promise.all(['s-0', 's-1', 's-2', 's-3', 's-4'].map((id) => a.append(draft(id))));
    expect(out.map((o) => o.status)).toEqual(Array(5).fill('appended'));
    expect(reads).toBe(1);
    expect(store.snapshot('log-a').map((x) => x.seq)).toEqual([0, 1, 2, 3, 4]);
  });

  it('does not take a read sent before its own slot write landed for a regression', async () => {
    // A consistent read is served somewhere between its send and its answer: one sent before this writer's slot
    // write was acknowledged may not see it, and proves nothing. Only a seq acknowledged before the send counts.
    const store = new MemoryLedgerStore();
    let release: (() => void) | undefined;
    let held: Promise<StoredEntry | null> | undefined;
    const slow = new Proxy(store, {
      get(target, prop, recv) {
        if (prop === 'readHead')
          return (logId: string) => {
            if (held !== undefined) return target.readHead(logId);
            const snapshot = target.readHead(logId); // served now, answered later
            held = new Promise<StoredEntry | null>((res) => (release = () => void snapshot.then(res)));
            return held;
          };
        const v = Reflect.get(target, prop, recv) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    }) as LedgerStore;
    const w = writer(slow, { logIds: ['log-a', 'log-b'] });
    const a = w.forLog('log-a');
    await writer(store).forLog('log-a').append(draft('earlier')); // seq 0, by another writer
    w.forgetHeads();
    const first = a.append(draft('r-1')); // its head read is held: it saw seq 0 only
    await new Promise((r) => setTimeout(r, 1));
    const other = writer(store).forLog('log-a');
    await other.append(draft('x-1')); // seq 1 by a writer from an earlier batch
    release?.();
    expect((await first).status).toBe('appended');
    expect(store.snapshot('log-a').map((x) => x.projection.requestId)).toEqual(['earlier', 'x-1', 'r-1']);
  });

  it('refuses to append when the head read at a batch start is below a seq this writer created', async () => {
    const { store, a } = await regressedLogA();
    const e = await refusal(a.append(draft('e-3')));
    expect(e.code).toBe('head-regressed');
    expect(e.logId).toBe('log-a');
    expect(e.detail).toEqual({ headSeq: 1, writtenSeq: 2 });
    // Nothing was written into the hole, and the writer keeps refusing that log while the head stays below.
    expect(store.snapshot('log-a').map((x) => x.seq)).toEqual([0, 1, 2]);
    expect((await refusal(a.append(draft('e-4')))).code).toBe('head-regressed');
    expect(store.snapshot('log-a')).toHaveLength(3);
  });

  it('refuses a log emptied from under it (head read as none after it wrote seq 0)', async () => {
    const store = new MemoryLedgerStore();
    const deleted = new Set<string>();
    const w = writer(withDeleted(store, deleted));
    await w.forLog('log-b').append(draft('only'));
    deleted.add('log-b/0');
    w.forgetHeads();
    const e = await refusal(w.forLog('log-b').append(draft('next')));
    expect(e.code).toBe('head-regressed');
    expect(e.detail).toEqual({ headSeq: -1, writtenSeq: 0 });
  });

  it('keeps writing the other logs while one is refused', async () => {
    const store = new MemoryLedgerStore();
    const deleted = new Set<string>();
    const w = writer(withDeleted(store, deleted));
    await w.forLog('log-a').append(draft('a-0'));
    await w.forLog('log-b').append(draft('b-0'));
    deleted.add('log-a/0');
    w.forgetHeads();
    expect((await refusal(w.forLog('log-a').append(draft('a-1')))).code).toBe('head-regressed');
    expect((await w.forLog('log-b').append(draft('b-1'))).status).toBe('appended');
  });

  it('does not refuse a writer that never wrote the log (a cold start cannot know; verify catches that deletion)', async () => {
    const store = new MemoryLedgerStore();
    const deleted = new Set<string>();
    await writer(store).forLog('log-a').append(draft('x-0'));
    await writer(store).forLog('log-a').append(draft('x-1'));
    deleted.add('log-a/1');
    const fresh = writer(withDeleted(store, deleted), { backoff: async () => undefined });
    // It reads head 0 and tries slot 1, which still exists underneath: it loses the slot, never overwrites it.
    const out = await fresh
      .forLog('log-a')
      .append(draft('x-2'))
      .then(
        (r) => r.status,
        (e: LedgerWriteError) => e.code,
      );
    expect(out).toBe('append-contention');
    expect(store.snapshot('log-a').map((e) => e.projection.requestId)).toEqual(['x-0', 'x-1']);
  });
});

describe('losing a slot is cheap', () => {
  it('backs off outside the group commit between lost slots, with the attempt number, and then appends', async () => {
    const store = new MemoryLedgerStore();
    const waits: number[] = [];
    const rival = writer(store).forLog('log-a');
    const w = writer(store, {
      backoff: async (attempt) => {
        waits.push(attempt);
      },
    }).forLog('log-a');
    await w.append(draft('mine-0')); // warm head cache at seq 0
    await rival.append(draft('theirs-1')); // another writer takes slot 1 behind its back
    await rival.append(draft('theirs-2'));
    const out = await w.append(draft('mine-3'));
    expect(out.status).toBe('appended');
    expect(waits).toEqual([1]); // one lost slot, one backoff, then a fresh head read
    expect(store.snapshot('log-a').map((e) => e.projection.requestId)).toEqual([
      'mine-0',
      'theirs-1',
      'theirs-2',
      'mine-3',
    ]);
  });

  it('gives up after its attempt budget with a typed append-contention, the record to be redelivered', async () => {
    const store = new MemoryLedgerStore();
    let waits = 0;
    // A store whose slot writes always lose: the writer must not spin forever.
    const losing = new Proxy(store, {
      get(target, prop, recv) {
        if (prop === 'putEntryIfAbsent') return async () => false;
        const v = Reflect.get(target, prop, recv) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    }) as LedgerStore;
    const w = writer(losing, { backoff: async () => void waits++ }).forLog('log-a');
    const e = await refusal(w.append(draft('stuck')));
    expect(e.code).toBe('append-contention');
    expect(waits).toBe(11); // twelve tries with a backoff, a wait before each but the first
  });

  it('draws full-jitter delays that double per attempt up to the cap', () => {
    expect(backoffDelayMs(1, 0.5)).toBe(10);
    expect(backoffDelayMs(2, 0.5)).toBe(20);
    expect(backoffDelayMs(3, 0.999)).toBe(79);
    expect(backoffDelayMs(20, 0.5)).toBe(500);
    expect(backoffDelayMs(1, 0)).toBe(0);
    expect(backoffDelayMs(4, Number.NaN)).toBe(0);
  });
});

describe('the writer under group commit (ADR 0350)', () => {
  it('claims while the request archive put is in flight and writes no slot before it has succeeded', async () => {
    const store = new MemoryLedgerStore();
    let retain!: () => void;
    const retained = new Promise<void>((r) => (retain = r));
    const out = writer(store).forLog('log-a').append(draft('held'), { retained });
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
    expect(store.markers().claims.map((c) => c.requestId)).toEqual(['held']);
    expect(store.snapshot('log-a')).toEqual([]);
    retain();
    expect((await out).status).toBe('appended');
    expect(store.snapshot('log-a').map((e) => e.projection.requestId)).toEqual(['held']);
  });

  it('fails the append and writes no entry when the request archive put fails', async () => {
    const store = new MemoryLedgerStore();
    const retained = Promise.reject(new Error('archive throttled'));
    await expect(writer(store).forLog('log-a').append(draft('lost'), { retained })).rejects.toThrow(
      'archive throttled',
    );
    expect(store.snapshot('log-a')).toEqual([]);
  });

  it('writes the slots of a batch of one log in one group once all of them have claimed', async () => {
    const store = new MemoryLedgerStore();
    const sizes: number[] = [];
    const counted = observed(store, (method, args) => {
      if (method === 'putEntryIfAbsent') sizes.push(1);
      if (method === 'putEntriesIfAbsent') sizes.push((args[0] as unknown[]).length);
    });
    const w = writer(counted).forLog('log-b');
    const ids = Array.from({ length: 10 }, (_, i) => `batch-${i}`);
    for (const r of await Promise.all(ids.map((id) => w.append(draft(id))))) expect(r.status).toBe('appended');
    expect(sizes).toEqual([10]);
    expect(store.snapshot('log-b').map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('a claim started before the evaluation (ADR 0402)', () => {
  const ticks = async (n = 20) => {
    for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
  };

  it('creates the claim from the id and digest alone, and the append writes the entry under it without claiming again', async () => {
    const store = new MemoryLedgerStore();
    let claimCalls = 0;
    const counted = observed(store, (method) => {
      if (method === 'putClaimIfAbsent') claimCalls += 1;
    });
    const w = writer(counted).forLog('log-a');
    const d = draft('early');
    const ticket = w.reserve!(d.requestId, d.requestDigest);
    await ticks();
    expect(store.markers().claims).toEqual([
      { requestId: 'early', logId: 'log-a', requestDigest: d.requestDigest, headBefore: -1 },
    ]);
    expect(store.snapshot('log-a')).toEqual([]);
    expect((await w.append(d, { ticket })).status).toBe('appended');
    ticket.release(); // after the append: harmless
    expect(claimCalls).toBe(1);
    expect(store.snapshot('log-a').map((e) => e.projection.requestId)).toEqual(['early']);
  });

  it('holds its log’s group commit for a reserved request until it appends, then writes both in one group', async () => {
    const store = new MemoryLedgerStore();
    let groups = 0;
    const counted = observed(store, (method) => {
      if (method === 'putEntryIfAbsent' || method === 'putEntriesIfAbsent') groups += 1;
    });
    const w = writer(counted).forLog('log-a');
    const slow = draft('slow');
    const ticket = w.reserve!(slow.requestId, slow.requestDigest);
    const fast = w.append(draft('fast'));
    await ticks();
    expect(store.snapshot('log-a')).toEqual([]); // the fast one waits for the one still being decided
    const late = w.append(slow, { ticket });
    expect((await fast).status).toBe('appended');
    expect((await late).status).toBe('appended');
    expect(groups).toBe(1);
    expect(store.snapshot('log-a').map((e) => e.projection.requestId)).toEqual(['fast', 'slow']);
  });

  it('lets the log’s other appends go once a reserved request that will not append is released, and its redelivery appends once', async () => {
    const store = new MemoryLedgerStore();
    const w = writer(store).forLog('log-a');
    const failed = draft('failed');
    const ticket = w.reserve!(failed.requestId, failed.requestDigest);
    const other = w.append(draft('other'));
    await ticks();
    expect(store.snapshot('log-a')).toEqual([]);
    ticket.release(); // its evaluation threw: the record fails and will be redelivered
    ticket.release(); // idempotent
    expect((await other).status).toBe('appended');
    // The redelivery finds the claim it left (not a first sight) and appends exactly once.
    const again = w.reserve!(failed.requestId, failed.requestDigest);
    expect((await w.append(failed, { ticket: again })).status).toBe('appended');
    expect((await w.append(failed)).status).toBe('existing');
    expect(store.snapshot('log-a').map((e) => e.projection.requestId)).toEqual(['other', 'failed']);
  });

  it('refuses a ticket issued by another writer, for another log or for other bytes, and writes nothing', async () => {
    const store = new MemoryLedgerStore();
    const mine = writer(store);
    const theirs = writer(store);
    const d = draft('mine');
    const cases = [
      theirs.forLog('log-a').reserve!(d.requestId, d.requestDigest),
      mine.forLog('log-b').reserve!(d.requestId, d.requestDigest),
      mine.forLog('log-a').reserve!(d.requestId, 'b'.repeat(64)),
      mine.forLog('log-a').reserve!('someone-else', d.requestDigest),
    ];
    for (const ticket of cases) {
      await expect(mine.forLog('log-a').append(d, { ticket })).rejects.toThrow(RangeError);
      ticket.release();
    }
    expect(store.snapshot('log-a')).toEqual([]);
    expect(store.snapshot('log-b')).toEqual([]);
  });

  it('answers a reserved claim whose head read regressed as head-regressed, writing nothing', async () => {
    const { store, a } = await regressedLogA();
    const d = draft('e-3');
    const ticket = a.reserve!(d.requestId, d.requestDigest);
    await ticks(); // the rejected claim is handled while nobody awaits it yet
    const e = await refusal(a.append(d, { ticket }));
    expect(e.code).toBe('head-regressed');
    expect(e.detail).toEqual({ headSeq: 1, writtenSeq: 2 });
    expect(store.snapshot('log-a').map((x) => x.seq)).toEqual([0, 1, 2]);
    expect(await store.readClaim('e-3')).toBeNull();
  });

  it('starts nothing for a group that is not a configured log; its append is refused as before', async () => {
    const store = new MemoryLedgerStore();
    const w = writer(store).forLog('log-z');
    const d = draft('stray');
    const ticket = w.reserve!(d.requestId, d.requestDigest);
    await ticks();
    expect(await store.readClaim('stray')).toBeNull();
    expect((await refusal(w.append(d, { ticket }))).code).toBe('not-a-log-group');
  });
});
