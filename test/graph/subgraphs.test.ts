/**
 * Part B of graph-semantics.md (RFC 0022 live reusable subgraphs, formatVersion "0.2.0-draft"), point by point.
 */
import { describe, expect, it } from 'vitest';
import { validateGraph } from '../../core/graph/index.js';
import { bytes, digestOf, draft, evaluated, project, refusedWith, run, sub, type ProjectSpec } from './fixtures.js';

/** A subgraph: inputs /subject → gate's /upstream/verdict; output "verdict" = gate. */
const CHILD = draft({ gate: 'gate' }, [], 'gate', {
  inputs: { facts: { '/subject': { node: 'gate', pointer: '/upstream/verdict' } } },
  outputs: { verdict: { node: 'gate' } },
});
const spec = (graphs: Record<string, unknown> = {}): ProjectSpec => ({ graphs: { child: CHILD, ...graphs } });

describe('B1 the format gate', () => {
  it('admits any non-empty string as the id and a title on nodes and the root', () => {
    const g = draft({ a: { pack: 'source', title: 'A' } }, [], 'a', { id: 'urn:x', title: 'T' });
    expect(evaluated(run(g)).graphId).toBe('urn:x');
  });
  it('keeps the format "1" limits: 65 nodes are a schema refusal', () => {
    const nodes = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`n${i}`, 'source']));
    expect(refusedWith(run(draft(nodes, [], 'n0'))).code).toBe('JPS-GRAPH-SCHEMA');
  });
  it('refuses a node id containing "/" or "." by schema (B4)', () => {
    expect(refusedWith(run(draft({ 'a/b': 'source' }, [], 'a/b'))).code).toBe('JPS-GRAPH-SCHEMA');
    expect(refusedWith(run(draft({ 'a.b': 'source' }, [], 'a.b'))).code).toBe('JPS-GRAPH-SCHEMA');
  });
  it('requires the digest on a subgraph node (decision 10)', () => {
    const g = draft({ s: { subgraph: 'child' } }, [], 's');
    expect(refusedWith(run(g, spec())).code).toBe('JPS-GRAPH-SCHEMA');
  });
});

describe('B2 the interface', () => {
  const root = draft(
    { up: 'source', s: sub('child', CHILD), after: 'gate' },
    [
      { from: 'up', to: 's', fact: '/subject' },
      { from: 's', output: 'verdict', to: 'after', fact: '/upstream/verdict' },
    ],
    'after',
  );
  it('feeds an upstream outcome into the subgraph interface and reads the output downstream', () => {
    const r = evaluated(run(root, spec()));
    expect(r.nodes.map((n) => n.instancePath)).toEqual(['up', '/s/gate', 'after']);
    expect(r.nodes[1]!.factFeeds).toEqual([
      { from: 'input:/subject', pointer: '/upstream/verdict', injected: true, value: 'pass' },
    ]);
    expect(r.nodes[2]!.factFeeds).toEqual([
      { from: 's', output: 'verdict', pointer: '/upstream/verdict', injected: true, value: 'pass' },
    ]);
    expect(r.subgraphs).toEqual([
      {
        instancePath: '/s',
        subgraph: 'child',
        graphId: CHILD.id,
        graphVersion: '1.0.0',
        digest: digestOf(CHILD),
        factFeeds: [{ from: 'up', pointer: '/subject', injected: true, value: 'pass' }],
        evidenceFeeds: [],
        outputs: { verdict: { kind: 'outcome', outcomeId: 'pass', reasons: [], handoff: { state: 'none' } } },
      },
    ]);
  });
  it('copies a caller value verbatim through a caller edge, and leaves an unbound input absent', () => {
    const g = draft(
      { s: sub('child', CHILD), t: sub('child', CHILD) },
      [{ from: 'caller', fact: '/who', to: 's', input: '/subject' }],
      's',
    );
    const r = evaluated(run(g, spec(), { caller: { facts: { who: 'fail' } } }));
    expect(r.nodes[0]!.disposition).toMatchObject({ kind: 'outcome', outcomeId: 'fail' });
    // t's input is not bound at all: absent, not a refusal; gate then has no verdict.
    expect(r.nodes[1]!.factFeeds).toEqual([{ from: 'input:/subject', pointer: '/upstream/verdict', injected: false }]);
    expect(r.nodes[1]!.disposition).toMatchObject({ kind: 'unresolved', reasons: ['no-match'] });
  });
  it('refuses an edge from a subgraph node without an output, or naming an undeclared one (JPS-GRAPH-EDGE-OUTPUT)', () => {
    const noOutput = draft(
      { s: sub('child', CHILD), a: 'gate' },
      [{ from: 's', to: 'a', fact: '/upstream/verdict' }],
      'a',
    );
    expect(refusedWith(run(noOutput, spec())).diagnostic).toBe('JPS-GRAPH-EDGE-OUTPUT');
    const undeclared = draft(
      { s: sub('child', CHILD), a: 'gate' },
      [{ from: 's', output: 'nope', to: 'a', fact: '/upstream/verdict' }],
      'a',
    );
    expect(refusedWith(run(undeclared, spec())).diagnostic).toBe('JPS-GRAPH-EDGE-OUTPUT');
  });
  it('refuses an edge into a subgraph naming an undeclared interface key', () => {
    const g = draft({ up: 'source', s: sub('child', CHILD) }, [{ from: 'up', to: 's', fact: '/elsewhere' }], 's');
    expect(refusedWith(run(g, spec())).diagnostic).toBe('JPS-GRAPH-SUBGRAPH-INPUT-UNDECLARED');
  });
  it('checks inputs mappings against internal edges: an overlapping decoded pointer is refused', () => {
    const bad = draft({ up: 'source', gate: 'gate' }, [{ from: 'up', to: 'gate', fact: '/upstream' }], 'gate', {
      inputs: { facts: { '/subject': { node: 'gate', pointer: '/upstream/verdict' } } },
    });
    const d = validateGraph(bytes(bad), project()).diagnostics;
    expect(d.map((x) => [x.code, x.path])).toEqual([
      ['JPS-GRAPH-EDGE-FACT-OVERLAP', '/inputs/facts/~1subject/pointer'],
    ]);
  });
  it('refuses an inputs mapping or output naming an unknown node', () => {
    const g = draft({ a: 'source' }, [], 'a', {
      inputs: { facts: { '/x': { node: 'nobody', pointer: '/x' } } },
      outputs: { o: { node: 'ghost' } },
    });
    const codes = validateGraph(bytes(g), project()).diagnostics.map((d) => d.code);
    expect(codes).toEqual(['JPS-GRAPH-INPUT-NODE', 'JPS-GRAPH-OUTPUT-NODE']);
  });
  it('decides a caller evidence collision before evaluation for 0.2.0-draft documents (decision 5)', () => {
    const g = draft(
      { a: 'broken', up: 'source', e: 'evidence' },
      [{ from: 'up', to: 'e', evidence: { id: 'upstream-decision' } }],
      'e',
    );
    // Format "1" would meet the broken node first; here the collision is decided before anything runs.
    const e = refusedWith(run(g, {}, { e: { evidence: { 'upstream-decision': 'present' } } }));
    expect([e.code, e.node]).toEqual(['JPS-GRAPH-EVIDENCE-CONFLICT', 'e']);
  });
});

