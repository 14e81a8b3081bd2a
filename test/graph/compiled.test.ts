/**
 * Compiled graphs (ADR 0380): a graph compiled once and run many times answers exactly the bytes a fresh compilation
 * answers, on every conformance graph and on hostile inputs, and the memo evaluateGraph keeps is keyed by the
 * digests of every file a compiled graph read, so a project whose bytes differ never gets another project's graph.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bytesDigest,
  compileGraph,
  evaluateCompiledGraph,
  evaluateGraph,
  graphRunJson,
  type GraphProject,
  type SourceFile,
} from '../../core/graph/index.js';
import { type GraphRunInput } from '../../core/graph/run.js';
import { bytes, digestOf, draft, flat, PACKS, project, refusedWith, sub } from './fixtures.js';

const NONE: ReadonlySet<string> = new Set();

/** What a run answers when its graph is compiled afresh for it: the reference every reuse must equal. */
const fresh = (graph: Uint8Array, proj: GraphProject, input: GraphRunInput): string =>
  graphRunJson(evaluateCompiledGraph(compileGraph({ graph, project: proj }), input));

// ---------------------------------------------------------------------------------------------------------------
// The conformance graphs, read as the conformance runner reads them (conformance/graph-runner.ts)

const DIR = resolve(import.meta.dirname, '../../conformance/graph');

interface Row {
  id: string;
  command: string;
  config?: string;
  graph: string;
  inputs?: string;
  supportedExtensions?: string[];
  workBudget?: number;
}
const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as {
  defaults: { config: string };
  cases: Row[];
};

