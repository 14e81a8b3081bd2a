/**
 * `graph validate` lists its findings in the runtime's order (graph-semantics.md A8): Structural — nodes sorted, then
 * edges by position with each edge's checks in order, then the result, then cycles — and then Semantic, whatever
 * Structural found: nodes sorted (those some feed gives evidence to), then evidence feeds by position. A feed check
 * counts every edge whose `to` is declared, whatever its `from`. One test per rule.
 */
import { describe, expect, it } from 'vitest';
import { validateGraph } from '../../core/graph/index.js';
import { bytes, flat, project } from './fixtures.js';

const found = (g: unknown, spec: Parameters<typeof project>[0] = {}): [string, string][] =>
  validateGraph(bytes(g), project(spec)).diagnostics.map((d) => [d.code, d.path]);

describe('graph validate: the runtime order of findings', () => {
  it('reports nodes sorted by id, whatever their order in the document', () => {
    expect(found(flat({ zed: 'nowhere', amy: 'missing' }, [], 'amy'))).toEqual([
      ['JPS-GRAPH-NODE-PACK', '/nodes/amy/pack'],
      ['JPS-GRAPH-NODE-PACK', '/nodes/zed/pack'],
    ]);
  });

  it('reports node findings before edge findings', () => {
    expect(found(flat({ a: 'missing' }, [{ from: 'ghost', to: 'a', fact: '/x' }], 'a'))).toEqual([
      ['JPS-GRAPH-NODE-PACK', '/nodes/a/pack'],
      ['JPS-GRAPH-EDGE-ENDPOINT', '/edges/0/from'],
    ]);
  });

  it('reports edges by position, each edge whole before the next: from, to, then self', () => {
    const g = flat(
      { a: 'source', b: 'gate' },
      [
        { from: 'b', to: 'b', fact: '/x' },
        { from: 'ghost', to: 'phantom', fact: '/x' },
      ],
      'b',
    );
    expect(found(g)).toEqual([
      ['JPS-GRAPH-EDGE-SELF', '/edges/0'],
      ['JPS-GRAPH-EDGE-ENDPOINT', '/edges/1/from'],
      ['JPS-GRAPH-EDGE-ENDPOINT', '/edges/1/to'],
    ]);
  });

  it('counts an edge with an undeclared from but a declared to for JPS-GRAPH-EDGE-DUPLICATE-FACT', () => {
    const g = flat(
      { a: 'source', b: 'gate' },
      [
        { from: 'a', to: 'b', fact: '/upstream/verdict' },
        { from: 'ghost', to: 'b', fact: '/upstream/verdict' },
      ],
      'b',
    );
    expect(found(g)).toEqual([
      ['JPS-GRAPH-EDGE-ENDPOINT', '/edges/1/from'],
      ['JPS-GRAPH-EDGE-DUPLICATE-FACT', '/edges/1/fact'],
    ]);
  });

  it('counts such an edge for overlap and duplicate evidence too, in the edge check order', () => {
    const g = flat(
      { a: 'source', b: 'evidence' },
      [
        { from: 'ghost', to: 'b', fact: '/x', evidence: { id: 'upstream-decision' } },
        { from: 'a', to: 'b', fact: '/x/y', evidence: { id: 'upstream-decision' } },
      ],
      'b',
    );
    expect(found(g)).toEqual([
      ['JPS-GRAPH-EDGE-ENDPOINT', '/edges/0/from'],
      ['JPS-GRAPH-EDGE-FACT-OVERLAP', '/edges/1/fact'],
      ['JPS-GRAPH-EDGE-DUPLICATE-EVIDENCE', '/edges/1'],
    ]);
  });

  it('reports the result node after every edge, and cycles last', () => {
    const g = flat(
      { a: 'source', b: 'source' },
      [
        { from: 'a', to: 'b', fact: '/x' },
        { from: 'b', to: 'a', fact: '/x' },
        { from: 'a', to: 'nobody', fact: '/x' },
      ],
      'missing',
    );
    expect(found(g)).toEqual([
      ['JPS-GRAPH-EDGE-ENDPOINT', '/edges/2/to'],
      ['JPS-GRAPH-RESULT-NODE', '/result'],
      ['JPS-GRAPH-CYCLE', '/edges'],
    ]);
  });

  it('appends Semantic after Structural, whatever Structural found: nodes sorted, then evidence feeds by position', () => {
    const g = flat(
      { a: 'source', z: 'gone', b: 'evidence', c: 'source' },
      [
        { from: 'ghost', to: 'b', evidence: { id: 'nope' } },
        { from: 'a', to: 'z', evidence: { id: 'whatever' } },
        { from: 'a', to: 'c', evidence: { id: 'also-nope' } },
      ],
      'b',
    );
    expect(found(g, { packs: { gone: null } })).toEqual([
      ['JPS-GRAPH-EDGE-ENDPOINT', '/edges/0/from'],
      ['JPS-GRAPH-NODE-PACK-READ', '/nodes/z/pack'],
      ['JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED', '/edges/0'],
      ['JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED', '/edges/2'],
    ]);
  });

  it('reads for Semantic only the packs of nodes some feed gives evidence to', () => {
    const g = flat({ a: 'source', z: 'gone' }, [{ from: 'a', to: 'z', fact: '/x' }], 'z');
    expect(found(g, { packs: { gone: null } })).toEqual([]);
  });
});
