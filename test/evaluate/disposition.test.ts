import { describe, expect, it } from 'vitest';
import {
  canonicalDisposition,
  DispositionInvariantError,
  type DispositionContext,
} from '../../core/evaluate/disposition.js';
import type { Disposition } from '../../core/evaluate/types.js';

const desk = { kind: 'queue', name: 'Desk' } as const;
const routedPack: DispositionContext = {
  outcomeIds: new Set(['yes', 'no']),
  triggers: new Set(['unknown', 'conflict']),
  routeTargets: [desk],
};
const targetPack: DispositionContext = {
  outcomeIds: new Set(['yes']),
  triggers: new Set(['unknown']),
  routeTargets: undefined,
};

const invalid = (d: unknown, ctx?: DispositionContext) => () => canonicalDisposition(d as Disposition, ctx);

describe('canonicalDisposition emits RFC 8785 bytes', () => {
  it('orders members by name and keeps set order', () => {
    const d = {
      reasons: ['conflict', 'unknown'],
      kind: 'unresolved',
      handoff: { triggeredBy: ['conflict', 'unknown'], state: 'requested', routes: [desk] },
    } as unknown as Disposition;
    expect(canonicalDisposition(d, routedPack)).toBe(
      '{"handoff":{"routes":[{"kind":"queue","name":"Desk"}],"state":"requested","triggeredBy":["conflict","unknown"]},"kind":"unresolved","reasons":["conflict","unknown"]}',
    );
  });
  it('matches the two informative examples of §8.3', () => {
    expect(
      canonicalDisposition({ kind: 'outcome', outcomeId: 'proceed', reasons: [], handoff: { state: 'none' } }),
    ).toBe('{"handoff":{"state":"none"},"kind":"outcome","outcomeId":"proceed","reasons":[]}');
    expect(
      canonicalDisposition({
        kind: 'unresolved',
        reasons: ['missing-required-evidence'],
        handoff: { state: 'requested', triggeredBy: ['missing-required-evidence'] },
      }),
    ).toBe(
      '{"handoff":{"state":"requested","triggeredBy":["missing-required-evidence"]},"kind":"unresolved","reasons":["missing-required-evidence"]}',
    );
  });
});

describe('canonicalDisposition refuses every §8.3 invariant violation', () => {
  const none = { state: 'none' };
  const cases: [string, unknown, DispositionContext?][] = [
    ['an unknown kind', { kind: 'escalated', reasons: ['unknown'], handoff: none }],
    ['an extra member', { kind: 'unresolved', reasons: ['unknown'], handoff: none, trace: {} }],
    ['a missing handoff', { kind: 'unresolved', reasons: ['unknown'] }],
    ['an outcome without outcomeId', { kind: 'outcome', reasons: [], handoff: none }],
    ['an outcomeId beside unresolved', { kind: 'unresolved', outcomeId: 'yes', reasons: ['unknown'], handoff: none }],
    ['a null outcomeId', { kind: 'unresolved', outcomeId: null, reasons: ['unknown'], handoff: none }],
    ['an empty outcomeId', { kind: 'outcome', outcomeId: '', reasons: [], handoff: none }],
    ['an undeclared outcome', { kind: 'outcome', outcomeId: 'maybe', reasons: [], handoff: none }, targetPack],
    ['an outcome with reasons', { kind: 'outcome', outcomeId: 'yes', reasons: ['unknown'], handoff: none }],
    ['unresolved without reasons', { kind: 'unresolved', reasons: [], handoff: none }],
    [
      'not-applicable with another reason',
      { kind: 'not-applicable', reasons: ['not-applicable', 'unknown'], handoff: none },
    ],
    [
      'the not-applicable reason on an unresolved result',
      { kind: 'unresolved', reasons: ['not-applicable'], handoff: none },
    ],
    ['a reason outside the vocabulary', { kind: 'unresolved', reasons: ['timeout'], handoff: none }],
    ['unsorted reasons', { kind: 'unresolved', reasons: ['unknown', 'conflict'], handoff: none }],
    ['duplicate reasons', { kind: 'unresolved', reasons: ['unknown', 'unknown'], handoff: none }],
    ['an unknown handoff state', { kind: 'unresolved', reasons: ['unknown'], handoff: { state: 'sent' } }],
    ['requested without triggeredBy', { kind: 'unresolved', reasons: ['unknown'], handoff: { state: 'requested' } }],
    [
      'an empty triggeredBy',
      { kind: 'unresolved', reasons: ['unknown'], handoff: { state: 'requested', triggeredBy: [] } },
    ],
    [
      'triggeredBy beside state none',
      { kind: 'unresolved', reasons: ['unknown'], handoff: { state: 'none', triggeredBy: ['unknown'] } },
    ],
    [
      'triggeredBy outside reasons',
      { kind: 'unresolved', reasons: ['unknown'], handoff: { state: 'requested', triggeredBy: ['conflict'] } },
    ],
    [
      'a requested outcome',
      { kind: 'outcome', outcomeId: 'yes', reasons: [], handoff: { state: 'requested', triggeredBy: ['unknown'] } },
    ],
    [
      'a trigger-less reason in triggeredBy',
      { kind: 'unresolved', reasons: ['no-match'], handoff: { state: 'requested', triggeredBy: ['no-match'] } },
      targetPack,
    ],
    [
      'a retained trigger missing from triggeredBy',
      {
        kind: 'unresolved',
        reasons: ['exception-escalation', 'unknown'],
        handoff: { state: 'requested', triggeredBy: ['exception-escalation'] },
      },
      targetPack,
    ],
    [
      'a direct request missing from triggeredBy',
      {
        kind: 'unresolved',
        reasons: ['exception-escalation', 'unknown'],
        handoff: { state: 'requested', triggeredBy: ['unknown'] },
      },
    ],
    [
      'routes when the pack declares none',
      {
        kind: 'unresolved',
        reasons: ['unknown'],
        handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [desk] },
      },
      targetPack,
    ],
    [
      'no routes when the pack declares routes',
      { kind: 'unresolved', reasons: ['unknown'], handoff: { state: 'requested', triggeredBy: ['unknown'] } },
      routedPack,
    ],
    [
      'requested with no route',
      {
        kind: 'unresolved',
        reasons: ['unknown'],
        handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [] },
      },
      routedPack,
    ],
    [
      'state none with a route',
      { kind: 'unresolved', reasons: ['unknown'], handoff: { state: 'none', routes: [desk] } },
      routedPack,
    ],
    [
      'an undeclared route target',
      {
        kind: 'unresolved',
        reasons: ['unknown'],
        handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [{ kind: 'queue', name: 'Elsewhere' }] },
      },
      routedPack,
    ],
    [
      'a route target with an extra member',
      {
        kind: 'unresolved',
        reasons: ['unknown'],
        handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [{ ...desk, url: 'x' }] },
      },
    ],
    [
      'a route name with a lone surrogate',
      {
        kind: 'unresolved',
        reasons: ['unknown'],
        handoff: { state: 'requested', triggeredBy: ['unknown'], routes: [{ kind: 'queue', name: '\ud800' }] },
      },
    ],
    ['an array in place of the disposition', []],
  ];
  for (const [name, d, ctx] of cases) {
    it(`refuses ${name}`, () => expect(invalid(d, ctx)).toThrow(DispositionInvariantError));
  }
});
