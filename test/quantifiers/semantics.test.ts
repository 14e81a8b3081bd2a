import { describe, expect, it } from 'vitest';
import { packWith, run, valueOf } from './helpers.js';

const ok = { op: 'fact', path: '/ok', operator: 'equals', value: true };
const exists = (path: string, where: unknown) => ({ op: 'exists', path, where });
const every = (path: string, where: unknown) => ({ op: 'every', path, where });
const uniform = (path: string, at: string) => ({ op: 'uniform', path, at });

describe('RFC 0008 quantifiers: opt-in', () => {
  it('refuses a pack using exists as not conformant (structural) without the opt-in', () => {
    const r = run(packWith(exists('/xs', ok)), { xs: [] }, { quantifiers: false });
    expect(r.kind).toBe('error');
    if (r.kind === 'error') expect([r.error.class, r.error.code]).toEqual(['pack-not-conformant', 'pack-structural']);
  });
  it('evaluates the same pack with the opt-in', () => {
    const r = run(packWith(exists('/xs', ok)), { xs: [{ ok: true }] });
    expect(r.kind === 'disposition' && r.disposition.kind === 'outcome' && r.disposition.outcomeId).toBe('yes');
  });
});

describe('RFC 0008 exists and every', () => {
  it('exists is true when one of three elements matches, false when all are false', () => {
    expect(valueOf(exists('/xs', ok), { xs: [{ ok: false }, { ok: true }, { ok: false }] })).toBe('true');
    expect(valueOf(exists('/xs', ok), { xs: [{ ok: false }, { ok: false }] })).toBe('false');
  });
  it('every is true when all match and false when exactly one does not', () => {
    expect(valueOf(every('/xs', ok), { xs: [{ ok: true }, { ok: true }] })).toBe('true');
    expect(valueOf(every('/xs', ok), { xs: [{ ok: true }, { ok: false }, { ok: true }] })).toBe('false');
  });
  it('pins the empty array: exists is false and every is true', () => {
    expect(valueOf(exists('/xs', ok), { xs: [] })).toBe('false');
    expect(valueOf(every('/xs', ok), { xs: [] })).toBe('true');
  });
  it('propagates unknown in both dominance directions', () => {
    expect(valueOf(exists('/xs', ok), { xs: [{}, { ok: false }] })).toBe('unknown');
    expect(valueOf(exists('/xs', ok), { xs: [{}, { ok: true }] })).toBe('true');
    expect(valueOf(every('/xs', ok), { xs: [{}, { ok: true }] })).toBe('unknown');
    expect(valueOf(every('/xs', ok), { xs: [{}, { ok: false }] })).toBe('false');
  });
  it('never short-circuits on unknown: an unknown first element does not decide exists', () => {
    expect(valueOf(exists('/xs', ok), { xs: [{}, { ok: false }, { ok: true }] })).toBe('true');
  });
  it('is unknown when the path is unresolved or selects a non-array value', () => {
    for (const xs of [{}, 'a', 1, null, true])
      for (const q of [exists('/xs', ok), every('/xs', ok)]) expect(valueOf(q, { xs })).toBe('unknown');
    expect(valueOf(exists('/nope', ok), { xs: [] })).toBe('unknown');
  });
  it('roots an empty where pointer at the element, not at the facts document', () => {
    const gold = { op: 'fact', path: '', operator: 'equals', value: 'gold' };
    expect(valueOf(every('/xs', gold), { xs: ['gold', 'gold'] })).toBe('true');
    expect(valueOf(every('/xs', gold), { xs: ['gold', 'silver'] })).toBe('false');
  });
  it('lets the element value win inside where when the same pointer resolves at the facts root', () => {
    const st = { op: 'fact', path: '/status', operator: 'equals', value: 'open' };
    expect(valueOf(exists('/xs', st), { status: 'open', xs: [{ status: 'closed' }] })).toBe('false');
  });
  it('resolves a nested aggregate path against the element, never against the outer facts root', () => {
    const inner = exists('/ys', ok);
    expect(valueOf(exists('/xs', inner), { ys: [{ ok: true }], xs: [{}] })).toBe('unknown');
    expect(valueOf(exists('/xs', inner), { xs: [{ ys: [{ ok: false }] }, { ys: [{ ok: true }] }] })).toBe('true');
  });
  it('replaces the root per level: a pointer resolving on the outer element but not on the inner member is unknown', () => {
    const outerOnly = { op: 'fact', path: '/tag', operator: 'equals', value: 'a' };
    expect(valueOf(exists('/xs', exists('/ys', outerOnly)), { xs: [{ tag: 'a', ys: [{}] }] })).toBe('unknown');
  });
  it('keeps evidence-present element-invariant and lets emptiness override it', () => {
    const pack = (q: unknown) =>
      packWith(q, { evidenceRequirements: [{ id: 'e1', description: 'Evidence e1.', required: false }] });
    for (const state of ['present', 'absent'])
      for (const [q, want] of [
        [every('/xs', { op: 'evidence-present', evidenceRequirement: 'e1' }), 'yes'],
        [exists('/xs', { op: 'evidence-present', evidenceRequirement: 'e1' }), 'no'],
      ] as const) {
        const r = run(pack(q), { xs: [] }, { evidence: { e1: state } });
        expect(r.kind === 'disposition' && r.disposition.kind === 'outcome' && r.disposition.outcomeId).toBe(want);
      }
  });
});

