import { describe, expect, it } from 'vitest';
import { packEscalationTarget } from '../../core/admission/pack-load.js';
import { planHandoffs, parseRouteQueues } from '../../core/pipeline/handoff-plan.js';
import canonicalize from 'canonicalize';
import { DEFAULT_ADMISSION_LIMITS } from '../../core/ledger/entries/worst-case-entry.js';
import {
  HANDOFF_MAX_BYTES,
  handoffId,
  handoffMessageBytes,
  handoffMessagesFor,
  readHandoffMessage,
} from '../../core/pipeline/handoff-message.js';
import { NO_HANDOFF, ROUTED, signedDisposition } from './handoff-fixtures.js';
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
  const entry = signedDisposition(ROUTED);
  const base = {
    entryBody: entry.body,
    shape: 'route' as const,
    destination: 'configured' as const,
    target: { kind: 'queue' as const, name: 'Review' },
  };

  it('derives a deterministic handoff id per entry hash and route index', () => {
    const a = handoffMessageBytes({ ...base, routeIndex: 0 });
    const again = handoffMessageBytes({ ...base, routeIndex: 0 });
    const b = handoffMessageBytes({ ...base, routeIndex: 2 });
    expect(a.id).toBe(again.id);
    expect(a.body).toBe(again.body);
    expect(a.id).not.toBe(b.id);
    expect(a.id).toBe(handoffId(entry.entryHash, 0));
    expect(handoffId('f'.repeat(64), 0)).not.toBe(a.id);
  });

  it('carries the exact stored entry bytes and reads everything else from them', () => {
    const { body } = handoffMessageBytes({ ...base, routeIndex: 2 });
    expect(JSON.parse(body).entry).toBe(entry.body);
    const r = readHandoffMessage(enc.encode(body));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.routeIndex).toBe(2);
    expect(r.value.ledger).toEqual({ logId: 'log-0', seq: 0, entryHash: entry.entryHash });
    expect(r.value.requestId).toBe('req-1');
    expect(r.value.disposition).toEqual(ROUTED);
    expect(r.value.correlation).toEqual({ tenant: 'acme' });
  });

  it('refuses bytes that are not the canonical form of what they parse to', () => {
    const { body } = handoffMessageBytes({ ...base, routeIndex: 1, target: { kind: 'human-role', name: 'Oversight' } });
    const reordered = JSON.stringify(JSON.parse(body), null, 1);
    const bad = readHandoffMessage(enc.encode(reordered));
    expect(bad.ok ? 'ok' : bad.error.code).toBe('message-malformed');
  });

  it('refuses a message that differs from its canonical form only in how a number or a string is spelled', () => {
    const { body } = handoffMessageBytes({ ...base, routeIndex: 1, target: { kind: 'human-role', name: 'Oversight' } });
    expect(readHandoffMessage(enc.encode(body)).ok).toBe(true);
    for (const respelled of [
      body.replace('"routeIndex":1', '"routeIndex":1.0'),
      body.replace('"routeIndex":1', '"routeIndex":1e0'),
      body.replace('"name":"Oversight"', '"name":"\\u004fversight"'),
      body.replace('"format":"docket.handoff/2"', '"format":"docket.handoff\\/2"'),
    ]) {
      expect(respelled).not.toBe(body);
      const r = readHandoffMessage(enc.encode(respelled));
      expect(r.ok ? 'ok' : r.error.code).toBe('message-malformed');
    }
  });

  it('refuses a message, or an entry it carries, nested far beyond the carrier’s depth limit, without throwing', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const { body } = handoffMessageBytes({ ...base, routeIndex: 1, target: { kind: 'human-role', name: 'Oversight' } });
    const deepEntry = JSON.stringify({ ...(JSON.parse(body) as Record<string, unknown>), entry: deep });
    const verdicts = [deep, deepEntry].map((m) => {
      const r = readHandoffMessage(enc.encode(m));
      return r.ok ? 'ok' : r.error;
    });
    expect(verdicts).toMatchObject([
      { code: 'message-malformed', message: /limit-depth/ },
      { code: 'entry-malformed', message: /limit-depth/ },
    ]);
  });

  it('refuses the old coordinates-only format with a reason naming it', () => {
    const old = canonicalize({
      format: 'docket.handoff/1',
      handoffId: handoffId(entry.entryHash, 0),
      ledger: { logId: 'log-0', seq: 0, entryHash: entry.entryHash },
    }) as string;
    const r = readHandoffMessage(enc.encode(old));
    expect(r.ok ? 'ok' : r.error).toMatchObject({ code: 'unsupported-format', message: /no signed entry/ });
  });

  it('refuses to build a message whose route index does not select its target', () => {
    expect(() => handoffMessageBytes({ ...base, routeIndex: 3 })).toThrow(/route-mismatch/);
    expect(() => handoffMessageBytes({ ...base, routeIndex: 1 })).toThrow(/route-mismatch/);
    expect(() => handoffMessageBytes({ ...base, routeIndex: 0, target: { kind: 'queue', name: 'Other' } })).toThrow(
      /route-mismatch/,
    );
  });

  it('refuses to build a message for an entry that requests no handoff, or for bytes that are not an entry', () => {
    expect(() =>
      handoffMessageBytes({ ...base, entryBody: signedDisposition(NO_HANDOFF).body, routeIndex: 0 }),
    ).toThrow(/not-a-handoff/);
    expect(() => handoffMessageBytes({ ...base, entryBody: `${entry.body} `, routeIndex: 0 })).toThrow(/entry/);
  });

  it('builds every handoff of a recorded entry from one read, refusing bytes that do not hash to the entry hash', () => {
    const routings = [0, 1, 2].map((i) => ({ ...base, routeIndex: i, target: ROUTED.handoff.routes![i]! }));
    const all = handoffMessagesFor(entry, routings);
    expect(all.map((m) => m.id)).toEqual([0, 1, 2].map((i) => handoffId(entry.entryHash, i)));
    expect(all[1]!.body).toBe(handoffMessageBytes({ ...routings[1]!, entryBody: entry.body }).body);
    expect(() => handoffMessagesFor({ ...entry, body: `${entry.body} ` }, routings)).toThrow(/entry hash/);
  });

  it('fits in one SQS message: embedding the entry text as a JSON string at most doubles it', () => {
    // The densest escaping an entry allows: free text made only of quotes and backslashes (2 bytes each in the
    // entry text, 4 in the message).
    const correlation: Record<string, string> = {};
    for (let i = 0; i < 16; i++) correlation[`k${i}`] = '"\\'.repeat(128);
    const dense = signedDisposition(ROUTED, { correlation });
    const { body } = handoffMessageBytes({ ...base, entryBody: dense.body, routeIndex: 0 });
    const envelope = handoffMessageBytes({ ...base, routeIndex: 0 }).body.length - JSON.stringify(entry.body).length;
    expect(Buffer.byteLength(body) - envelope).toBeLessThanOrEqual(2 * Buffer.byteLength(dense.body) + 2);
    // An entry item is at most DynamoDB's 400 KB, so the largest message is under SQS's 1 MiB.
    expect(2 * DEFAULT_ADMISSION_LIMITS.itemBytes + envelope).toBeLessThanOrEqual(HANDOFF_MAX_BYTES);
  });
});
