import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendOnce, slotCommits, type AppendRequest } from '../../core/ledger/write/append.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { buildEntry, entryHashOf, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { selectLog } from '../../core/ledger/write/log-selection.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import type { LedgerStore, StoredEntry } from '../../core/ledger/store/store.js';
import { dispositionEntry, SIGNER } from './fixtures.js';

/** Seeded PRNG (SHA-256 counter) so every interleaving is reproducible. */
function rng(label: string): () => number {
  let i = 0;
  return () => createHash('sha256').update(`${label}:${i++}`).digest().readUInt32BE(0) / 2 ** 32;
}

function shuffledStore(label: string): MemoryLedgerStore {
  const r = rng(label);
  return new MemoryLedgerStore({
    interleave: async () => {
      const x = r();
      if (x < 0.25) await new Promise<void>((res) => setImmediate(res));
      else if (x < 0.6) for (let i = 0; i < Math.floor(x * 10); i++) await Promise.resolve();
    },
  });
}

let crashes = 0;
class Crash extends Error {
  constructor(message: string) {
    super(message);
    crashes += 1;
  }
}

/**
 * A view of the store for one delivery that "crashes" at operation number `at`: before the operation runs
 * (`when: 'before'`) or after it took effect but before its answer reached the caller (`when: 'after'`).
 */
function crashingView(store: LedgerStore, at: number, when: 'before' | 'after'): LedgerStore {
  let ops = 0;
  const gate = async <T>(run: () => Promise<T>): Promise<T> => {
    const n = ops++;
    if (n === at && when === 'before') throw new Crash(`crash before op ${n}`);
    const v = await run();
    if (n === at && when === 'after') throw new Crash(`crash after op ${n}`);
    return v;
  };
  return {
    readHead: (l) => gate(() => store.readHead(l)),
    readEntries: (l, f, t) => {
      const n = ops++;
      if (n === at) throw new Crash(`crash at scan ${n}`);
      return store.readEntries(l, f, t);
    },
    putEntryIfAbsent: (e) => gate(() => store.putEntryIfAbsent(e)),
    putEntriesIfAbsent: (es) => gate(() => store.putEntriesIfAbsent(es)),
    readClaim: (r) => gate(() => store.readClaim(r)),
    putClaimIfAbsent: (c) => gate(() => store.putClaimIfAbsent(c)),
    readPosition: (r) => gate(() => store.readPosition(r)),
    putPositionIfAbsent: (p) => gate(() => store.putPositionIfAbsent(p)),
    putMarkerIfAbsent: (m) => gate(() => store.putMarkerIfAbsent(m)),
    readMarkers: (l, f, t) => {
      const n = ops++;
      if (n === at) throw new Crash(`crash at marker read ${n}`);
      return store.readMarkers(l, f, t);
    },
    putCheckpointIfAbsent: (c) => gate(() => store.putCheckpointIfAbsent(c)),
    readCheckpoints: (l) => store.readCheckpoints(l),
    listLogs: () => gate(() => store.listLogs()),
  };
}

const LOGS = ['log-0', 'log-1', 'log-2'];

function request(requestId: string, bytes = `request ${requestId}`): AppendRequest {
  const requestDigest = sha256Hex(bytes);
  return {
    requestId,
    requestDigest,
    // The writer of the request's FIFO group (core/pipeline/sequencing.ts), one group commit per delivery.
    logId: selectLog(requestId, LOGS),
    slotCommits: slotCommits(),
    build: ({ logId, seq, prevHash }) =>
      buildEntry(dispositionEntry({ logId, seq, prevHash, requestId, requestDigest }), SIGNER),
  };
}

/**
 * Delivers until a delivery completes (SQS redelivers after a crash): first one delivery per planned crash, then
 * deliveries until one completes; returns its answer. `append` runs one delivery through the store view it is given.
 */
async function deliverUntilDone<T>(
  store: LedgerStore,
  crashes: readonly { at: number; when: 'before' | 'after' }[],
  append: (via: LedgerStore) => Promise<T>,
): Promise<T> {
  for (const c of crashes) {
    // A delivery that finishes in fewer operations than the crash point simply completes.
    try {
      return await append(crashingView(store, c.at, c.when));
    } catch (e) {
      if (!(e instanceof Crash)) throw e;
    }
  }
  for (;;) {
    try {
      return await append(store);
    } catch (e) {
      if (!(e instanceof Crash)) throw e;
    }
  }
}