describe('RFC 0008 uniform', () => {
  it('applies its five clauses in order, clause 3 before clause 4', () => {
    expect(valueOf(uniform('/xs', '/v'), { xs: 1 })).toBe('unknown'); // 1
    expect(valueOf(uniform('/xs', '/v'), { xs: [] })).toBe('true'); // 2
    expect(valueOf(uniform('/xs', '/v'), { xs: [{ v: 1 }, { v: 2 }, {}] })).toBe('false'); // 3 before 4
    expect(valueOf(uniform('/xs', '/v'), { xs: [{ v: 1 }, { v: 1 }, {}] })).toBe('unknown'); // 4
    expect(valueOf(uniform('/xs', '/v'), { xs: [{}] })).toBe('unknown'); // singleton with at missing
    expect(valueOf(uniform('/xs', '/v'), { xs: [{ v: null }, { v: null }] })).toBe('true'); // 5
  });
  it('uses §7.4 equality: arrays in order, objects regardless of member order', () => {
    expect(
      valueOf(uniform('/xs', ''), {
        xs: [
          [1, 2],
          [1, 2],
        ],
      }),
    ).toBe('true');
    expect(
      valueOf(uniform('/xs', ''), {
        xs: [
          [1, 2],
          [2, 1],
        ],
      }),
    ).toBe('false');
    expect(
      valueOf(uniform('/xs', ''), {
        xs: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      }),
    ).toBe('true');
  });
  it('decides huge-exponent numbers exactly without materializing them', () => {
    const pack = packWith(uniform('/xs', ''));
    const answer = (text: string) => {
      const r = run(pack, undefined, { factsText: text });
      return r.kind === 'disposition' && r.disposition.kind === 'outcome' ? r.disposition.outcomeId : r;
    };
    expect(answer('{"xs":[1e999999999,2e999999999]}')).toBe('no');
    expect(answer('{"xs":[1e999999999,10e999999998]}')).toBe('yes');
  });
  it('gives the same value for every permutation of the members', () => {
    const xs = [{ v: 1 }, { v: 2 }, {}];
    for (const p of [
      [0, 1, 2],
      [2, 1, 0],
      [1, 2, 0],
    ])
      expect(valueOf(uniform('/xs', '/v'), { xs: p.map((i) => xs[i]) })).toBe('false');
  });
});
