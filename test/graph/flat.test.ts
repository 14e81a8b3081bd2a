/**
 * Part A of graph-semantics.md (the runtime's flat format "1"), point by point, on hand-written graphs.
 */
import { describe, expect, it } from 'vitest';
import { evaluateGraph, validateGraph } from '../../core/graph/index.js';
import { EXIT } from '../../core/exit-codes.js';
import { bytes, evaluated, flat, project, refusedWith, run } from './fixtures.js';

const CHAIN = flat({ up: 'source', down: 'gate' }, [{ from: 'up', to: 'down', fact: '/upstream/verdict' }], 'down');

describe('A1 loading a graph document', () => {
  const load = (text: string | Uint8Array) =>
    refusedWith(run(typeof text === 'string' ? text : new TextDecoder().decode(text), {}));

  it('refuses a document over 1 MiB with JPS-RESOURCE-GRAPH-BYTE-LIMIT, exit 4, before reading it', () => {
    const e = load(' '.repeat(1_048_577));
    expect([e.layer, e.code, e.exit, e.class]).toEqual(['load', 'JPS-RESOURCE-GRAPH-BYTE-LIMIT', 4, null]);
  });
  it('refuses an empty document with JPS-GRAPH-JSON, exit 3', () => {
    expect([load('').code, load('').exit]).toEqual(['JPS-GRAPH-JSON', 3]);
  });
  it('refuses duplicate member names through the strict carrier with JPS-GRAPH-JSON, exit 3', () => {
    const e = load('{"formatVersion":"1","formatVersion":"1"}');
    expect([e.code, e.exit]).toEqual(['JPS-GRAPH-JSON', 3]);
  });
  it('refuses a root that is not an object with JPS-GRAPH-SCHEMA, exit 1', () => {
    expect([load('[]').code, load('[]').exit]).toEqual(['JPS-GRAPH-SCHEMA', 1]);
  });
  it('gates formatVersion before the schema: missing or not a string is exit 1, an unknown value exit 2', () => {
    expect([load('{}').code, load('{}').exit]).toEqual(['JPS-GRAPH-VERSION', 1]);
    expect([load('{"formatVersion":1}').code, load('{"formatVersion":1}').exit]).toEqual(['JPS-GRAPH-VERSION', 1]);
    const e = load('{"formatVersion":"2","nonsense":true}');
    expect([e.code, e.exit]).toEqual(['JPS-GRAPH-VERSION', 2]);
  });
  it('refuses a schema violation with JPS-GRAPH-SCHEMA, exit 1: an edge with neither fact nor evidence', () => {
    const e = load(JSON.stringify(flat({ a: 'source', b: 'source' }, [{ from: 'a', to: 'b' }], 'a')));
    expect([e.code, e.exit]).toEqual(['JPS-GRAPH-SCHEMA', 1]);
  });
  it('refuses RFC 0022 members in a format "1" document by schema (B1)', () => {
    const g = flat({ a: 'source' }, [], 'a', { outputs: { o: { node: 'a' } } });
    expect(refusedWith(run(g)).code).toBe('JPS-GRAPH-SCHEMA');
  });
  it('records the SHA-256 of the exact loaded bytes', () => {
    const r = evaluated(run(CHAIN));
    expect(r.graphDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(evaluated(run(JSON.stringify(CHAIN) + '\n')).graphDigest).not.toBe(r.graphDigest);
  });
});

describe('A2 feeds', () => {
  it('writes the upstream outcome id verbatim at the pointer, creating intermediates as objects', () => {
    const r = evaluated(run(CHAIN));
    const down = r.nodes.find((n) => n.node === 'down')!;
    expect(down.factFeeds).toEqual([{ from: 'up', pointer: '/upstream/verdict', injected: true, value: 'pass' }]);
    expect(down.disposition).toMatchObject({ kind: 'outcome', outcomeId: 'pass' });
  });
  it('decodes pointer tokens ~1 then ~0, and a numeric token names an object member', () => {
    const quietOn = (pointer: string) =>
      flat({ up: 'source', q: 'quiet' }, [{ from: 'up', to: 'q', fact: pointer }], 'q');
    const r = evaluated(run(quietOn('/a~1b~0c/0'), {}, { q: { facts: { 'a/b~c': {} } } }));
    // The caller's object at "a/b~c" gains the member "0": a member, not an array element.
    expect(r.nodes[1]!.factFeeds[0]).toEqual({ from: 'up', pointer: '/a~1b~0c/0', injected: true, value: 'pass' });
  });
  it('keeps the caller facts of the node and adds the fed value beside them', () => {
    const g = flat({ up: 'source', q: 'quiet' }, [{ from: 'up', to: 'q', fact: '/x' }], 'q');
    // quiet passes when /x is "y"; the upstream writes "pass" there, so it does not.
    const r = evaluated(run(g, {}, { q: { facts: { other: 1 } } }));
    expect(r.nodes[1]!.disposition).toMatchObject({ kind: 'unresolved', reasons: ['no-match'] });
  });
  it('gives a node with no inputs entry the facts {} and no evidence document', () => {
    const r = evaluated(run(flat({ e: 'evidence' }, [], 'e')));
    // Required evidence with no document is unknown (§8.2), so the pack escalates on "unknown".
    expect(r.nodes[0]!.disposition).toMatchObject({ kind: 'unresolved', reasons: ['unknown'] });
  });
  it('contributes "present" for an evidence feed from an outcome', () => {
    const g = flat(
      { up: 'source', e: 'evidence' },
      [{ from: 'up', to: 'e', evidence: { id: 'upstream-decision' } }],
      'e',
    );
    const r = evaluated(run(g));
    expect(r.nodes[1]!.evidenceFeeds).toEqual([{ from: 'up', requirement: 'upstream-decision', state: 'present' }]);
    expect(r.nodes[1]!.disposition).toMatchObject({ kind: 'outcome', outcomeId: 'pass' });
  });
  it('applies --supported-extension to every node alike', () => {
    const g = flat({ a: 'ext', b: 'ext' }, [], 'b');
    expect(evaluated(run(g, {}, undefined, { ext: ['com.example.needed'] })).nodes).toHaveLength(2);
  });
});

describe('A3 an upstream without an outcome', () => {
  const g = flat(
    { up: 'quiet', down: 'gate', e: 'evidence', e2: 'evidence' },
    [
      { from: 'up', to: 'down', fact: '/upstream/verdict' },
      { from: 'up', to: 'e', evidence: { id: 'upstream-decision' } },
      { from: 'up', to: 'e2', evidence: { id: 'upstream-decision', onUnresolved: 'absent' } },
    ],
    'down',
  );
  const r = evaluated(run(g));
  const node = (id: string) => r.nodes.find((n) => n.node === id)!;

  it('injects nothing through a fact edge: the pointer stays absent and the feed says injected:false', () => {
    expect(node('down').factFeeds).toEqual([{ from: 'up', pointer: '/upstream/verdict', injected: false }]);
    expect(node('down').disposition).toMatchObject({ kind: 'unresolved', reasons: ['no-match'] });
  });
  it('contributes onUnresolved through an evidence edge: "unknown" by default, "absent" when declared', () => {
    expect(node('e').evidenceFeeds[0]!.state).toBe('unknown');
    expect(node('e').disposition).toMatchObject({ reasons: ['unknown'] });
    expect(node('e2').evidenceFeeds[0]!.state).toBe('absent');
    expect(node('e2').disposition).toMatchObject({ reasons: ['missing-required-evidence'] });
  });
  it('does not propagate an upstream escalation: the downstream sees only "no outcome"', () => {
    const esc = flat({ up: 'direct', down: 'gate' }, [{ from: 'up', to: 'down', fact: '/upstream/verdict' }], 'down');
    const e = evaluated(run(esc));
    expect(e.nodes[1]!.factFeeds[0]!.injected).toBe(false);
    expect(e.handoffs.map((h) => h.node)).toEqual(['up', 'down']);
  });
  it('refuses the whole run on an engine error, keeping its §8.4 class and phase and naming the node', () => {
    const bad = flat({ a: 'source', b: 'broken' }, [{ from: 'a', to: 'b', fact: '/x' }], 'a');
    const e = refusedWith(run(bad));
    expect([e.layer, e.class, e.phase, e.node]).toEqual(['node', 'pack-not-conformant', 'preflight', 'b']);
    const ext = refusedWith(run(flat({ a: 'ext' }, [], 'a')));
    expect([ext.class, ext.node, ext.exit]).toEqual(['unsupported-required-extension', 'a', EXIT.GRAPH_UNSUPPORTED]);
  });
  it('refuses an unreadable pack when its node runs: JPS-GRAPH-NODE-PACK-READ, exit 4, no class', () => {
    const e = refusedWith(run(flat({ a: 'source', z: 'gone' }, [], 'a'), { packs: { gone: null } }));
    expect([e.layer, e.code, e.exit, e.class, e.node]).toEqual(['node-read', 'JPS-GRAPH-NODE-PACK-READ', 4, null, 'z']);
  });
  it('gives malformed-input on the node when an evidence feed names an undeclared requirement', () => {
    const g2 = flat({ a: 'source', b: 'source' }, [{ from: 'a', to: 'b', evidence: { id: 'nope' } }], 'b');
    const e = refusedWith(run(g2));
    expect([e.class, e.phase, e.node]).toEqual(['malformed-input', 'preflight', 'b']);
  });
});

describe('A4 evaluation order', () => {
  it('runs Kahn order taking the smallest ready id first, whatever the document order', () => {
    const g = flat(
      { zeta: 'source', beta: 'quiet', alpha: 'gate', mid: 'source' },
      [{ from: 'zeta', to: 'alpha', fact: '/upstream/verdict' }],
      'alpha',
    );
    expect(evaluated(run(g)).nodes.map((n) => n.node)).toEqual(['beta', 'mid', 'zeta', 'alpha']);
  });
  it('evaluates every node, even one nothing reads', () => {
    const g = flat({ a: 'source', lonely: 'direct' }, [], 'a');
    expect(evaluated(run(g)).nodes.map((n) => n.node)).toEqual(['a', 'lonely']);
  });
  it('stops at the first failing node in that order', () => {
    const g = flat({ b: 'broken', a: 'ext' }, [], 'b');
    expect(refusedWith(run(g)).node).toBe('a');
  });
});

describe('A5 and A6 the envelope, the result node and handoffs', () => {
  const g = flat(
    { up: 'direct', down: 'gate', after: 'source' },
    [
      { from: 'up', to: 'down', fact: '/upstream/verdict' },
      { from: 'down', to: 'after', fact: '/v' },
    ],
    'down',
  );
  const r = evaluated(run(g));
  it('echoes the result node disposition and its handoff target, even for an interior node', () => {
    expect(r.resultNode).toBe('down');
    expect(r.disposition).toEqual({
      kind: 'unresolved',
      reasons: ['no-match'],
      handoff: { state: 'requested', triggeredBy: ['no-match'] },
    });
    expect(r.handoffTarget).toEqual({ kind: 'queue', name: 'Gate Queue / Tier 2' });
    expect(r.nodes).toHaveLength(3);
  });
  it('aggregates every requested handoff in evaluation order; a direct escalation has no target member', () => {
    expect(r.handoffs).toEqual([
      { node: 'up', triggeredBy: ['exception-escalation'] },
      { node: 'down', triggeredBy: ['no-match'], target: { kind: 'queue', name: 'Gate Queue / Tier 2' } },
    ]);
    expect('target' in r.handoffs[0]!).toBe(false);
  });
  it('reports the pack identity beside each node and has no headline or subgraphs for format "1"', () => {
    expect(r.nodes[0]).toMatchObject({
      pack: 'direct',
      packId: 'https://packs.example.org/direct',
      packVersion: '1.0.0',
      specVersion: '0.3.0',
    });
    expect(r.headline).toBeUndefined();
    expect(r.subgraphs).toBeUndefined();
  });
});

describe('A7 conflicts are refused, never merged', () => {
  const g = flat({ up: 'quiet', down: 'gate' }, [{ from: 'up', to: 'down', fact: '/upstream/verdict' }], 'down');
  it('names the node whose inputs collide in error.node, for every invocation-layer collision', () => {
    const node = (inputs: object, graph: object = g) => refusedWith(run(graph, {}, inputs)).node;
    expect(node({ down: { facts: { upstream: { verdict: 'pass' } } } })).toBe('down');
    expect(node({ down: { facts: { upstream: [] } } })).toBe('down');
    expect(node({ down: { facts: 7 } })).toBe('down');
    // The pointer is compared after RFC 6901 unescaping: "/a~1b" is the member "a/b".
    const esc = flat({ up: 'quiet', down: 'gate' }, [{ from: 'up', to: 'down', fact: '/a~1b' }], 'down');
    const e = refusedWith(run(esc, {}, { down: { facts: { 'a/b': 'x' } } }));
    expect([e.code, e.node]).toEqual(['JPS-GRAPH-FACT-CONFLICT', 'down']);
    const ge = flat(
      { up: 'source', e: 'evidence' },
      [{ from: 'up', to: 'e', evidence: { id: 'upstream-decision' } }],
      'e',
    );
    const ev = refusedWith(run(ge, {}, { e: { evidence: { 'upstream-decision': 'present' } } }));
    expect([ev.code, ev.node]).toEqual(['JPS-GRAPH-EVIDENCE-CONFLICT', 'e']);
  });
  it('refuses a caller value at a fed pointer before any node runs, even when the upstream produces nothing', () => {
    const e = refusedWith(run(g, {}, { down: { facts: { upstream: { verdict: 'pass' } } } }));
    expect([e.layer, e.code, e.exit]).toEqual(['invocation', 'JPS-GRAPH-FACT-CONFLICT', 3]);
  });
  it('refuses an intermediate that is not an object, and non-object facts under a fact edge', () => {
    expect(refusedWith(run(g, {}, { down: { facts: { upstream: [] } } })).code).toBe('JPS-GRAPH-FACT-CONFLICT');
    expect(refusedWith(run(g, {}, { down: { facts: 7 } })).code).toBe('JPS-GRAPH-FACT-CONFLICT');
  });
  it('lets a fact conflict win over a node error that would come first', () => {
    const g2 = flat(
      { a: 'broken', up: 'source', down: 'gate' },
      [{ from: 'up', to: 'down', fact: '/upstream/verdict' }],
      'down',
    );
    expect(refusedWith(run(g2, {}, { down: { facts: { upstream: { verdict: 1 } } } })).code).toBe(
      'JPS-GRAPH-FACT-CONFLICT',
    );
  });
  it('checks an evidence feed against the caller evidence when the node runs, so an earlier node error wins', () => {
    const ge = flat(
      { up: 'source', e: 'evidence' },
      [{ from: 'up', to: 'e', evidence: { id: 'upstream-decision' } }],
      'e',
    );
    const inputs = { e: { evidence: { 'upstream-decision': 'present' } } };
    expect(refusedWith(run(ge, {}, inputs)).code).toBe('JPS-GRAPH-EVIDENCE-CONFLICT');
    const withError = flat(
      { a: 'broken', up: 'source', e: 'evidence' },
      [{ from: 'up', to: 'e', evidence: { id: 'upstream-decision' } }],
      'e',
    );
    expect(refusedWith(run(withError, {}, inputs)).class).toBe('pack-not-conformant');
  });
  it('admits one pointer fed on two different targets', () => {
    const g3 = flat(
      { up: 'source', d1: 'gate', d2: 'gate' },
      [
        { from: 'up', to: 'd1', fact: '/upstream/verdict' },
        { from: 'up', to: 'd2', fact: '/upstream/verdict' },
      ],
      'd1',
    );
    expect(evaluated(run(g3)).nodes).toHaveLength(3);
  });
});

describe('A8 structural diagnostics in their documented order', () => {
  const codes = (g: unknown) => validateGraph(bytes(g), project()).diagnostics.map((d) => d.code);
  it('lists nodes sorted, then edges by position, then the result node, then cycles', () => {
    const g = flat(
      { b: 'nope', a: 'nope2', c: 'source', d: 'source' },
      [
        { from: 'x', to: 'y', fact: '/a' },
        { from: 'c', to: 'c', fact: '/a' },
        { from: 'c', to: 'd', fact: '/a' },
        { from: 'c', to: 'd', fact: '/a' },
        { from: 'c', to: 'd', fact: `/${Array.from({ length: 65 }, () => 't').join('/')}` },
        { from: 'd', to: 'c', fact: '/p~0q' },
        { from: 'd', to: 'c', fact: '/p~0q/r' },
        { from: 'd', to: 'c', evidence: { id: 'e' } },
        { from: 'd', to: 'c', evidence: { id: 'e' } },
      ],
      'zzz',
    );
    expect(codes(g)).toEqual([
      'JPS-GRAPH-NODE-PACK',
      'JPS-GRAPH-NODE-PACK',
      'JPS-GRAPH-EDGE-ENDPOINT',
      'JPS-GRAPH-EDGE-ENDPOINT',
      'JPS-GRAPH-EDGE-SELF',
      'JPS-GRAPH-EDGE-DUPLICATE-FACT',
      'JPS-GRAPH-FACT-POINTER-DEPTH',
      'JPS-GRAPH-EDGE-FACT-OVERLAP',
      'JPS-GRAPH-EDGE-DUPLICATE-EVIDENCE',
      'JPS-GRAPH-RESULT-NODE',
      'JPS-GRAPH-CYCLE',
      // validate's own semantic checks come after every structural finding
      'JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED',
      'JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED',
    ]);
    const paths = validateGraph(bytes(g), project()).diagnostics.map((d) => d.path);
    expect(paths.slice(0, 4)).toEqual(['/nodes/a/pack', '/nodes/b/pack', '/edges/0/from', '/edges/0/to']);
  });
  it('refuses evaluation with JPS-GRAPH-INVALID carrying the first diagnostic, exit 1', () => {
    const e = refusedWith(
      run(
        flat(
          { a: 'source', b: 'source' },
          [
            { from: 'a', to: 'b', fact: '/x' },
            { from: 'b', to: 'a', fact: '/x' },
          ],
          'a',
        ),
      ),
    );
    expect([e.layer, e.code, e.diagnostic, e.exit]).toEqual(['structure', 'JPS-GRAPH-INVALID', 'JPS-GRAPH-CYCLE', 1]);
  });
  it('names only the members of a cycle, never a node blocked behind it', () => {
    const g = flat(
      { a: 'source', b: 'source', c: 'source' },
      [
        { from: 'a', to: 'b', fact: '/x' },
        { from: 'b', to: 'a', fact: '/x' },
        { from: 'b', to: 'c', fact: '/x' },
      ],
      'a',
    );
    const d = validateGraph(bytes(g), project()).diagnostics;
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toMatch(/through a, b \(A8\)$/);
  });
  it('adds the validate-only semantic checks: an undeclared evidence requirement and an unreadable pack', () => {
    const g = flat(
      { a: 'source', b: 'source', z: 'gone' },
      [
        { from: 'a', to: 'b', evidence: { id: 'nope' } },
        { from: 'a', to: 'z', evidence: { id: 'any' } },
      ],
      'a',
    );
    const v = validateGraph(bytes(g), project({ packs: { gone: null } }));
    expect(v.diagnostics.map((d) => d.code)).toEqual([
      'JPS-GRAPH-NODE-PACK-READ',
      'JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED',
    ]);
    expect(v.exit).toBe(1);
  });
  it('answers valid with no diagnostics and exit 0', () => {
    expect(validateGraph(bytes(CHAIN), project())).toEqual({ status: 'valid', diagnostics: [], exit: 0 });
  });
});

describe('A10 the inputs document', () => {
  const raw = (text: string) => {
    const e = refusedWith(evaluateRaw(text));
    return [e.code, e.exit];
  };
  it('checks in the A10 order with its codes and exits', () => {
    expect(raw('')).toEqual(['JPS-GRAPH-INPUTS-JSON', 3]);
    expect(raw('{"a":1,"a":2}')).toEqual(['JPS-GRAPH-INPUTS-JSON', 3]);
    expect(raw('[]')).toEqual(['JPS-GRAPH-INPUTS-SHAPE', 3]);
    expect(raw('{"nobody":{}}')).toEqual(['JPS-GRAPH-INPUTS-NODE', 3]);
    expect(raw('{"caller":{}}')).toEqual(['JPS-GRAPH-INPUTS-NODE', 3]);
    expect(raw('{"up":[]}')).toEqual(['JPS-GRAPH-INPUTS-SHAPE', 3]);
    expect(raw('{"up":{"fact":{}}}')).toEqual(['JPS-GRAPH-INPUTS-MEMBER', 3]);
    expect(raw('{"up":{"evidence":[]}}')).toEqual(['JPS-GRAPH-INPUTS-EVIDENCE', 3]);
    expect(raw(`${'['.repeat(70)}${']'.repeat(70)}`)).toEqual(['JPS-RESOURCE-DEPTH', 3]);
  });
  it('walks names in sorted order, each name checked whole before the next', () => {
    expect(raw('{"up":{"x":1},"down":[]}')).toEqual(['JPS-GRAPH-INPUTS-SHAPE', 3]);
  });
  it('refuses an inputs document over 16 MiB with exit 4', () => {
    expect(raw(' '.repeat(16 * 1024 * 1024 + 1))).toEqual(['JPS-RESOURCE-GRAPH-INPUTS-BYTE-LIMIT', 4]);
  });
});

function evaluateRaw(inputs: string) {
  return evaluateGraph({
    graph: bytes(CHAIN),
    project: project(),
    inputs: bytes(inputs),
    supportedExtensions: new Set(),
  });
}

describe('A7 a node document past the carrier limits (ADR 0315)', () => {
  const g = flat({ up: 'source', q: 'quiet' }, [{ from: 'up', to: 'q', fact: '/fed' }], 'q');
  it('hands facts over 2 MiB to the engine, which refuses them as malformed-input in preflight on that node', () => {
    const big = 'x'.repeat(700_000); // under the 1 MiB string limit; three of them pass 2 MiB
    const e = refusedWith(run(g, {}, { q: { facts: { a: big, b: big, c: big } } }));
    expect([e.layer, e.class, e.phase, e.node, e.code]).toEqual([
      'node',
      'malformed-input',
      'preflight',
      'q',
      'facts-limit-document-bytes',
    ]);
  });
  it('refuses a feed that grows a caller object past 10,000 members the same way', () => {
    const members = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`m${i}`, 0]));
    const e = refusedWith(run(g, {}, { q: { facts: members } }));
    expect([e.class, e.code]).toEqual(['malformed-input', 'facts-limit-collection-size']);
  });
  it('admits the same documents one member and some bytes smaller', () => {
    const members = Object.fromEntries(Array.from({ length: 9_999 }, (_, i) => [`m${i}`, 0]));
    expect(evaluated(run(g, {}, { q: { facts: members } })).nodes).toHaveLength(2);
    expect(evaluated(run(g, {}, { q: { facts: { big: 'x'.repeat(1_000_000) } } })).nodes).toHaveLength(2);
  });
});