/** Appends `req` once per delivery. */
const appendDelivery =
  (req: AppendRequest) =>
  (via: LedgerStore): ReturnType<typeof appendOnce> =>
    appendOnce(via, req);

/** Half the time one crash at a random operation, as the chaos tests plan a request's first delivery. */
const randomCrash = (r: () => number): { at: number; when: 'before' | 'after' }[] =>
  r() < 0.5 ? [{ at: Math.floor(r() * 8), when: r() < 0.5 ? 'before' : 'after' }] : [];

/** Asserts the ledger's shape: every log dense from 0, chained, parseable; each request exactly once; positions right. */
async function assertLedger(store: MemoryLedgerStore, requestIds: readonly string[]): Promise<void> {
  const seen = new Map<string, { logId: string; seq: number }>();
  for (const logId of await store.listLogs()) {
    const entries = store.snapshot(logId);
    entries.forEach((e, i) => {
      expect(e.seq).toBe(i);
      const parsed = parseStoredEntry(e.body);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      expect(parsed.value.entry.logId).toBe(logId);
      expect(parsed.value.entry.seq).toBe(i);
      expect(parsed.value.entry.prevHash).toBe(i === 0 ? null : entryHashOf((entries[i - 1] as { body: string }).body));
      expect(e.projection).toEqual({
        requestId: parsed.value.entry.requestId,
        kind: parsed.value.entry.kind,
        entryHash: parsed.value.entryHash,
      });
      expect(seen.has(e.projection.requestId)).toBe(false);
      seen.set(e.projection.requestId, { logId, seq: i });
    });
  }
  expect([...seen.keys()].sort()).toEqual([...requestIds].sort());
  const { positions, claims } = store.markers();
  for (const p of positions) expect(seen.get(p.requestId)).toEqual({ logId: p.logId, seq: p.seq });
  for (const c of claims) expect(seen.get(c.requestId)?.logId).toBe(c.logId);
}