describe('B3 reference resolution and digest pinning', () => {
  const one = (node: object, graphs: Record<string, unknown> = {}) => run(draft({ s: node }, [], 's'), spec(graphs));
  it("reproduces RFC 0022's published digest from the exact example bytes", async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(
      new URL('../../examples/graphs/procurement-triage/graphs/sanctions-screening.graph.json', import.meta.url),
    );
    expect(digestOf(new TextDecoder().decode(text))).toBe(
      'sha256:47e7c8483de7dc1f8d764c50b1d83c3048bf230e4c5d5ddb228ebcb965d85406',
    );
    expect(digestOf(`${new TextDecoder().decode(text)}\n`)).toBe(
      'sha256:63c895d2e5416aed8ea45abc0b56b3bace514e03cd72e2b9289ea9d1b27bc622',
    );
  });
  it('refuses a digest mismatch before anything runs', () => {
    const e = refusedWith(one({ subgraph: 'child', digest: `sha256:${'0'.repeat(64)}` }));
    expect([e.code, e.diagnostic]).toEqual(['JPS-GRAPH-INVALID', 'JPS-GRAPH-REFERENCE-DIGEST-MISMATCH']);
  });
  it('refuses a pinned version the loaded document does not declare, and admits a matching one', () => {
    expect(refusedWith(one(sub('child', CHILD, { version: '0.2.0' }))).diagnostic).toBe(
      'JPS-GRAPH-REFERENCE-VERSION-MISMATCH',
    );
    expect(evaluated(one(sub('child', CHILD, { version: '1.0.0' }))).nodes).toHaveLength(1);
  });
  it('refuses an unknown graph name and an unreadable file', () => {
    expect(refusedWith(one(sub('nope', CHILD))).diagnostic).toBe('JPS-GRAPH-REFERENCE-UNKNOWN');
    expect(refusedWith(one(sub('child', CHILD), { child: null })).diagnostic).toBe('JPS-GRAPH-REFERENCE-READ');
  });
  it('reports a referenced document that fails its own load with its own code', () => {
    const text = '{"formatVersion":"9"}';
    expect(refusedWith(one({ subgraph: 'child', digest: digestOf(text) }, { child: text })).diagnostic).toBe(
      'JPS-GRAPH-VERSION',
    );
  });
  it('checks name, recursion, depth, read, digest, load, version, then the child structure, in that order', () => {
    // A self-reference with a wrong digest is named as recursion, not as a digest mismatch.
    const self = draft({ s: { subgraph: 'self', digest: `sha256:${'1'.repeat(64)}` } }, [], 's');
    const v = validateGraph(bytes(self), project({ graphs: { self }, rootName: 'self' }));
    expect(v.diagnostics.map((d) => d.code)).toEqual(['JPS-GRAPH-REFERENCE-CYCLE']);
    // A child with its own structural fault is reported at its instance path.
    const faulty = draft({ x: 'missing-pack' }, [], 'x');
    const w = validateGraph(bytes(draft({ s: sub('faulty', faulty) }, [], 's')), project({ graphs: { faulty } }));
    expect(w.diagnostics.map((d) => [d.code, d.path])).toEqual([['JPS-GRAPH-NODE-PACK', '/s#/nodes/x/pack']]);
  });
});

