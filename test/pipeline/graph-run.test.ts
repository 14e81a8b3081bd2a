/**
 * Graph requests through the real pipeline (ADR 0360, ADR 0361): processRequest over the in-memory ledger, with a
 * graph registry serving the procurement-triage example, and the delivery stage's fan-out of the recorded entry.
 * Exactly one graph-run entry per request; every requested handoff at any depth fanned out with its target unchanged and its instance path beside it, each verifying as a
 * consumer verifies it; the notification carrying the run; replay byte for byte; verify under a trust policy that does
 * or does not permit judgment-graphs on the log; the refusals of a deployment without the opt-in.
 */
import { describe, expect, it } from 'vitest';
import { messagesOwed } from '../../core/pipeline/fan-out.js';
import type { RouteQueueConfig } from '../../core/pipeline/handoff-plan.js';
import { recordedFromStored } from '../../core/pipeline/ledger-writer.js';
import {
  GRAPH_REQUEST_FORMAT,
  readGraphRequest,
  type GraphRegistry,
  type LoadedGraph,
} from '../../core/admission/index.js';
import type { GraphReadFailure } from '../../core/pipeline/index.js';
import { graphRunJson } from '../../core/graph/index.js';
import { buildEntry, parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import { verifyResultEntry } from '../../core/pipeline/result-verdict.js';
import { checkEntry } from '../../core/ledger/verify/entry-status.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import { verifyHandoff } from '../../core/pipeline/handoff-verdict.js';
import { processRequest, type PipelinePorts } from '../../core/pipeline/process-request.js';
import { readResultNotification, resultNotificationFor } from '../../core/pipeline/result-notification.js';
import { resultLine } from '../../core/pipeline/saved-result.js';
import { ledgerMessageBytes, readLedgerMessage } from '../../core/pipeline/ledger-message.js';
import { replayContext } from '../../core/replay/replay-context.js';
import { replayStoredEntry } from '../../core/replay/replay-entry.js';
import { CLOSURE, hexOf, PUBLISHED, INPUTS, PROJECT, ROOT_GRAPH, runExample } from '../ledger/graph-run-fixtures.js';
import { enc, hex, world } from '../replay/world.js';

const DIGEST = hexOf(CLOSURE.graph);
const NAMED = PUBLISHED;
const ALIAS = `${CLOSURE.graphId}@${CLOSURE.graphVersion}`;
const OFFICER = 'human-role:Sanctions Compliance Officer';
const inputs = new TextDecoder().decode(INPUTS).trim();
const graphRequest = (id: string, graph = `sha256:${NAMED}`, extra = ''): Uint8Array =>
  enc.encode(`{"format":"${GRAPH_REQUEST_FORMAT}","requestId":"${id}","graph":"${graph}"${extra},"inputs":${inputs}}`);

const LOADED: LoadedGraph = { digest: DIGEST, bytes: ROOT_GRAPH, closure: CLOSURE, project: PROJECT };
const graphs: GraphRegistry = {
  resolveGraphAlias: (a) => Promise.resolve(a === ALIAS ? NAMED : null),
  loadGraph: (d) => Promise.resolve(d === NAMED ? LOADED : null),
};

function graphWorld(enabled = true) {
  const w = world(enabled ? { draftFeatures: ['judgment-graphs'] } : {});
  const routes: RouteQueueConfig = { routeQueues: { [OFFICER]: 'q-officer' }, unroutedQueue: 'q-unrouted' };
  const sent: { queue: string; id: string; body: string }[] = [];
  const ports: PipelinePorts = { ...w.ports, graphs };
  const fetch = {
    ...w.fetch,
    publishedGraph: async (d: string) => (d === NAMED ? LOADED : null),
    resolveGraphAlias: async (a: string) => (a === ALIAS ? NAMED : null),
  };
  const submit = async (bytes: Uint8Array): Promise<StoredEntry> => {
    const o = await processRequest(bytes, w.config, ports);
    if (o.status !== 'recorded') throw new Error(`not recorded: ${o.code}`);
    for await (const e of w.store.readEntries(o.logId, o.seq, o.seq)) {
      // Delivered as the delivery stage delivers it: from the entry read back (core/pipeline/deliver-job.ts).
      const owed = await messagesOwed(recordedFromStored(e), routes, ports.packs);
      sent.push(...owed.handoffs.map((h) => ({ queue: h.queue, id: h.handoffId, body: h.body })));
      return e;
    }
    throw new Error('recorded entry not found');
  };
  const replay = async (stored: StoredEntry) => replayStoredEntry(stored, replayContext(w.options({ fetch })));
  return { ...w, sent, ports, submit, replay };
}

describe('a graph request through the pipeline', () => {
  it('records exactly one graph-run entry whose run is the one docket graph evaluate gives', async () => {
    const w = graphWorld();
    const stored = await w.submit(graphRequest('gr-1'));
    const p = parseStoredEntry(stored.body);
    expect(p.ok).toBe(true);
    if (!p.ok || p.value.entry.kind !== 'graph-run') throw new Error('not a graph run');
    const e = p.value.entry;
    expect(e.format).toBe('docket.ledger-entry/3');
    expect(e.run).toBe(graphRunJson(runExample(w.config.defaultWorkBudget)));
    expect(e.graph.digest).toBe(DIGEST);
    expect(e.inputsDigest).toBe(hex(enc.encode(inputs)));
    expect(e.draftFeatures).toEqual(['judgment-graphs']);
    expect(stored.projection.kind).toBe('graph-run');
    // A redelivery returns the same entry: one entry per graph run.
    const again = await w.submit(graphRequest('gr-1'));
    expect(again.body).toBe(stored.body);
  });

  it('fans out every requested handoff at any depth, target unchanged, instance path and node beside it', async () => {
    const w = graphWorld();
    await w.submit(graphRequest('gr-2'));
    expect(w.sent.map((s) => s.queue)).toEqual(['q-officer', 'q-unrouted']);
    const [officer, unrouted] = w.sent.map((s) => readHandoffMessage(enc.encode(s.body)));
    expect(officer?.ok && officer.value).toMatchObject({
      target: { kind: 'human-role', name: 'Sanctions Compliance Officer' },
      instancePath: '/contractor-sanctions/ofac-check',
      node: 'ofac-check',
      shape: 'target',
      destination: 'configured',
      routeIndex: 0,
      packDigest: hexOf(CLOSURE.packs['ofac-screening']!),
    });
    expect(unrouted?.ok && unrouted.value).toMatchObject({
      instancePath: '/contractor-sanctions/pep-check',
      shape: 'no-destination',
      routeIndex: 1,
    });
    for (const s of w.sent) {
      const v = verifyHandoff(enc.encode(s.body), w.policy);
      expect(v.ok ? 'ok' : `${v.reason}: ${v.detail}`).toBe('ok');
    }
  });

  it('refuses a forged graph handoff: another instance path, another target, a disposition entry claiming one', async () => {
    const w = graphWorld();
    await w.submit(graphRequest('gr-3'));
    const body = w.sent[0]!.body;
    const forge = (from: string, to: string) => readHandoffMessage(enc.encode(body.replace(from, to)));
    const moved = forge(
      '"instancePath":"/contractor-sanctions/ofac-check"',
      '"instancePath":"/vendor-sanctions/ofac-check"',
    );
    expect(moved.ok ? 'ok' : moved.error.code).toBe('route-mismatch');
    const retargeted = forge('Sanctions Compliance Officer"}', 'Someone Else"}');
    expect(retargeted.ok ? 'ok' : retargeted.error.code).toBe('route-mismatch');
  });

  it('publishes a notification carrying the entry, from which submit --wait --json prints the run exactly', async () => {
    const w = graphWorld();
    const stored = await w.submit(graphRequest('gr-4'));
    const p = parseStoredEntry(stored.body);
    if (!p.ok) throw new Error('unreadable');
    const message = resultNotificationFor({ entry: p.value.entry, body: stored.body, entryHash: p.value.entryHash });
    // Filter policies see the run's headline as a disposition's (the example's is unresolved, no-match).
    expect(message.attributes).toMatchObject({ kind: 'graph-run', dispositionKind: 'unresolved', requestId: 'gr-4' });
    expect(message.attributes.packDigest).toBeUndefined();
    const n = readResultNotification(enc.encode(message.body));
    expect(n.ok).toBe(true);
    if (!n.ok || n.value.entry === null) return;
    const line = resultLine(n.value.entry, n.value.entry.body);
    const run = graphRunJson(runExample(w.config.defaultWorkBudget));
    expect(line).toContain(`"kind":"graph-run","run":${run},"work":`);
  });

  it('replays the whole graph byte for byte', async () => {
    const w = graphWorld();
    const r = await w.replay(await w.submit(graphRequest('gr-5', ALIAS)));
    expect(r.result).toBe('replay-match');
    expect(r.kind).toBe('graph-run');
    expect(r.work?.recorded).toBeGreaterThan(0);
  });

  it('reports a mismatch when the registry serves another closed set under the digest the request named', async () => {
    const w = graphWorld();
    const stored = await w.submit(graphRequest('gr-6'));
    // The same graph bytes with a pack of other bytes (one more space): a closed set of its own with its own digest
    // (ADR 0450), which replay must not take for the recorded one: the decision now refuses it.
    const pack = PROJECT.packs.get('procurement-decision');
    if (!pack?.ok) throw new Error('no pack');
    const bytes = new Uint8Array([...pack.bytes, 0x20]);
    const packs = new Map(PROJECT.packs).set('procurement-decision', { ok: true, bytes });
    const closure = { ...CLOSURE, packs: { ...CLOSURE.packs, 'procurement-decision': `sha256:${hex(bytes)}` } };
    const r = await replayStoredEntry(
      stored,
      replayContext(
        w.options({
          fetch: { ...w.fetch, publishedGraph: async () => ({ ...LOADED, closure, project: { ...PROJECT, packs } }) },
        }),
      ),
    );
    expect(r.result).toBe('replay-mismatch');
    expect(r.differs).toEqual([
      { member: 'kind', recorded: 'graph-run', replayed: 'admission-refusal' },
      expect.objectContaining({ member: 'refusal.code', replayed: 'graph-closure-mismatch' }),
    ]);
  });

  it('is not replayable when the registry no longer serves the graph, or serves one that is not its closed set', async () => {
    const w = graphWorld();
    const stored = await w.submit(graphRequest('gr-6b'));
    const missing = await replayStoredEntry(
      stored,
      replayContext(w.options({ fetch: { ...w.fetch, publishedGraph: async () => null } })),
    );
    expect([missing.result, missing.reason]).toEqual(['not-replayable', 'graph-missing']);
    const noFetcher = await replayStoredEntry(stored, replayContext(w.options()));
    expect([noFetcher.result, noFetcher.reason]).toEqual(['not-replayable', 'graph-missing']);
    const lying = await replayStoredEntry(
      stored,
      replayContext(
        w.options({
          fetch: {
            ...w.fetch,
            publishedGraph: async () => ({ ...LOADED, project: { ...PROJECT, packs: new Map() } }),
          },
        }),
      ),
    );
    expect([lying.result, lying.reason]).toEqual(['not-replayable', 'graph-not-closed']);
  });

  it('verifies under a policy that permits judgment-graphs on the log, and reports it under one that does not', async () => {
    const w = graphWorld();
    const stored = await w.submit(graphRequest('gr-7'));
    expect(checkEntry(stored, w.policy, true).status).toBe('ok');
    const strict = { ...w.policy, draftFeatures: w.policy.draftFeatures!.map((d) => ({ ...d, allow: [] })) };
    expect(checkEntry(stored, strict, true).status).toBe('draft-features-not-allowed');
  });
});

describe('a graph request on the intake queue', () => {
  it('travels to the evaluate function in a ledger message byte for byte, like an evaluation request', () => {
    const body = new TextDecoder().decode(graphRequest('seq-1'));
    const sent = ledgerMessageBytes([
      { body: '{"format":"docket.request/1"}', intakeMessageId: 'm-0' },
      { body, intakeMessageId: 'm-1' },
    ]);
    expect(sent.ok && readLedgerMessage(sent.value)).toEqual({
      ok: true,
      value: [
        { body: '{"format":"docket.request/1"}', intakeMessageId: 'm-0' },
        { body, intakeMessageId: 'm-1' },
      ],
    });
  });

  it('is recorded, never dead-lettered, by a deployment without the opt-in', async () => {
    const w = graphWorld(false);
    const o = await processRequest(graphRequest('off-0'), w.config, w.ports);
    expect(o.status === 'recorded' && o.refusalCode).toBe('graphs-not-enabled');
  });
});

describe('a graph the registry cannot serve (ADR 0456)', () => {
  it('is recorded at once as graph-unreadable with the registry’s reason, and sends nothing', async () => {
    const w = graphWorld();
    const poisoned: GraphRegistry<GraphReadFailure> = {
      ...graphs,
      loadGraph: () =>
        Promise.resolve({ status: 'unreadable', reason: 'registry-integrity', detail: 'closure is not canonical' }),
    };
    const o = await processRequest(graphRequest('poison-0'), w.config, { ...w.ports, graphs: poisoned });
    expect(o.status === 'recorded' && o.refusalCode).toBe('graph-unreadable');
    if (o.status !== 'recorded') return;
    for await (const e of w.store.readEntries(o.logId, o.seq, o.seq)) {
      const p = parseStoredEntry(e.body);
      expect(p.ok && p.value.entry.kind === 'admission-refusal' && p.value.entry.refusal.message).toBe(
        `graph sha256:${NAMED} is published but cannot be read as a closed set: closure is not canonical`,
      );
      // Repaired since, the graph reads: the refusal replays as a changed registry, never as a match.
      expect((await w.replay(e)).result).toBe('not-replayable');
    }
    expect(w.sent).toEqual([]);
  });
});

describe('a graph alias item that holds no valid digest (ADR 0485)', () => {
  it('is recorded at once as alias-unreadable naming the graph alias, replays as a match while it stays so, and sends nothing', async () => {
    const w = graphWorld();
    const poisoned: GraphRegistry<GraphReadFailure> = {
      ...graphs,
      resolveGraphAlias: () =>
        Promise.resolve({
          status: 'unreadable',
          reason: 'registry-integrity',
          detail: `graph alias ${ALIAS} holds no valid digest`,
        }),
    };
    const o = await processRequest(graphRequest('alias-0', ALIAS), w.config, { ...w.ports, graphs: poisoned });
    expect(o.status === 'recorded' && o.refusalCode).toBe('alias-unreadable');
    if (o.status !== 'recorded') return;
    const fetch = (alias: string | { corrupt: string }) => ({
      ...w.fetch,
      publishedGraph: async (d: string) => (d === NAMED ? LOADED : null),
      resolveGraphAlias: async () => alias,
    });
    for await (const e of w.store.readEntries(o.logId, o.seq, o.seq)) {
      const p = parseStoredEntry(e.body);
      expect(p.ok && p.value.entry.kind === 'admission-refusal' && p.value.entry.refusal.message).toBe(
        `graph alias ${ALIAS} is in the registry but its item holds no valid digest: it cannot be read`,
      );
      const replayed = (f: ReturnType<typeof fetch>) => replayStoredEntry(e, replayContext(w.options({ fetch: f })));
      expect((await replayed(fetch({ corrupt: 'no digest' }))).result).toBe('replay-match');
      // Put back, the alias reads: a changed registry, never a match.
      expect(await replayed(fetch(NAMED))).toMatchObject({
        result: 'not-replayable',
        reason: 'registry-state-changed',
      });
    }
    expect(w.sent).toEqual([]);
  });
});

describe('a deployment without the opt-in', () => {
  it('records graphs-not-enabled, replayable, and sends nothing', async () => {
    const w = graphWorld(false);
    const stored = await w.submit(graphRequest('off-1'));
    const p = parseStoredEntry(stored.body);
    expect(
      p.ok && p.value.entry.kind === 'admission-refusal' && [p.value.entry.format, p.value.entry.refusal.code],
    ).toEqual(['docket.ledger-entry/1', 'graphs-not-enabled']);
    expect(w.sent).toEqual([]);
    expect((await w.replay(stored)).result).toBe('replay-match');
  });
});

describe('refusals of graph requests replay', () => {
  it.each([
    ['unknown-graph-alias', () => graphRequest('u-1', 'https://example.com/graphs/none@1.0.0')],
    ['unknown-graph-digest', () => graphRequest('u-2', `sha256:${'0'.repeat(64)}`)],
    ['work-budget-out-of-range', () => graphRequest('u-3', `sha256:${NAMED}`, ',"workBudget":0')],
  ])('%s is recorded and replays as a match', async (code, make) => {
    const w = graphWorld();
    const stored = await w.submit(make());
    const p = parseStoredEntry(stored.body);
    expect(p.ok && p.value.entry.kind === 'admission-refusal' && p.value.entry.refusal.code).toBe(code);
    expect((await w.replay(stored)).result).toBe('replay-match');
  });

  it('accepts the result of a graph requested by closure digest only when its recorded members hash to that digest', async () => {
    const w = graphWorld();
    const bytes = graphRequest('gr-9');
    const stored = await w.submit(bytes);
    const read = readGraphRequest(bytes);
    if (!read.ok) throw new Error(read.error.message);
    const sent = { requestId: 'gr-9', bytes, request: read.value };
    const p = parseStoredEntry(stored.body);
    if (!p.ok || p.value.entry.kind !== 'graph-run') throw new Error('not a graph run');
    expect(verifyResultEntry(p.value, sent, w.policy)).toEqual({ ok: true });
    // The same request, signed by the trusted key, recording one pack rebound: what a rewritten registry would run.
    const { signature: _, ...unsigned } = p.value.entry;
    const packs = { ...unsigned.packs, 'procurement-decision': 'c'.repeat(64) };
    const forged = parseStoredEntry(buildEntry({ ...unsigned, packs } as UnsignedEntry, w.signer).body);
    if (!forged.ok) throw new Error(forged.error.detail);
    const v = verifyResultEntry(forged.value, sent, w.policy);
    expect(v.ok ? 'ok' : v.reason).toBe('graph-mismatch');
  });

  it('records graph-closure-mismatch when the registry serves a rebound closure, and replays it until the item is put back', async () => {
    const w = graphWorld();
    // A closed set of its own: the same graph document, one pack rebound to other bytes under the same name.
    const pack = PROJECT.packs.get('procurement-decision');
    if (!pack?.ok) throw new Error('no pack');
    const bytes = new Uint8Array([...pack.bytes, 0x20]);
    const rebound: LoadedGraph = {
      ...LOADED,
      closure: { ...CLOSURE, packs: { ...CLOSURE.packs, 'procurement-decision': `sha256:${hex(bytes)}` } },
      project: { ...PROJECT, packs: new Map(PROJECT.packs).set('procurement-decision', { ok: true, bytes }) },
    };
    const lying: GraphRegistry = { ...graphs, loadGraph: async (d) => (d === NAMED ? rebound : null) };
    const o = await processRequest(graphRequest('u-5'), w.config, { ...w.ports, graphs: lying });
    expect(o.status === 'recorded' && [o.kind, o.refusalCode]).toEqual(['admission-refusal', 'graph-closure-mismatch']);
    expect(w.sent).toEqual([]);
    let stored: StoredEntry | undefined;
    if (o.status === 'recorded') for await (const e of w.store.readEntries(o.logId, o.seq, o.seq)) stored = e;
    const still = { ...w.fetch, publishedGraph: async (d: string) => (d === NAMED ? rebound : null) };
    expect((await replayStoredEntry(stored!, replayContext(w.options({ fetch: still })))).result).toBe('replay-match');
    const restored = await w.replay(stored!);
    expect([restored.result, restored.reason]).toEqual(['not-replayable', 'registry-state-changed']);
  });

  it('an unknown alias published since is registry-state-changed', async () => {
    const w = graphWorld();
    const stored = await w.submit(graphRequest('u-4', 'https://example.com/graphs/later@1.0.0'));
    const r = await replayStoredEntry(
      stored,
      replayContext(
        w.options({
          fetch: {
            ...w.fetch,
            publishedGraph: async (d: string) => (d === NAMED ? LOADED : null),
            resolveGraphAlias: async () => NAMED,
          },
        }),
      ),
    );
    expect([r.result, r.reason]).toEqual(['not-replayable', 'registry-state-changed']);
  });
});