describe('the append protocol', () => {
  it('appends the first entry of a log at seq 0 with a null previous hash, then chains the next', async () => {
    const store = new MemoryLedgerStore();
    const a = await appendOnce(store, { ...request('a'), logId: 'only' });
    const b = await appendOnce(store, { ...request('b'), logId: 'only' });
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect([a.value.status, a.value.entry.seq, b.value.entry.seq]).toEqual(['appended', 0, 1]);
    const parsed = parseStoredEntry(b.value.entry.body);
    expect(parsed.ok && parsed.value.entry.prevHash).toBe(entryHashOf(a.value.entry.body));
  });

  it('returns the same entry as a duplicate for a second delivery of the same request', async () => {
    const store = new MemoryLedgerStore();
    const first = await appendOnce(store, request('r'));
    const second = await appendOnce(store, request('r'));
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.value.status).toBe('duplicate');
    expect(second.value.entry).toEqual(first.value.entry);
    await assertLedger(store, ['r']);
  });

  it('finds a delivered duplicate from the batch marker above its claim, without scanning the log or writing a position', async () => {
    const store = new MemoryLedgerStore();
    const on = (id: string): AppendRequest => ({ ...request(id), logId: 'only' });
    for (const id of ['pre', 'm', 'post-1', 'post-2']) expect((await appendOnce(store, on(id))).ok).toBe(true);
    // The delivery stage marked m (seq 1, claimed above head 0) with the entries of its job (ADR 0498).
    await store.putMarkerIfAbsent({
      logId: 'only',
      positions: [
        { seq: 1, requestId: 'm' },
        { seq: 2, requestId: 'post-1' },
      ],
    });
    const reads: string[] = [];
    const view: LedgerStore = Object.assign(Object.create(store) as LedgerStore, {
      readEntries: (l: string, f: number, t?: number) => (reads.push(`${f}..${t}`), store.readEntries(l, f, t)),
    });
    const again = await appendOnce(view, on('m'));
    expect(again.ok && again.value.status).toBe('duplicate');
    expect(again.ok && again.value.entry.seq).toBe(1);
    // Only the read of the entry the marker names; the scan of (headBefore, head] would read 1..3.
    expect(reads).toEqual(['1..1']);
    expect(await store.readPosition('m')).toBeNull();
  });

  it('refuses a request id reused with other bytes as a typed request-id-conflict and writes nothing', async () => {
    const store = new MemoryLedgerStore();
    await appendOnce(store, request('r'));
    const other = await appendOnce(store, request('r', 'different bytes'));
    expect(other.ok).toBe(false);
    if (!other.ok) {
      expect(other.error.code).toBe('request-id-conflict');
      if (other.error.code === 'request-id-conflict')
        expect(other.error.claim.requestDigest).toBe(sha256Hex('request r'));
    }
    await assertLedger(store, ['r']);
  });

  it('refuses the conflicting request even when it races the original before any entry exists', async () => {
    const store = shuffledStore('conflict-race');
    const results = await Promise.all([appendOnce(store, request('r')), appendOnce(store, request('r', 'other'))]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.error.code === 'request-id-conflict')).toHaveLength(1);
    expect((await store.listLogs()).flatMap((l) => store.snapshot(l))).toHaveLength(1);
  });

  it("refuses a redelivery to another log's writer as a claim-in-other-log naming the claim's log, writing nothing", async () => {
    const store = new MemoryLedgerStore();
    const first = await appendOnce(store, { ...request('moving'), logId: 'x-log' });
    const again = await appendOnce(store, { ...request('moving'), logId: 'y-log' });
    expect(first.ok && first.value.entry.logId).toBe('x-log');
    expect(!again.ok && again.error.code === 'claim-in-other-log' && again.error.claim.logId).toBe('x-log');
    expect(await store.listLogs()).toEqual(['x-log']);
  });

  it('keeps one entry per request, no fork and no gap under 200 concurrent deliveries of 60 requests', async () => {
    const store = shuffledStore('concurrency');
    const ids = Array.from({ length: 60 }, (_, i) => `req-${i}`);
    const deliveries = [...ids, ...ids, ...ids.slice(0, 40), ...ids.slice(20, 60)];
    const results = await Promise.all(deliveries.map((id) => appendOnce(store, request(id))));
    const byId = new Map<string, string>();
    for (const [i, r] of results.entries()) {
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const key = `${r.value.entry.logId}#${r.value.entry.seq}`;
      const id = deliveries[i] as string;
      if (byId.has(id)) expect(byId.get(id)).toBe(key);
      byId.set(id, key);
    }
    expect(results.filter((r) => r.ok && r.value.status === 'appended')).toHaveLength(60);
    await assertLedger(store, ids);
  });

  it('survives a crash before or after every store operation of a delivery, with a concurrent duplicate in flight', async () => {
    const before = crashes;
    for (let at = 0; at < 9; at++) {
      for (const when of ['before', 'after'] as const) {
        const store = shuffledStore(`crash-${at}-${when}`);
        await appendOnce(store, request('warm-up')); // so the scans cover a non-empty log
        const [x, y] = await Promise.all([
          deliverUntilDone(store, [{ at, when }], appendDelivery(request('victim'))),
          deliverUntilDone(store, [], appendDelivery(request('victim'))),
        ]);
        expect(x.ok && y.ok).toBe(true);
        if (x.ok && y.ok) expect(x.value.entry).toEqual(y.value.entry);
        await assertLedger(store, ['warm-up', 'victim']);
      }
    }
    // The crash points were really reached: at least a first sight's three operations, before and after each.
    expect(crashes - before).toBeGreaterThanOrEqual(6);
  });

  it('keeps the ledger exact under many requests with random crashes, redeliveries and concurrency', async () => {
    const store = shuffledStore('chaos');
    const r = rng('chaos-plan');
    const ids = Array.from({ length: 80 }, (_, i) => `chaos-${i}`);
    const outcomes = await Promise.all(
      ids.flatMap((id) => {
        const copies = 1 + Math.floor(r() * 3);
        return Array.from({ length: copies }, () => {
          const crashes =
            r() < 0.5
              ? [{ at: Math.floor(r() * 10), when: (r() < 0.5 ? 'before' : 'after') as 'before' | 'after' }]
              : [];
          return deliverUntilDone(store, crashes, appendDelivery(request(id))).then((o) => [id, o] as const);
        });
      }),
    );
    const placedAt = new Map<string, string>();
    for (const [id, o] of outcomes) {
      expect(o.ok).toBe(true);
      if (!o.ok) continue;
      const key = `${o.value.entry.logId}#${o.value.entry.seq}`;
      if (placedAt.has(id)) expect(placedAt.get(id)).toBe(key);
      placedAt.set(id, key);
    }
    await assertLedger(store, ids);
    expect((await store.listLogs()).length).toBe(3);
  });
});

