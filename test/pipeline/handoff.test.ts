import { describe, expect, it } from 'vitest';
import { packEscalationTarget } from '../../core/admission/index.js';
import { planHandoffs, parseRouteQueues } from '../../core/pipeline/handoff-plan.js';
import { handoffId, handoffMessageBytes, readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import type { Disposition } from '../../core/evaluate/types.js';

const config = {
  routeQueues: { 'queue:Review': 'q-review', 'human-role:Oversight': 'q-oversight' },
  unroutedQueue: 'q-unrouted',
};
const enc = new TextEncoder();

describe('handoff fan-out planning', () => {
  it('sends one message per selected route in declaration order, keeping duplicate targets', () => {
    const d: Disposition = {
      kind: 'unresolved',
      reasons: ['unknown'],
      handoff: {
        state: 'requested',
        triggeredBy: ['unknown'],
        routes: [
          { kind: 'queue', name: 'Review' },
          { kind: 'human-role', name: 'Oversight' },
          { kind: 'queue', name: 'Review' },
        ],
      },
    };
    const plan = planHandoffs(d, undefined, config);
    expect(plan.map((p) => `${p.routeIndex}:${p.queue}:${p.destination}`)).toEqual([
      '0:q-review:configured',
      '1:q-oversight:configured',
      '2:q-review:configured',
    ]);
  });

  it("sends a target-only pack's handoff to the target read from the pack", () => {
    const d: Disposition = {
      kind: 'unresolved',
      reasons: ['no-match'],
      handoff: { state: 'requested', triggeredBy: ['no-match'] },
    };
    const target = packEscalationTarget({
      escalation: { triggers: ['no-match'], target: { kind: 'queue', name: 'Review' } },
    });
    expect(planHandoffs(d, target, config)).toEqual([
      {
        routeIndex: 0,
        shape: 'target',
        target: { kind: 'queue', name: 'Review' },
        destination: 'configured',
        queue: 'q-review',
      },
    ]);
  });

  it('sends a direct escalation without an escalation object, and an unmapped target, to the unrouted queue', () => {
    const direct: Disposition = {
      kind: 'unresolved',
      reasons: ['exception-escalation'],
      handoff: { state: 'requested', triggeredBy: ['exception-escalation'] },
    };
    expect(planHandoffs(direct, undefined, config)).toEqual([
      { routeIndex: 0, shape: 'no-destination', destination: 'no-destination', queue: 'q-unrouted' },
    ]);
    const routed: Disposition = {
      kind: 'unresolved',
      reasons: ['unknown'],
      handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [{ kind: 'system', name: '__proto__' }] },
    };
    expect(planHandoffs(routed, undefined, config)[0]).toMatchObject({
      destination: 'unmapped-target',
      queue: 'q-unrouted',
    });
  });

  it('sends nothing when no handoff is requested', () => {
    const d: Disposition = { kind: 'outcome', outcomeId: 'ok', reasons: [], handoff: { state: 'none', routes: [] } };
    expect(planHandoffs(d, undefined, config)).toEqual([]);
  });

  it('reads the route-queue configuration as data, keeping a "__proto__" key as an ordinary key', () => {
    const q = parseRouteQueues('{"__proto__":"u1","queue:Review":"u2"}');
    expect(Object.keys(q).sort()).toEqual(['__proto__', 'queue:Review']);
    expect(() => parseRouteQueues('[]')).toThrow(TypeError);
  });
});

describe('the handoff message', () => {
  const disposition: Disposition = {
    kind: 'unresolved',
    reasons: ['unknown'],
    handoff: {
      state: 'requested',
      triggeredBy: ['unknown'],
      routes: [
        { kind: 'queue', name: 'Review' },
        { kind: 'queue', name: 'Review' },
      ],
    },
  };
  const base = {
    ledger: { logId: 'dev-0', seq: 7, entryHash: 'e'.repeat(64) },
    requestId: 'r-1',
    packDigest: 'a'.repeat(64),
    shape: 'route' as const,
    destination: 'configured' as const,
    target: { kind: 'queue' as const, name: 'Review' },
    disposition,
  };

  it('derives a deterministic handoff id per entry hash and route index', () => {
    const a = handoffMessageBytes({ ...base, routeIndex: 0 });
    const again = handoffMessageBytes({ ...base, routeIndex: 0 });
    const b = handoffMessageBytes({ ...base, routeIndex: 1 });
    expect(a.id).toBe(again.id);
    expect(a.body).toBe(again.body);
    expect(a.id).not.toBe(b.id);
    expect(a.id).toBe(handoffId('e'.repeat(64), 0));
    expect(handoffId('f'.repeat(64), 0)).not.toBe(a.id);
  });

  it('emits canonical bytes that read back to the same message', () => {
    const { body } = handoffMessageBytes({ ...base, routeIndex: 1 });
    const r = readHandoffMessage(enc.encode(body));
    expect(r.ok && r.value.routeIndex).toBe(1);
    const reordered = JSON.stringify(JSON.parse(body), null, 1);
    const bad = readHandoffMessage(enc.encode(reordered));
    expect(bad.ok ? 'ok' : bad.error.code).toBe('handoff-not-canonical');
  });

  it('refuses to build a message whose route index does not select its target', () => {
    expect(() => handoffMessageBytes({ ...base, routeIndex: 2 })).toThrow(/routeIndex/);
    expect(() => handoffMessageBytes({ ...base, routeIndex: 0, target: { kind: 'queue', name: 'Other' } })).toThrow(
      /routeIndex/,
    );
  });
});
