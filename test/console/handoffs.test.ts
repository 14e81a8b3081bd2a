/**
 * The handoffs an entry fanned out (ADR 0233): derived from the signed entry by the deliver function's own code,
 * never received from a queue. The replay test world runs the real pipeline, and the delivery stage's fan-out of each
 * recorded entry with a handoff sender that records what it sends; the console (stack mode over the same stores) must
 * name exactly those queues and handoff ids, in order.
 * Queue depth goes through the read-only queueDepth port only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource, openStackSource } from '../../cli/console/source.js';
import type { HandoffsView } from '../../core/console-api/index.js';
import { BUILD, exampleText, request, world, writePolicyFile, type World } from '../replay/world.js';
import { writeLedgerFiles } from './ledger-files.js';
import { resolveConfig, routeTargetKey } from '../../infra/config.js';
import { messagesOwed } from '../../core/pipeline/fan-out.js';
import { recordedFromStored } from '../../core/pipeline/ledger-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-console-handoffs-'));
/**
 * The local stage's routes (its defaults and preset, as `npm start` deploys it) and their physical queues, as the
 * deployed deliver function is configured.
 */
const ROUTE_QUEUES = Object.fromEntries(
  resolveConfig({ stage: 'local' }).routes.map((r) => [routeTargetKey(r), `docket-local-route-${r.queue}`]),
);
const sent: { requestId: string; queue: string; id: string }[] = [];
const depthAsked: string[] = [];
let w: World;
let c: RunningConsole;

const CASES = [
  [
    'routed',
    'data-request-intake-triage.json',
    'triage-complete-appropriate.facts.json',
    'triage-instance-7a.evidence.json',
  ],
  ['target', 'vendor-onboarding-target.json', 'vendor-no-match.facts.json', 'vendor-certificate.evidence.json'],
  ['unrouted', 'direct-exception-no-escalation.json', 'refund-fraud-flag.facts.json', null],
  ['fanout', 'extended-profile-fanout.json', 'incident-unknown-severity.facts.json', null],
  ['decided', 'vendor-onboarding-target.json', 'vendor-low-risk.facts.json', 'vendor-certificate.evidence.json'],
] as const;

beforeAll(async () => {
  w = world({ logIds: ['t-0'], supportedExtensions: ['*'] as never });
  const routes = { routeQueues: ROUTE_QUEUES, unroutedQueue: 'docket-local-unrouted' };
  for (const [id, pack, facts, evidence] of CASES) {
    const d = w.publish(pack);
    const ev = evidence === null ? '' : `,"evidence":${exampleText(`requests/${evidence}`)}`;
    const stored = await w.submit(request(id, `sha256:${d}`, exampleText(`requests/${facts}`), ev));
    const owed = await messagesOwed(recordedFromStored(stored), routes, w.ports.packs);
    sent.push(...owed.handoffs.map((h) => ({ requestId: id, queue: h.queue, id: h.handoffId })));
  }
  const policyPath = writePolicyFile(w, join(dir, 'policy.json'));
  const source = await openStackSource({
    flags: { stage: 'local' },
    policyPath,
    replayDeps: { open: () => ({ store: w.store, fetch: w.fetch, close: () => undefined }), buildDigest: () => BUILD },
    queueDepth: async (queue) => {
      depthAsked.push(queue);
      return { visible: 3, inFlight: 1 };
    },
  });
  c = await startConsoleServer({ source, host: '127.0.0.1', port: 0, distDir: dir });
});

afterAll(async () => {
  await c?.close();
  rmSync(dir, { recursive: true, force: true });
});

const handoffsOf = async (url: string, id: string) =>
  (await (await fetch(new URL(`/api/handoffs/${encodeURIComponent(id)}`, url))).json()) as HandoffsView;

describe('the handoffs an entry fanned out', () => {
  it.each(CASES.filter(([id]) => id !== 'decided').map(([id]) => id))(
    'names the queues and handoff ids the evaluate function sent, in order (%s)',
    async (id) => {
      const v = await handoffsOf(c.url, id);
      const want = sent.filter((s) => s.requestId === id).map((s) => [s.queue, s.id]);
      expect(want.length).toBeGreaterThan(0);
      expect(v.none).toBeNull();
      expect(v.handoffs.map((h) => [h.queue, h.handoffId])).toEqual(want);
      expect(v.handoffs.every((h) => h.depth?.visible === 3)).toBe(true);
    },
  );

  it('shows each shape: a route, the pack target, and a destinationless handoff to the unrouted queue', async () => {
    expect((await handoffsOf(c.url, 'routed')).handoffs[0]?.shape).toBe('route');
    const target = (await handoffsOf(c.url, 'target')).handoffs;
    expect(target.map((h) => [h.shape, h.routeKey])).toEqual([['target', expect.stringMatching(/:/)]]);
    const unrouted = (await handoffsOf(c.url, 'unrouted')).handoffs;
    expect(unrouted.map((h) => [h.shape, h.destination, h.queue, h.routeKey])).toEqual([
      ['no-destination', 'no-destination', 'docket-local-unrouted', null],
    ]);
    expect((await handoffsOf(c.url, 'fanout')).handoffs.length).toBeGreaterThan(1);
  });

  it('says why an outcome fanned out nothing, and asked only for the depth of queues it named', async () => {
    const v = await handoffsOf(c.url, 'decided');
    expect(v.handoffs).toEqual([]);
    expect(v.none).toContain('handoff state is none');
    expect(new Set(depthAsked)).toEqual(new Set(sent.map((s) => s.queue)));
  });

  it('in files mode derives the handoff ids but names no queue', async () => {
    const files = writeLedgerFiles(['log-a'], 1);
    // Files mode's handoff context over the world's entries (the fixture logs request no handoff).
    const source = { ...(await openFileSource(files)), store: w.store };
    const f = await startConsoleServer({ source, host: '127.0.0.1', port: 0 });
    try {
      let seen = 0;
      for (const id of ['routed', 'unrouted']) {
        const v = await handoffsOf(f.url, id);
        expect(v.routes).toContain('not known');
        for (const h of v.handoffs) {
          seen++;
          expect(h.queue).toBeNull();
          expect(h.destination).toBeNull();
          expect(h.handoffId).toMatch(/^sha256:[0-9a-f]{64}$/);
        }
      }
      expect(seen).toBeGreaterThan(0);
    } finally {
      await f.close();
      rmSync(files.dir, { recursive: true, force: true });
    }
  });
});