describe('log selection', () => {
  it('is a pure function of the request id over the configured log ids, independent of their order', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `request-${i}`);
    for (const id of ids) expect(selectLog(id, ['c', 'a', 'b'])).toBe(selectLog(id, ['a', 'b', 'c']));
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(selectLog(id, LOGS), (counts.get(selectLog(id, LOGS)) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(LOGS);
    for (const n of counts.values()) expect(n).toBeGreaterThan(60);
  });

  it('takes the first 8 bytes of SHA-256(request id), big-endian, modulo the number of logs', () => {
    const id = 'abc';
    const index = createHash('sha256').update(id).digest().readBigUInt64BE(0) % 3n;
    expect(selectLog(id, ['l0', 'l1', 'l2'])).toBe(['l0', 'l1', 'l2'][Number(index)]);
  });

  it('refuses an empty configuration and invalid log ids', () => {
    expect(() => selectLog('x', [])).toThrow(RangeError);
    expect(() => selectLog('x', ['a/b'])).toThrow(RangeError);
  });
});

describe('the append protocol with writer head caches and writer-chosen logs', () => {
  function writer(logId: string) {
    const headCache = new Map();
    const commits = slotCommits();
    return (id: string, bytes?: string) =>
      appendOnce(storeRef.current!, { ...request(id, bytes), logId, headCache, slotCommits: commits });
  }
  const storeRef: { current: MemoryLedgerStore | null } = { current: null };

  it("keeps one entry per request when duplicates reach other logs' writers and are forwarded to the claim's log", async () => {
    const store = (storeRef.current = shuffledStore('writers'));
    const writers = ['log-0', 'log-1', 'log-2', 'log-0', 'log-1', 'log-2', 'log-0', 'log-1'].map(writer);
    const ids = Array.from({ length: 50 }, (_, i) => `w-${i}`);
    const r = rng('writers-plan');
    const deliver = async (id: string, w: number): ReturnType<typeof appendOnce> => {
      const res = await writers[w]!(id);
      // The edge forwards a claim-in-other-log to the claim's log group, whose writer appends it (ADR 0270).
      if (!res.ok && res.error.code === 'claim-in-other-log') return deliver(id, LOGS.indexOf(res.error.claim.logId));
      return res;
    };
    const deliveries = [...ids, ...ids, ...ids.slice(10, 30)].map((id) =>
      deliver(id, Math.floor(r() * writers.length)),
    );
    const results = await Promise.all(deliveries);
    for (const res of results) expect(res.ok).toBe(true);
    expect(results.filter((x) => x.ok && x.value.status === 'appended')).toHaveLength(50);
    await assertLedger(store, ids);
  });

  it('recovers from a stale head cache by losing the slot once and appending after the true head', async () => {
    const store = (storeRef.current = shuffledStore('stale'));
    const slow = writer('log-0');
    const fast = writer('log-0');
    await slow('s-0'); // slow caches head 0
    await fast('f-0');
    await fast('f-1'); // the true head is now 2
    const late = await slow('s-1');
    expect(late.ok && late.value.entry.seq).toBe(3);
    await assertLedger(store, ['s-0', 'f-0', 'f-1', 's-1']);
  });

  it('appends a first sight with a warm cache in exactly two conditional creates and no reads', async () => {
    const store = (storeRef.current = shuffledStore('fast-path'));
    const w = writer('log-1');
    await w('warm');
    const calls: string[] = [];
    const counting = new Proxy(store, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv);
        return typeof v === 'function' ? (...args: unknown[]) => (calls.push(String(prop)), v.apply(target, args)) : v;
      },
    });
    const headCache = new Map();
    headCache.set('log-1', store.snapshot('log-1').at(-1));
    const out = await appendOnce(counting, { ...request('next'), logId: 'log-1', headCache });
    expect(out.ok && out.value.status).toBe('appended');
    expect(calls).toEqual(['putClaimIfAbsent', 'putEntryIfAbsent']);
  });

  it('keeps the ledger exact under crashes and redeliveries when every writer caches heads', async () => {
    const store = shuffledStore('cached-chaos');
    const r = rng('cached-chaos-plan');
    const caches = LOGS.map(() => new Map());
    const commits = LOGS.map(() => slotCommits());
    const ids = Array.from({ length: 60 }, (_, i) => `cc-${i}`);
    const outcomes = await Promise.all(
      ids.flatMap((id) =>
        Array.from({ length: 1 + Math.floor(r() * 3) }, () => {
          const w = LOGS.indexOf(selectLog(id, LOGS));
          const req = { ...request(id), headCache: caches[w], slotCommits: commits[w]! };
          const crashes =
            r() < 0.5
              ? [{ at: Math.floor(r() * 8), when: (r() < 0.5 ? 'before' : 'after') as 'before' | 'after' }]
              : [];
          return deliverUntilDone(store, crashes, appendDelivery(req));
        }),
      ),
    );
    for (const o of outcomes) expect(o.ok).toBe(true);
    await assertLedger(store, ids);
  });
});

