/**
 * The delivery stage's two request-id checks (core/pipeline/deliver-job.ts): a job's named request must be the one
 * the entry item's projection names AND the one its signed body names. A writer of the ledger table can make the two
 * disagree (the projection is unsigned), so each check is tested on its own: with the other one agreeing, only the
 * check under test stands between the forged job and a delivery.
 */
import { describe, expect, it } from 'vitest';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { deliverJob } from '../../core/pipeline/deliver-job.js';
import type { OutboxPorts } from '../../core/pipeline/outbox.js';
import { ROUTED, signedDisposition } from './handoff-fixtures.js';
import type { RouteQueueConfig } from '../../core/pipeline/handoff-plan.js';

/** A genuine signed entry of request `bodyId` at log-0/0, stored under a projection naming `projectedId`. */
function storedEntry(bodyId: string, projectedId: string): StoredEntry {
  const built = signedDisposition(ROUTED, { requestId: bodyId });
  return {
    logId: 'log-0',
    seq: 0,
    body: built.body,
    projection: { requestId: projectedId, kind: 'disposition', entryHash: built.entryHash },
  };
}

/** Delivers a job naming `named` at log-0/0 from a store holding `stored`: the verdict, what was placed and sent. */
async function deliverFrom(stored: StoredEntry, named: string) {
  const positions: string[] = [];
  const sent: string[] = [];
  const outbox: OutboxPorts = {
    handoffs: {
      async sendBatch(_queue, list) {
        sent.push(...list.map((h) => h.handoffId));
        return { failed: [] };
      },
    },
    results: {
      async publishBatch(list) {
        sent.push(...list.map((m) => m.id));
        return { failed: [] };
      },
    },
  };
  const store = {
    async *readEntries() {
      yield stored;
    },
    async putPositionIfAbsent(p: { requestId: string }) {
      positions.push(p.requestId);
      return true;
    },
    // The job's one batch marker (ADR 0498): its positions are what was placed.
    async putMarkerIfAbsent(m: { positions: readonly { requestId: string }[] }) {
      positions.push(...m.positions.map((p) => p.requestId));
      return true;
    },
    async *readMarkers() {},
  };
  const packs = { load: async () => ({ status: 'missing' }) as never, resolveAlias: async () => null };
  const config: RouteQueueConfig = {
    routeQueues: { 'human-role:Oversight': 'q-oversight' },
    unroutedQueue: 'q-unrouted',
  };
  const r = await deliverJob({ logId: 'log-0', entries: [{ seq: 0, requestId: named }] }, config, {
    store: store as never,
    packs,
    outbox,
  });
  return { verdict: r.ok ? 'ok' : r.error.code, positions, sent };
}

describe('the delivery stage refuses a job when the entry item’s projection and signed body disagree', () => {
  it('delivers a job whose projection and body both name its request (the control: the entry has handoffs)', async () => {
    const got = await deliverFrom(storedEntry('req-A', 'req-A'), 'req-A');
    expect(got.verdict).toBe('ok');
    expect(got.positions).toEqual(['req-A']);
    expect(got.sent.length).toBeGreaterThan(0);
  });

  it('refuses a job naming the request a rewritten projection claims, when the signed body is another request’s', async () => {
    // The projection check passes; only the body check can tell.
    const got = await deliverFrom(storedEntry('req-B', 'req-A'), 'req-A');
    expect(got).toEqual({ verdict: 'job-names-no-entry', positions: [], sent: [] });
  });

  it('refuses a job naming the signed body’s request, when the item’s projection names another', async () => {
    // The body check passes; only the projection check can tell.
    const got = await deliverFrom(storedEntry('req-A', 'req-B'), 'req-A');
    expect(got).toEqual({ verdict: 'job-names-no-entry', positions: [], sent: [] });
  });
});
