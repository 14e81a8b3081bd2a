/**
 * Graph evaluation cost per node, next to single evaluations of the same pack and documents in the same run, and a
 * 256-leaf graph's run time (docs/performance.md "Judgment graphs", ADR 0315).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/graph.bench.js
 *
 * Workload: RFC 0006's triage pack (examples/data-request-intake-triage.json) and 1,024 seeded facts documents with
 * the six evidence documents (bench/support/triage-facts.ts), identical bytes every run.
 *   - flat: 64 format "1" runs of a 16-node graph (no edges), each node with its own facts and evidence entry, so
 *     1,024 node evaluations per round, two ways:
 *       compiled — the graph compiled once (compileGraph: load, validation, plans, packs; ADR 0380) and run with
 *         evaluateCompiledGraph: reading the inputs document + per node assembly and evaluateParsed (ADR 0315). The
 *         like-for-like figure against evaluateCompiled, whose pack is compiled once too; the goal is ≤ 1.2×.
 *       evaluateGraph — bytes in, as the CLI runs: the same plus hashing the root and pack bytes to find the
 *         compiled graph in its memo (keyed by digests, ADR 0380).
 *   - floors, the same work without graph code: each inputs document read by the strict carrier as the graph reads
 *     it, then evaluateParsed on each entry's trees (flat); the caller document read, then evaluateParsed on each
 *     leaf's {"request": …} (256 leaves). The graph layer's own cost is a figure's distance from its floor.
 *   - baselines on the same 1,024 (facts, evidence) pairs: `evaluateCompiled` on a pack compiled once (the hot path)
 *     and `evaluateDocuments` (a whole single evaluation, as `docket evaluate` does: validate, compile, evaluate).
 *   - 256 leaves: a 0.2.0-draft root with 16 instances of a 16-node subgraph (k × m = 256, B5), every leaf bound to a
 *     caller facts document through 256 caller edges and the subgraph's inputs, compiled once and through
 *     evaluateGraph; next to 256 evaluateCompiled calls on the same leaf documents.
 * Figures are main-thread CPU time (process.threadCpuUsage): on a shared machine wall-clock rounds of the same work
 * vary 2× and more. Each of 21 rounds measures every figure back to back, its baseline first; a figure is the median
 * round (the fastest beside it) and a ratio the median over the rounds of each round's own ratio, so a figure and its
 * baseline are always compared on the same state of the machine.
 */
import { readJson, resolvePointer, type JsonObject, type JsonValue } from '../core/carrier/index.js';
import { evaluateCompiled, evaluateDocuments, evaluateParsed, type EvaluationInput } from '../core/evaluate/index.js';
import {
  bytesDigest,
  compileGraph,
  evaluateCompiledGraph,
  evaluateGraph,
  graphRunJson,
  type GraphProject,
} from '../core/graph/index.js';
import { median } from './support/timing.js';
import { compiledTriagePack, triageInputs, triagePackBytes } from './support/triage-facts.js';

const COMMAND = 'npx tsc -p tsconfig.build.json && node dist/bench/graph.bench.js';
const enc = new TextEncoder();
const dec = new TextDecoder();

const fastest = (xs: number[]): number => Math.min(...xs);
const ROUNDS = 21;
/**
 * Main-thread CPU seconds of one call of `body`, over `reps` calls in a row (rounds of ≥ ~15 ms, so the thread clock's
 * granularity does not matter): what the work itself cost, whatever else a shared machine runs meanwhile.
 */
function measure(body: () => void, reps: number): number {
  const c0 = process.threadCpuUsage();
  for (let i = 0; i < reps; i++) body();
  const c = process.threadCpuUsage(c0);
  return (c.user + c.system) / 1e6 / reps;
}