describe('B4 addresses and the reserved caller', () => {
  it('refuses a node named "caller" and a mapping naming it (JPS-GRAPH-RESERVED-NODE-ID)', () => {
    expect(refusedWith(run(draft({ caller: 'source' }, [], 'caller'))).diagnostic).toBe('JPS-GRAPH-RESERVED-NODE-ID');
    const m = draft({ a: 'source' }, [], 'a', { outputs: { o: { node: 'caller' } } });
    expect(refusedWith(run(m)).diagnostic).toBe('JPS-GRAPH-RESERVED-NODE-ID');
  });
  it('refuses a caller edge inside a subgraph (JPS-GRAPH-CALLER-EDGE-IN-SUBGRAPH)', () => {
    const inner = draft(
      { gate: 'gate' },
      [{ from: 'caller', fact: '/x', to: 'gate', input: '/upstream/verdict' }],
      'gate',
    );
    const e = refusedWith(run(draft({ s: sub('inner', inner) }, [], 's'), { graphs: { inner } }));
    expect(e.diagnostic).toBe('JPS-GRAPH-CALLER-EDGE-IN-SUBGRAPH');
    // The same document run as the root admits its caller edge.
    expect(evaluated(run(inner, {}, { caller: { facts: { x: 'pass' } } })).disposition).toMatchObject({
      outcomeId: 'pass',
    });
  });
  it('refuses a per-node inputs entry for a subgraph node (JPS-GRAPH-INPUTS-SUBGRAPH-NODE)', () => {
    const e = refusedWith(run(draft({ s: sub('child', CHILD) }, [], 's'), spec(), { s: {} }));
    expect([e.layer, e.code, e.exit]).toEqual(['invocation', 'JPS-GRAPH-INPUTS-SUBGRAPH-NODE', 3]);
  });
  it("binds a root document's own inputs from the caller document, so a subgraph can run on its own", () => {
    const r = evaluated(run(CHILD, {}, { caller: { facts: { subject: 'fail' } } }));
    expect(r.nodes[0]!.factFeeds[0]).toEqual({
      from: 'input:/subject',
      pointer: '/upstream/verdict',
      injected: true,
      value: 'fail',
    });
  });
  it('names root nodes by local id and nested ones by instance path', () => {
    const mid = draft({ inner: sub('child', CHILD) }, [], 'inner', {
      outputs: { v: { node: 'inner', output: 'verdict' } },
    });
    const r = evaluated(run(draft({ a: 'source', m: sub('mid', mid) }, [], 'm'), spec({ mid })));
    expect(r.nodes.map((n) => n.instancePath)).toEqual(['a', '/m/inner/gate']);
    expect(r.headline).toEqual({ node: '/m/inner/gate', disposition: r.nodes[1]!.disposition });
  });
});

