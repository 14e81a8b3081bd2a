/**
 * One request budget across a graph run (ADR 0313): each node is charged exactly what a single evaluation of its
 * pack with the same documents is charged; the run stops with resource-exhaustion on the node where it runs out.
 */
import { describe, expect, it } from 'vitest';
import { evaluateDocuments } from '../../core/evaluate/index.js';
import { bytes, evaluated, flat, PACKS, refusedWith, run } from './fixtures.js';

const G = flat({ up: 'source', down: 'gate' }, [{ from: 'up', to: 'down', fact: '/upstream/verdict' }], 'down');
const full = evaluated(run(G));
const [w1, w2] = full.nodes.map((n) => n.work) as [number, number];

describe('the work budget of a graph run', () => {
  it('charges each node what a single evaluation of the same pack and facts is charged, and records the total', () => {
    const single = (pack: string, facts: unknown) =>
      evaluateDocuments({ pack: bytes(PACKS[pack]), facts: bytes(facts), supportedExtensions: new Set() }).work;
    expect(w1).toBe(single('source', {}));
    expect(w2).toBe(single('gate', { upstream: { verdict: 'pass' } }));
    expect(w1).toBeGreaterThan(0);
    expect(full.work).toEqual({ budget: 1_000_000, used: w1 + w2 });
  });
  it('completes with exactly the units the nodes need', () => {
    expect(evaluated(run(G, {}, undefined, { workBudget: w1 + w2 })).work).toEqual({ budget: w1 + w2, used: w1 + w2 });
  });
  it('stops on the second node when one unit is missing', () => {
    const e = refusedWith(run(G, {}, undefined, { workBudget: w1 + w2 - 1 }));
    expect([e.layer, e.class, e.phase, e.node, e.code]).toEqual([
      'node',
      'resource-exhaustion',
      'evaluation',
      'down',
      'work-budget-exceeded',
    ]);
  });
  it('stops on the second node when the first spent the budget exactly', () => {
    expect(refusedWith(run(G, {}, undefined, { workBudget: w1 })).node).toBe('down');
  });
  it('stops on the first node when it alone needs more', () => {
    const q = flat({ up: 'quiet', down: 'gate' }, [{ from: 'up', to: 'down', fact: '/upstream/verdict' }], 'down');
    const first = evaluated(run(q)).nodes[0]!.work;
    expect(first).toBeGreaterThan(1);
    expect(refusedWith(run(q, {}, undefined, { workBudget: first - 1 })).node).toBe('up');
  });
  it('refuses a budget outside 1..MAX_WORK_BUDGET before anything runs', () => {
    expect(refusedWith(run(G, {}, undefined, { workBudget: 0 })).code).toBe('JPS-GRAPH-WORK-BUDGET');
    expect(refusedWith(run(G, {}, undefined, { workBudget: 1.5 })).code).toBe('JPS-GRAPH-WORK-BUDGET');
  });
});