describe('hostile documents', () => {
  it('treats prototype-named members as data: an inputs entry "__proto__" is an undeclared node', () => {
    expect(refusedWith(evaluateRaw('{"__proto__":{"facts":{}}}')).code).toBe('JPS-GRAPH-INPUTS-NODE');
  });
  it('feeds a pointer through "__proto__" and "constructor" as ordinary members', () => {
    const g = flat({ up: 'source', q: 'quiet' }, [{ from: 'up', to: 'q', fact: '/__proto__/constructor' }], 'q');
    const r = evaluateGraph({
      graph: bytes(g),
      project: project(),
      inputs: bytes('{"q":{"facts":{"__proto__":{"x":1}}}}'),
      supportedExtensions: new Set(),
    });
    expect(evaluated(r).nodes[1]!.factFeeds[0]).toEqual({
      from: 'up',
      pointer: '/__proto__/constructor',
      injected: true,
      value: 'pass',
    });
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });
  it('refuses a node id outside the decision-id grammar before anything runs', () => {
    const text =
      '{"formatVersion":"1","id":"g","version":"1.0.0","nodes":{"__proto__":{"pack":"source"}},"edges":[],"result":"a"}';
    expect(refusedWith(run(text)).code).toBe('JPS-GRAPH-SCHEMA');
    expect(refusedWith(run(flat({ 'A B': 'source' }, [], 'A B'))).code).toBe('JPS-GRAPH-SCHEMA');
  });
});