describe('the append protocol with one slot write at a time and a memory of its own slots (ADR 0160)', () => {
  /** A group commit whose byte limit lets every group hold only its first member: one slot per write. */
  const oneSlotAtATime = () => slotCommits(1);
  /** One writer instance: its group commit (one slot per write here), a head cache and its own slots. */
  function instance(store: LedgerStore, logId: string) {
    const commits = oneSlotAtATime();
    const headCache = new Map();
    const ownSlots = new Map();
    const append = (id: string, via: LedgerStore = store, bytes?: string) =>
      appendOnce(via, { ...request(id, bytes), logId, headCache, ownSlots, slotCommits: commits });
    return { append };
  }

  function recording(store: LedgerStore, calls: string[]): LedgerStore {
    return new Proxy(store, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv);
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          calls.push(String(prop));
          return v.apply(target, args);
        };
      },
    });
  }

  it('sends the claim before the slot write and leaves the position to the delivery stage: two conditional writes on a warm head', async () => {
    const store = shuffledStore('lock-scope');
    const w = instance(store, 'log-0');
    await w.append('warm');
    const calls: string[] = [];
    const out = await w.append('next', recording(store, calls));
    expect(out.ok && out.value.status).toBe('appended');
    expect(calls).toEqual(['putClaimIfAbsent', 'putEntryIfAbsent']);
    expect(store.markers().positions).toEqual([]);
  });

  it('answers the scan above a claim from its own slots, without a read, when concurrent appends of one writer share a log', async () => {
    const store = shuffledStore('own-slots');
    const w = instance(store, 'log-1');
    await w.append('warm');
    const calls: string[] = [];
    const view = recording(store, calls);
    const outs = await Promise.all(Array.from({ length: 8 }, (_, i) => w.append(`c-${i}`, view)));
    for (const o of outs) expect(o.ok && o.value.status).toBe('appended');
    expect(calls.filter((c) => c === 'readEntries' || c === 'readHead')).toEqual([]);
    expect(calls.filter((c) => c === 'putEntryIfAbsent')).toHaveLength(8);
    await assertLedger(store, ['warm', ...Array.from({ length: 8 }, (_, i) => `c-${i}`)]);
  });

  it('reads the slots above a claim when it has no memory of them (the control for the test above)', async () => {
    const store = shuffledStore('no-own-slots');
    const headCache = new Map();
    const commits = oneSlotAtATime();
    await appendOnce(store, { ...request('warm'), logId: 'log-1', headCache, slotCommits: commits });
    const calls: string[] = [];
    const view = recording(store, calls);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        appendOnce(view, { ...request(`c-${i}`), logId: 'log-1', headCache, slotCommits: commits }),
      ),
    );
    expect(calls.filter((c) => c === 'readEntries').length).toBeGreaterThan(0);
  });

  it('never assumes away an own slot holding the same request: a duplicate in the same writer finds its entry', async () => {
    const store = shuffledStore('own-duplicate');
    const w = instance(store, 'log-2');
    await w.append('warm');
    // The first delivery writes its entry and no position (the delivery stage writes it later): the second delivery
    // finds no position and must find the entry above the claim, although that slot is one this writer wrote itself.
    const one = await w.append('twice');
    const second = await w.append('twice');
    expect(one.ok && one.value.status).toBe('appended');
    expect(second.ok && second.value.status).toBe('duplicate');
    expect(second.ok && second.value.entry.seq).toBe(one.ok && one.value.entry.seq);
    await assertLedger(store, ['warm', 'twice']);
  });

  it('keeps the ledger exact under crashes, redeliveries and several serialized writers sharing logs', async () => {
    const store = shuffledStore('locked-chaos');
    const r = rng('locked-chaos-plan');
    const writers = [0, 1, 2, 3, 4, 5].map((i) => instance(store, LOGS[i % LOGS.length] as string));
    const ids = Array.from({ length: 60 }, (_, i) => `lc-${i}`);
    const outcomes = await Promise.all(
      ids.flatMap((id) =>
        Array.from({ length: 1 + Math.floor(r() * 3) }, async () => {
          // Either of the two writers of the request's log (its FIFO group).
          const w = writers[LOGS.indexOf(selectLog(id, LOGS)) + LOGS.length * Math.floor(r() * 2)]!;
          return deliverUntilDone(store, randomCrash(r), (via) => w.append(id, via));
        }),
      ),
    );
    for (const o of outcomes) expect(o.ok).toBe(true);
    await assertLedger(store, ids);
  });
});