function main(): void {
  const packBytes = triagePackBytes();
  const compiled = compiledTriagePack(packBytes);
  const { inputs: singles, lines } = triageInputs(1024, 20261204);
  const facts = singles.map((x) => x.facts);

  // --- flat: 64 runs × 16 nodes
  const NODES = 16;
  const ids = Array.from({ length: NODES }, (_, i) => `n${String(i).padStart(2, '0')}`);
  const flatGraph = enc.encode(
    JSON.stringify({
      formatVersion: '1',
      id: 'bench',
      version: '1.0.0',
      nodes: Object.fromEntries(ids.map((id) => [id, { pack: 'triage' }])),
      edges: [],
      result: 'n00',
    }),
  );
  const project: GraphProject = {
    packs: new Map([['triage', { ok: true, bytes: packBytes }]]),
    graphs: new Map(),
  };
  const inputsDocs = Array.from({ length: 64 }, (_, run) =>
    enc.encode(`{${ids.map((id, i) => `${JSON.stringify(id)}:${lines[run * NODES + i]}`).join(',')}}`),
  );
  const ext = new Set<string>();
  const flatCompiled = compileGraph({ graph: flatGraph, project });
  // Correctness guard: each node's disposition equals the single evaluation of its documents, and the compiled
  // graph answers the very bytes evaluateGraph does.
  for (let run = 0; run < 64; run++) {
    const g = evaluateGraph({ graph: flatGraph, project, inputs: inputsDocs[run], supportedExtensions: ext });
    if (g.status !== 'evaluated') throw new Error(`graph refused: ${g.error.code}`);
    const c = evaluateCompiledGraph(flatCompiled, { inputs: inputsDocs[run], supportedExtensions: ext });
    if (graphRunJson(c) !== graphRunJson(g)) throw new Error('the compiled graph disagrees with evaluateGraph');
    g.nodes.forEach((n, i) => {
      const s = evaluateCompiled(compiled, singles[run * NODES + i]!);
      if (s.kind !== 'disposition' || s.bytes !== n.dispositionBytes || s.work !== n.work)
        throw new Error('a graph node disagrees with its single evaluation');
    });
  }
  let sink = 0;
  const compiledGraphRound = () => {
    for (const inputs of inputsDocs) {
      const g = evaluateCompiledGraph(flatCompiled, { inputs, supportedExtensions: ext });
      sink += g.status === 'evaluated' ? g.work.used : 0;
    }
  };
  const graphRound = () => {
    for (const inputs of inputsDocs) {
      const g = evaluateGraph({ graph: flatGraph, project, inputs, supportedExtensions: ext });
      sink += g.status === 'evaluated' ? g.work.used : 0;
    }
  };
  const compiledRound = () => {
    for (const input of singles) sink += evaluateCompiled(compiled, input).work;
  };
  // The floor without graph code: read each inputs document as the graph does, then evaluateParsed on each entry.
  const INPUTS_LIMITS = { limits: { documentBytes: 16_777_216 } };
  const floorRound = () => {
    for (const inputs of inputsDocs) {
      const root = readJson(inputs, INPUTS_LIMITS);
      if (!root.ok || root.value.kind !== 'object') throw new Error('the inputs document must read');
      root.value.members.forEach((entry) => {
        const e = entry as JsonObject;
        const facts = e.members.get('facts')!;
        const r = evaluateParsed(compiled, { facts, evidence: e.members.get('evidence'), supportedExtensions: ext });
        sink += r.work;
      });
    }
  };
  const documentsRound = () => {
    for (const input of singles) sink += evaluateDocuments({ ...input, pack: packBytes }).work;
  };

  // --- 256 leaves: 16 instances × 16 nodes, every leaf bound through a caller edge and the subgraph's inputs
  const sub = enc.encode(
    JSON.stringify({
      formatVersion: '0.2.0-draft',
      id: 'urn:bench:sixteen',
      version: '1.0.0',
      inputs: { facts: Object.fromEntries(ids.map((id) => [`/${id}`, { node: id, pointer: '/request' }])) },
      nodes: Object.fromEntries(ids.map((id) => [id, { pack: 'triage' }])),
      edges: [],
      outputs: { verdict: { node: 'n00' } },
      result: 'n00',
    }),
  );
  const instances = ids.map((id) => `s${id.slice(1)}`);
  const wideGraph = enc.encode(
    JSON.stringify({
      formatVersion: '0.2.0-draft',
      id: 'urn:bench:256',
      version: '1.0.0',
      nodes: Object.fromEntries(instances.map((s) => [s, { subgraph: 'sixteen', digest: bytesDigest(sub) }])),
      edges: instances.flatMap((s, j) =>
        ids.map((id, i) => ({ from: 'caller', fact: `/docs/${j * NODES + i}/request`, to: s, input: `/${id}` })),
      ),
      result: 's00',
    }),
  );
  const wideInputs = enc.encode(
    `{"caller":{"facts":{"docs":[${facts
      .slice(0, 256)
      .map((f) => dec.decode(f))
      .join(',')}]}}}`,
  );
  const wideProject: GraphProject = { ...project, graphs: new Map([['sixteen', { ok: true, bytes: sub }]]) };
  const leafSingles: EvaluationInput[] = facts.slice(0, 256).map((f) => ({
    facts: enc.encode(`{"request":${JSON.stringify((JSON.parse(dec.decode(f)) as { request: unknown }).request)}}`),
    supportedExtensions: ext,
  }));
  const wide = evaluateGraph({ graph: wideGraph, project: wideProject, inputs: wideInputs, supportedExtensions: ext });
  if (wide.status !== 'evaluated' || wide.nodes.length !== 256) throw new Error('the 256-leaf graph must evaluate');
  const wideCompiled = compileGraph({ graph: wideGraph, project: wideProject });
  if (
    graphRunJson(evaluateCompiledGraph(wideCompiled, { inputs: wideInputs, supportedExtensions: ext })) !==
    graphRunJson(wide)
  )
    throw new Error('the compiled 256-leaf graph disagrees with evaluateGraph');
  const wideCompiledRound = () => {
    const g = evaluateCompiledGraph(wideCompiled, { inputs: wideInputs, supportedExtensions: ext });
    sink += g.status === 'evaluated' ? g.work.used : 0;
  };
  const wideRound = () => {
    const g = evaluateGraph({ graph: wideGraph, project: wideProject, inputs: wideInputs, supportedExtensions: ext });
    sink += g.status === 'evaluated' ? g.work.used : 0;
  };
  // The floor without graph code: read the caller document, then each leaf's {"request": …} and evaluateParsed.
  const leafTokens = facts.slice(0, 256).map((_, k) => ['caller', 'facts', 'docs', String(k), 'request']);
  const wideFloorRound = () => {
    const root = readJson(wideInputs, INPUTS_LIMITS);
    if (!root.ok) throw new Error('the caller document must read');
    for (const tokens of leafTokens) {
      const request: JsonValue = resolvePointer(root.value, tokens)!;
      const leafFacts: JsonObject = { kind: 'object', members: new Map([['request', request]]), v: 9 + request.v };
      sink += evaluateParsed(compiled, { facts: leafFacts, supportedExtensions: ext }).work;
    }
  };
  const leafRound = () => {
    for (const input of leafSingles) sink += evaluateCompiled(compiled, input).work;
  };

  for (let i = 0; i < 5; i++) {
    compiledGraphRound();
    graphRound();
    compiledRound();
    documentsRound();
    wideCompiledRound();
    wideRound();
    leafRound();
    floorRound();
    wideFloorRound();
  }
  const t = {
    compiledGraph: [] as number[],
    graph: [] as number[],
    compiled: [] as number[],
    floor: [] as number[],
    wideFloor: [] as number[],
    documents: [] as number[],
    wideCompiled: [] as number[],
    wide: [] as number[],
    leaf: [] as number[],
  };
  // Each round measures every figure back to back, baseline first, so a figure and its baseline see the same
  // machine; a ratio is the median over the rounds of that round's own ratio.
  for (let i = 0; i < ROUNDS; i++) {
    t.compiled.push(measure(compiledRound, 4));
    t.floor.push(measure(floorRound, 4));
    t.compiledGraph.push(measure(compiledGraphRound, 4));
    t.graph.push(measure(graphRound, 4));
    t.documents.push(measure(documentsRound, 1));
    t.leaf.push(measure(leafRound, 24));
    t.wideFloor.push(measure(wideFloorRound, 16));
    t.wideCompiled.push(measure(wideCompiledRound, 16));
    t.wide.push(measure(wideRound, 16));
  }
  // Per node (µs) or per run (ms): the median round and the fastest.
  const per = (xs: number[], scale: number) => ({ xs, median: median(xs) * scale, fast: fastest(xs) * scale });
  const perCompiled = per(t.compiled, 1e6 / 1024);
  const perCompiledGraph = per(t.compiledGraph, 1e6 / 1024);
  const perNode = per(t.graph, 1e6 / 1024);
  const perDocuments = per(t.documents, 1e6 / 1024);
  const leaf = per(t.leaf, 1e3);
  const floor = per(t.floor, 1e6 / 1024);
  const wideFloor = per(t.wideFloor, 1e3);
  const wideCompiledRun = per(t.wideCompiled, 1e3);
  const wideRun = per(t.wide, 1e3);
  type Fig = ReturnType<typeof per>;
  const show = (f: Fig, unit: string, digits: number) =>
    `${f.median.toFixed(digits).padStart(7)} ${unit} (fastest ${f.fast.toFixed(digits)})`;
  const vs = (f: Fig, base: Fig) =>
    `${median(f.xs.map((x, i) => x / base.xs[i]!)).toFixed(2)}× (fastest rounds ${(f.fast / base.fast).toFixed(2)}×)`;
  process.stdout.write(
    [
      `graph bench (Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; main-thread CPU time, median of ${ROUNDS} rounds, fastest beside it)`,
      `  evaluateCompiled (pack compiled once), per evaluation       ${show(perCompiled, 'µs', 2)}   baseline; ratios are medians of same-round ratios`,
      `  flat 16-node graph compiled once, per node                  ${show(perCompiledGraph, 'µs', 2)}   ${vs(perCompiledGraph, perCompiled)}  goal ≤ 1.2×`,
      `  flat 16-node graph through evaluateGraph, per node          ${show(perNode, 'µs', 2)}   ${vs(perNode, perCompiled)}`,
      `  floor: inputs read + evaluateParsed, no graph code, per node ${show(floor, 'µs', 2)}   ${vs(floor, perCompiled)}`,
      `  evaluateDocuments (validate, compile, evaluate), per call   ${show(perDocuments, 'µs', 1)}`,
      `  256 evaluateCompiled on the 256-leaf graph's leaf documents ${show(leaf, 'ms', 3)}   baseline`,
      `  256-leaf graph (16 × 16) compiled once, one run             ${show(wideCompiledRun, 'ms', 3)}   ${vs(wideCompiledRun, leaf)}`,
      `  256-leaf graph (16 × 16) through evaluateGraph, one run     ${show(wideRun, 'ms', 3)}   ${vs(wideRun, leaf)}`,
      `  floor: caller document read + 256 evaluateParsed, one run  ${show(wideFloor, 'ms', 3)}   ${vs(wideFloor, leaf)}`,
      `  reproduce: ${COMMAND}`,
      `  (sink ${sink % 10})`,
      '',
    ].join('\n'),
  );
}

main();