describe('B5 acyclicity and limits', () => {
  it('refuses mutual reference recursion A → B → A', () => {
    const b = draft({ back: { subgraph: 'a', digest: `sha256:${'2'.repeat(64)}` } }, [], 'back');
    const a = draft({ fwd: sub('b', b) }, [], 'fwd');
    const v = validateGraph(bytes(a), project({ graphs: { a, b }, rootName: 'a' }));
    expect(v.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['JPS-GRAPH-REFERENCE-CYCLE', '/fwd#/nodes/back/subgraph'],
    ]);
  });
  it('refuses a dataflow cycle through a subgraph node standing as one node', () => {
    const g = draft(
      { x: 'gate', s: sub('child', CHILD) },
      [
        { from: 'x', to: 's', fact: '/subject' },
        { from: 's', output: 'verdict', to: 'x', fact: '/upstream/verdict' },
      ],
      'x',
    );
    expect(refusedWith(run(g, spec())).diagnostic).toBe('JPS-GRAPH-CYCLE');
  });
  /** A chain of `levels` wrappers over CHILD: level k references level k-1; level 0 is CHILD. */
  const chain = (levels: number) => {
    const graphs: Record<string, unknown> = { l0: CHILD };
    let prev: unknown = CHILD;
    for (let k = 1; k <= levels; k++) {
      const d = draft({ n: sub(`l${k - 1}`, prev) }, [], 'n', {
        outputs: { verdict: { node: 'n', output: 'verdict' } },
      });
      graphs[`l${k}`] = d;
      prev = d;
    }
    return { graphs, top: prev };
  };
  it('admits depth 8 and refuses a subgraph at depth 9 before it is read', () => {
    const ok = chain(7); // root → l7 (depth 1) … → l0 (depth 8)
    const r = evaluated(run(draft({ s: sub('l7', ok.top) }, [], 's'), { graphs: ok.graphs }));
    expect(r.nodes[0]!.instancePath).toBe('/s/n/n/n/n/n/n/n/gate');
    const deep = chain(8);
    const v = validateGraph(bytes(draft({ s: sub('l8', deep.top) }, [], 's')), project({ graphs: deep.graphs }));
    expect(v.diagnostics.map((d) => d.code)).toEqual(['JPS-GRAPH-DEPTH-LIMIT']);
  });
  it('admits 256 leaf instances counted k × m and refuses 257, after every other finding', () => {
    const sixteen = draft(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`p${i}`, 'source'])), [], 'p0');
    const wrap = (n: number) =>
      draft(Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, sub('sixteen', sixteen)])), [], 's0');
    expect(evaluated(run(wrap(16), { graphs: { sixteen } })).nodes).toHaveLength(256);
    const over = { ...wrap(16), nodes: { ...wrap(16).nodes, extra: { pack: 'source' }, bad: { pack: 'nope' } } };
    const v = validateGraph(bytes(over), project({ graphs: { sixteen } }));
    expect(v.diagnostics.map((d) => d.code)).toEqual(['JPS-GRAPH-NODE-PACK', 'JPS-GRAPH-NODE-BUDGET']);
  });
  it('answers a graph bomb with JPS-GRAPH-NODE-BUDGET after bounded work', () => {
    let prev: unknown = draft(Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`p${i}`, 'source'])), [], 'p0');
    const graphs: Record<string, unknown> = { g0: prev };
    for (let k = 1; k <= 8; k++) {
      const d = draft(
        Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`s${i}`, sub(`g${k - 1}`, prev)])),
        [],
        's0',
      );
      graphs[`g${k}`] = d;
      prev = d;
    }
    const started = Date.now();
    expect(refusedWith(run(prev, { graphs })).diagnostic).toBe('JPS-GRAPH-NODE-BUDGET');
    expect(Date.now() - started).toBeLessThan(30_000); // 64^8 instances are never walked
  });
});

describe('B6 and B7 hierarchical evaluation, dispositions and handoffs', () => {
  const leafTarget = draft({ g: 'gate' }, [], 'g', { outputs: { verdict: { node: 'g' } } });
  it('keeps a target containing "/" verbatim and puts the instance path beside it', () => {
    const r = evaluated(run(draft({ s: sub('lt', leafTarget) }, [], 's'), { graphs: { lt: leafTarget } }));
    expect(r.handoffs).toEqual([
      { originatingNode: '/s/g', triggeredBy: ['no-match'], target: { kind: 'queue', name: 'Gate Queue / Tier 2' } },
    ]);
    expect(r.handoffTarget).toEqual({ kind: 'queue', name: 'Gate Queue / Tier 2' });
  });
  it('omits the target of a destinationless request', () => {
    const r = evaluated(run(draft({ d: 'direct' }, [], 'd')));
    expect(r.handoffs).toEqual([{ originatingNode: 'd', triggeredBy: ['exception-escalation'] }]);
  });
  it('runs the whole subgraph at its node, then resumes the parent', () => {
    const two = draft({ b: 'source', a: 'source' }, [], 'a', { outputs: { verdict: { node: 'a' } } });
    const g = draft({ z: 'source', m: sub('two', two), a: 'source' }, [], 'a');
    expect(evaluated(run(g, { graphs: { two } })).nodes.map((n) => n.instancePath)).toEqual(['a', '/m/a', '/m/b', 'z']);
  });
  it('refuses on the first failing leaf in hierarchical order, with its class and instance path', () => {
    const failing = draft({ x: 'ext' }, [], 'x', { outputs: { verdict: { node: 'x' } } });
    const g = draft({ m: sub('failing', failing), z: 'broken' }, [], 'z');
    const e = refusedWith(run(g, { graphs: { failing } }));
    expect([e.layer, e.class, e.phase, e.node]).toEqual([
      'node',
      'unsupported-required-extension',
      'preflight',
      '/m/x',
    ]);
  });
});