const file = (path: string): SourceFile => {
  try {
    return { ok: true, bytes: new Uint8Array(readFileSync(path)) };
  } catch (e) {
    return { ok: false, message: (e as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
};

function rowProject(row: Row): GraphProject {
  const configPath = join(DIR, row.config ?? manifest.defaults.config);
  const cfg = JSON.parse(readFileSync(configPath, 'utf8')) as {
    packs: Record<string, { path: string }>;
    graphs?: Record<string, { path: string }>;
  };
  const base = dirname(configPath);
  const table = (t: Record<string, { path: string }> = {}) =>
    new Map(Object.entries(t).map(([k, v]) => [k, file(resolve(base, v.path))] as const));
  const graphPath = resolve(DIR, row.graph);
  const rootName = Object.entries(cfg.graphs ?? {}).find(([, v]) => resolve(base, v.path) === graphPath)?.[0];
  return { packs: table(cfg.packs), graphs: table(cfg.graphs), ...(rootName !== undefined ? { rootName } : {}) };
}

const rows = manifest.cases
  .filter((c) => c.command === 'evaluate')
  .map((c) => {
    const graph = file(join(DIR, c.graph));
    const inputs = c.inputs === undefined ? undefined : file(join(DIR, c.inputs));
    if (!graph.ok || (inputs !== undefined && !inputs.ok)) throw new Error(`cannot read row ${c.id}`);
    const input: GraphRunInput = {
      ...(inputs?.ok === true ? { inputs: inputs.bytes } : {}),
      supportedExtensions: new Set(c.supportedExtensions ?? []),
      ...(c.workBudget !== undefined ? { workBudget: c.workBudget } : {}),
    };
    return { id: c.id, graph: graph.bytes, project: rowProject(c), input };
  });

describe('a compiled graph answers the bytes of a fresh compilation on every conformance graph', () => {
  it('the corpus has evaluate rows to compare', () => {
    expect(rows.length).toBeGreaterThan(40);
  });

  it.each(rows.map((r, i) => [r.id, i] as const))(
    '%s: compiled once and run between other rows inputs, evaluateGraph, and a fresh compile agree',
    (_, i) => {
      const row = rows[i]!;
      const reference = fresh(row.graph, row.project, row.input);
      const compiled = compileGraph({ graph: row.graph, project: row.project });
      expect(graphRunJson(evaluateCompiledGraph(compiled, row.input))).toBe(reference);
      // Runs with other rows' inputs (refused or evaluated) leave nothing behind in the compiled graph.
      for (const k of [1, 7, 13, 29]) evaluateCompiledGraph(compiled, rows[(i + k) % rows.length]!.input);
      expect(graphRunJson(evaluateCompiledGraph(compiled, row.input))).toBe(reference);
      expect(graphRunJson(evaluateGraph({ graph: row.graph, project: row.project, ...row.input }))).toBe(reference);
      expect(graphRunJson(evaluateGraph({ graph: row.graph, project: row.project, ...row.input }))).toBe(reference);
    },
  );

  it('each row also agrees under a budget of 1, 7 and 50 units and without inputs', () => {
    for (const row of rows) {
      const compiled = compileGraph({ graph: row.graph, project: row.project });
      for (const input of [
        { ...row.input, workBudget: 1 },
        { ...row.input, workBudget: 7 },
        { ...row.input, workBudget: 50 },
        { supportedExtensions: row.input.supportedExtensions },
      ])
        expect(graphRunJson(evaluateCompiledGraph(compiled, input)), row.id).toBe(fresh(row.graph, row.project, input));
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Hostile inputs against one compiled graph

describe('a compiled graph keeps no state from one run to the next', () => {
  const g = bytes(flat({ a: 'source', b: 'gate' }, [{ from: 'a', to: 'b', fact: '/upstream/verdict' }], 'b'));
  const proj = project();
  const compiled = compileGraph({ graph: g, project: proj });
  const good = { inputs: bytes({ b: { facts: { other: 1 } } }), supportedExtensions: NONE };
  const hostile: GraphRunInput[] = [
    // A7: the caller already supplies the fed pointer.
    { inputs: bytes({ b: { facts: { upstream: { verdict: 'fail' } } } }), supportedExtensions: NONE },
    // A7: an intermediate on the fed path is not an object.
    { inputs: bytes({ b: { facts: { upstream: 'x' } } }), supportedExtensions: NONE },
    // A10: not strict JSON, a duplicate member, an unknown node, an extra member, evidence not an object.
    { inputs: bytes('{"b":{"facts":{}}'), supportedExtensions: NONE },
    { inputs: bytes('{"b":{"facts":{}},"b":{"facts":{}}}'), supportedExtensions: NONE },
    { inputs: bytes({ zz: {} }), supportedExtensions: NONE },
    { inputs: bytes({ b: { facts: {}, extra: 1 } }), supportedExtensions: NONE },
    { inputs: bytes({ b: { evidence: [] } }), supportedExtensions: NONE },
    // §8.2 on the node: evidence naming an undeclared requirement.
    { inputs: bytes({ a: { evidence: { nope: 'present' } } }), supportedExtensions: NONE },
    // ADR 0313: budgets that stop on the first and on the second node, and an invalid one.
    { ...{ inputs: good.inputs }, supportedExtensions: NONE, workBudget: 1 },
    { ...{ inputs: good.inputs }, supportedExtensions: NONE, workBudget: 0 },
    // The caller's facts as a non-object: the feed cannot be written (A7).
    { inputs: bytes({ b: { facts: [1, 2] } }), supportedExtensions: NONE },
  ];

  it('every hostile run answers what a fresh compilation answers, and is refused', () => {
    for (const input of hostile) {
      const r = evaluateCompiledGraph(compiled, input);
      expect(r.status).toBe('refused');
      expect(graphRunJson(r)).toBe(fresh(g, proj, input));
    }
  });

  it('a good run after every hostile one answers exactly what it answered before them', () => {
    const before = graphRunJson(evaluateCompiledGraph(compiled, good));
    expect(JSON.parse(before)).toMatchObject({ status: 'evaluated' });
    for (const input of hostile) {
      evaluateCompiledGraph(compiled, input);
      expect(graphRunJson(evaluateCompiledGraph(compiled, good))).toBe(before);
    }
    expect(before).toBe(fresh(g, proj, good));
  });

  it('checks the budget before answering its own load or validation refusal, as evaluateGraph does', () => {
    const broken = compileGraph({ graph: bytes('{'), project: proj });
    expect(refusedWith(evaluateCompiledGraph(broken, { supportedExtensions: NONE, workBudget: 0 })).code).toBe(
      'JPS-GRAPH-WORK-BUDGET',
    );
    expect(refusedWith(evaluateCompiledGraph(broken, { supportedExtensions: NONE })).code).toBe('JPS-GRAPH-JSON');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The memo of evaluateGraph, keyed by digests

describe('evaluateGraph never reuses a compiled graph for a project whose bytes differ', () => {
  const graph = bytes(flat({ a: 'quiet' }, [], 'a'));
  const pass = { inputs: bytes({ a: { facts: { x: 'y' } } }), supportedExtensions: NONE };
  const answer = (proj: GraphProject, input: GraphRunInput = pass) =>
    graphRunJson(evaluateGraph({ graph, project: proj, ...input }));

  it('a pack with other bytes under the same name is compiled from its own bytes', () => {
    const a = project();
    const b = project({ packs: { quiet: PACKS.source! } });
    const first = answer(a);
    const second = answer(b);
    expect(second).not.toBe(first);
    expect(second).toBe(fresh(graph, b, pass));
    expect(answer(a)).toBe(first);
  });

  // A small pack is checked against the memo's private copy, one past its 256 KiB copy bound by digest (ADR 0380).
  const large = { ...PACKS.quiet!, decision: { intent: 'x'.repeat(300_000), question: 'Which outcome?' } };
  it.each([
    ['a small pack', PACKS.quiet!],
    ['a pack past the copy bound', large],
  ])('%s whose buffer is changed in place between runs is read for what it now holds', (_, pack) => {
    const packBytes = bytes(pack);
    const proj: GraphProject = { packs: new Map([['quiet', { ok: true, bytes: packBytes }]]), graphs: new Map() };
    const before = answer(proj);
    // The same length, another pack identity: "…/quiet" becomes "…/quieT".
    const at = new TextDecoder().decode(packBytes).indexOf('/quiet"') + 5;
    packBytes[at] = 'T'.charCodeAt(0);
    const after = answer(proj);
    expect(JSON.parse(after)).toMatchObject({ nodes: [{ packId: 'https://packs.example.org/quieT' }] });
    expect(JSON.parse(before)).toMatchObject({ nodes: [{ packId: 'https://packs.example.org/quiet' }] });
    expect(after).toBe(fresh(graph, proj, pass));
  });

  it('a pack that becomes unreadable, or unreadable for another reason, is answered as such', () => {
    const gone = project({ packs: { quiet: null } });
    expect(answer(project())).toContain('"status":"evaluated"');
    expect(refusedWith(evaluateGraph({ graph, project: gone, ...pass })).code).toBe('JPS-GRAPH-NODE-PACK-READ');
    const other: GraphProject = {
      ...gone,
      packs: new Map([...gone.packs, ['quiet', { ok: false, message: 'EACCES' }]]),
    };
    expect(refusedWith(evaluateGraph({ graph, project: other, ...pass })).message).toContain('EACCES');
  });

  it('a project without the pack name is a structural refusal even after the graph ran elsewhere', () => {
    answer(project());
    const without: GraphProject = { packs: new Map(), graphs: new Map() };
    expect(refusedWith(evaluateGraph({ graph, project: without, ...pass })).diagnostic).toBe('JPS-GRAPH-NODE-PACK');
  });

  const CHILD = draft({ q: 'quiet' }, [], 'q', {
    inputs: { facts: { '/x': { node: 'q', pointer: '/x' } } },
    outputs: { out: { node: 'q' } },
  });
  const root = bytes(draft({ s: sub('child', CHILD) }, [{ from: 'caller', fact: '/x', to: 's', input: '/x' }], 's'));
  const callerX = { inputs: bytes({ caller: { facts: { x: 'y' } } }), supportedExtensions: NONE };

  it('a subgraph whose bytes no longer match the pinned digest is refused after the graph was compiled', () => {
    const good = project({ graphs: { child: CHILD } });
    expect(graphRunJson(evaluateGraph({ graph: root, project: good, ...callerX }))).toContain('"status":"evaluated"');
    const drifted = project({ graphs: { child: { ...CHILD, version: '1.0.1' } } });
    expect(refusedWith(evaluateGraph({ graph: root, project: drifted, ...callerX })).diagnostic).toBe(
      'JPS-GRAPH-REFERENCE-DIGEST-MISMATCH',
    );
    expect(
      refusedWith(evaluateGraph({ graph: root, project: project({ graphs: { child: null } }), ...callerX })).diagnostic,
    ).toBe('JPS-GRAPH-REFERENCE-READ');
    expect(graphRunJson(evaluateGraph({ graph: root, project: good, ...callerX }))).toBe(fresh(root, good, callerX));
  });

  it('the root name is part of the key: naming the root makes a self-reference recursion at once (ADR 0311)', () => {
    const self = draft({ s: { subgraph: 'me', digest: `sha256:${'0'.repeat(64)}` } }, [], 's');
    const graphs = { me: self };
    const unnamed = refusedWith(
      evaluateGraph({ graph: bytes(self), project: project({ graphs }), supportedExtensions: NONE }),
    );
    const named = refusedWith(
      evaluateGraph({ graph: bytes(self), project: project({ graphs, rootName: 'me' }), supportedExtensions: NONE }),
    );
    expect(unnamed.diagnostic).toBe('JPS-GRAPH-REFERENCE-DIGEST-MISMATCH');
    expect(named.diagnostic).toBe('JPS-GRAPH-REFERENCE-CYCLE');
  });

  it('stays correct past its bound of 64 compiled graphs: evicted graphs are compiled again', () => {
    const proj = project();
    const graphs = Array.from({ length: 80 }, (_, i) => bytes(flat({ a: 'quiet' }, [], 'a', { id: `g${i}` })));
    const first = graphs.map((g) => graphRunJson(evaluateGraph({ graph: g, project: proj, ...pass })));
    const again = graphs.map((g) => graphRunJson(evaluateGraph({ graph: g, project: proj, ...pass })));
    expect(again).toEqual(first);
    expect(new Set(first.map((s) => (JSON.parse(s) as { graphId: string }).graphId)).size).toBe(80);
  });
});

describe('a compiled graph names every file its answer depends on by digest', () => {
  it('lists the subgraph and each pack a leaf uses, with the digest of their exact bytes', () => {
    const CHILD = draft({ g: 'gate' }, [], 'g', { outputs: { out: { node: 'g' } } });
    const root = bytes(draft({ a: 'source', s: sub('child', CHILD) }, [], 'a'));
    const c = compileGraph({ graph: root, project: project({ graphs: { child: CHILD } }) });
    expect(c.refusal).toBeUndefined();
    expect(c.graphDigest).toBe(bytesDigest(root));
    expect(c.sources).toEqual([
      { table: 'graphs', name: 'child', digest: digestOf(CHILD) },
      { table: 'packs', name: 'source', digest: digestOf(PACKS.source) },
      { table: 'packs', name: 'gate', digest: digestOf(PACKS.gate) },
    ]);
  });

  it('a refused graph keeps no instance tree and no packs, only the refusal and what it read', () => {
    const c = compileGraph({ graph: bytes(flat({ a: 'nope' }, [], 'a')), project: project() });
    expect(c.refusal?.diagnostic).toBe('JPS-GRAPH-NODE-PACK');
    expect(c.root).toBeUndefined();
    expect(c.packs.size).toBe(0);
    expect(c.sources).toEqual([]);
  });
});