describe('the append protocol with group commit of slot writes (ADR 0350)', () => {
  /** One writer as the pipeline runs it under group commit: its head cache, own slots, written seqs and groups. */
  function groupWriter(store: LedgerStore, logId: string, maxBytes?: number) {
    const headCache = new Map();
    const ownSlots = new Map();
    const writtenSeqs = new Map();
    const commits = slotCommits(maxBytes);
    const append = (id: string, via: LedgerStore = store, bytes?: string) =>
      appendOnce(via, {
        ...request(id, bytes),
        logId,
        headCache,
        ownSlots,
        writtenSeqs,
        slotCommits: commits,
      });
    return { append, writtenSeqs };
  }

  /** Counts each store call by name; `groups` collects the sizes of the slot writes. */
  function counting(store: LedgerStore, calls: Map<string, number>, groups: number[] = []): LedgerStore {
    return new Proxy(store, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv);
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
          if (prop === 'putEntryIfAbsent') groups.push(1);
          if (prop === 'putEntriesIfAbsent') groups.push((args[0] as unknown[]).length);
          return v.apply(target, args);
        };
      },
    });
  }

  it('writes the slots of ten concurrent appends to one log in a few all-or-nothing groups, contiguous and chained', async () => {
    const store = new MemoryLedgerStore();
    const calls = new Map<string, number>();
    const groups: number[] = [];
    const w = groupWriter(counting(store, calls, groups), 'log-0');
    const ids = Array.from({ length: 10 }, (_, i) => `g-${i}`);
    const outs = await Promise.all(ids.map((id) => w.append(id)));
    for (const o of outs) expect(o.ok && o.value.status).toBe('appended');
    expect(groups.reduce((a, b) => a + b, 0)).toBe(10);
    expect(groups.length).toBeLessThanOrEqual(3);
    expect(groups.some((g) => g > 1)).toBe(true);
    expect(calls.get('readEntries') ?? 0).toBe(0);
    expect(w.writtenSeqs.get('log-0')).toBe(9);
    await assertLedger(store, ids);
  });

  it('writes nothing of a group when one of its slots is already taken, and every member then appends above it', async () => {
    const store = new MemoryLedgerStore();
    const w = groupWriter(store, 'log-0');
    await w.append('warm');
    // Another writer (a stale duplicate after a visibility timeout, or an attacker) takes slot 3 behind our back.
    const other = groupWriter(store, 'log-0');
    const intruders = ['i-1', 'i-2', 'i-3'];
    for (const id of intruders) expect((await other.append(id)).ok).toBe(true);
    const attempts: number[][] = [];
    const watching = new Proxy(store, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv);
        if (prop !== 'putEntriesIfAbsent') return typeof v === 'function' ? v.bind(target) : v;
        return async (es: { seq: number }[]) => {
          const before = store.snapshot('log-0').length;
          const created = await store.putEntriesIfAbsent(es as never);
          attempts.push(es.map((e) => e.seq));
          if (!created) expect(store.snapshot('log-0').length).toBe(before);
          return created;
        };
      },
    }) as LedgerStore;
    const ids = Array.from({ length: 6 }, (_, i) => `late-${i}`);
    const outs = await Promise.all(ids.map((id) => w.append(id, watching)));
    for (const o of outs) expect(o.ok && o.value.status).toBe('appended');
    expect(attempts.some((seqs) => seqs.includes(1))).toBe(true);
    await assertLedger(store, ['warm', ...intruders, ...ids]);
  });

  it('answers a group whose put landed but was reported lost (a retried PutItem) as duplicates, one entry each', async () => {
    const store = new MemoryLedgerStore();
    const w = groupWriter(store, 'log-0');
    await w.append('warm');
    const lostGroup: string[] = [];
    const landedButLost = new Proxy(store, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv);
        if (prop !== 'putEntriesIfAbsent') return typeof v === 'function' ? v.bind(target) : v;
        return async (es: StoredEntry[]) => {
          const created = await store.putEntriesIfAbsent(es);
          if (!created || lostGroup.length > 0) return created;
          // The SDK's retry of a put that did land is answered "taken".
          lostGroup.push(...es.map((e) => e.projection.requestId));
          return false;
        };
      },
    }) as LedgerStore;
    const ids = ['r-1', 'r-2', 'r-3', 'r-4'];
    const outs = await Promise.all(ids.map((id) => w.append(id, landedButLost)));
    expect(lostGroup.length).toBeGreaterThanOrEqual(2);
    for (const [i, o] of outs.entries())
      expect(o.ok && o.value.status).toBe(lostGroup.includes(ids[i]!) ? 'duplicate' : 'appended');
    expect(outs.map((o) => o.ok && o.value.entry.seq).sort()).toEqual([1, 2, 3, 4]);
    await assertLedger(store, ['warm', ...ids]);
  });

  it('places two deliveries of one request in one writer once: the second finds the first entry', async () => {
    const store = new MemoryLedgerStore();
    const w = groupWriter(store, 'log-0');
    await w.append('warm');
    const outs = await Promise.all([w.append('twice'), w.append('other'), w.append('twice')]);
    const statuses = [outs[0], outs[2]].map((o) => o!.ok && o!.value.status).sort();
    expect(statuses).toEqual(['appended', 'duplicate']);
    await assertLedger(store, ['warm', 'twice', 'other']);
  });

  it('splits a group over the byte limit into contiguous groups written in order', async () => {
    const store = new MemoryLedgerStore();
    const groups: number[] = [];
    // Room for two entries per group: each of these entries is well over 1,000 bytes.
    const w = groupWriter(counting(store, new Map(), groups), 'log-0', 2 * 1500);
    const ids = Array.from({ length: 9 }, (_, i) => `b-${i}`);
    for (const o of await Promise.all(ids.map((id) => w.append(id)))) expect(o.ok).toBe(true);
    expect(Math.max(...groups)).toBeLessThanOrEqual(2);
    expect(store.snapshot('log-0')[0]!.body.length).toBeGreaterThan(1000);
    await assertLedger(store, ids);
  });

  it('keeps the ledger exact under crashes, redeliveries and several group-committing writers sharing logs', async () => {
    const store = shuffledStore('group-chaos');
    const r = rng('group-chaos-plan');
    const writers = [0, 1, 2, 3, 4, 5].map((i) => groupWriter(store, LOGS[i % LOGS.length] as string));
    const ids = Array.from({ length: 60 }, (_, i) => `gc-${i}`);
    const home = new Map(ids.map((id) => [id, Math.floor(r() * writers.length)]));
    const outcomes = await Promise.all(
      ids.flatMap((id) =>
        Array.from({ length: 1 + Math.floor(r() * 3) }, async () => {
          // A request's deliveries reach writers of its first writer's log (its claim fixes the log).
          const w = writers[home.get(id)!]!;
          return deliverUntilDone(store, randomCrash(r), (via) => w.append(id, via));
        }),
      ),
    );
    for (const o of outcomes) expect(o.ok).toBe(true);
    await assertLedger(store, ids);
  });
});
