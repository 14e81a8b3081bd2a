/**
 * Graph evaluation cost per node and a 256-leaf graph's run time, each next to single evaluations of the same pack
 * and documents in the same run; what each figure is and how rounds and ratios are taken: docs/performance.md
 * "Judgment graphs" (ADRs 0315, 0380).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/graph.bench.js
 *
 * Workload: RFC 0006's triage pack and 1,024 seeded facts documents with the six evidence documents
 * (bench/support/triage-facts.ts): 64 format "1" runs of a 16-node graph with no edges (each node its own facts and
 * evidence entry); a 0.2.0-draft root with 16 instances of a 16-node subgraph (k × m = 256, B5), every leaf bound to a
 * caller facts document through a caller edge and the subgraph's inputs. Each is run compiled once (compileGraph,
 * evaluateCompiledGraph) and through evaluateGraph (bytes in, as the CLI); the floors do the same reads and
 * evaluateParsed calls with no graph code, so the graph layer's own cost is a figure's distance from its floor.
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

  // Per node (µs over the 1,024 nodes of a round) or per run (ms): each figure's round and calls per measurement.
  const PER_NODE = 1e6 / 1024;
  const figures = {
    compiled: { round: compiledRound, reps: 4, scale: PER_NODE },
    floor: { round: floorRound, reps: 4, scale: PER_NODE },
    compiledGraph: { round: compiledGraphRound, reps: 4, scale: PER_NODE },
    graph: { round: graphRound, reps: 4, scale: PER_NODE },
    documents: { round: documentsRound, reps: 1, scale: PER_NODE },
    leaf: { round: leafRound, reps: 24, scale: 1e3 },
    wideFloor: { round: wideFloorRound, reps: 16, scale: 1e3 },
    wideCompiled: { round: wideCompiledRound, reps: 16, scale: 1e3 },
    wide: { round: wideRound, reps: 16, scale: 1e3 },
  };
  type Name = keyof typeof figures;
  const names = Object.keys(figures) as Name[];
  for (let i = 0; i < 5; i++) for (const k of names) figures[k].round();
  const t = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<Name, number[]>;
  // Each round measures every figure back to back, baseline first, so a figure and its baseline see the same
  // machine; a ratio is the median over the rounds of that round's own ratio.
  for (let i = 0; i < ROUNDS; i++) for (const k of names) t[k].push(measure(figures[k].round, figures[k].reps));
  // The median round and the fastest.
  const per = (xs: number[], scale: number) => ({ xs, median: median(xs) * scale, fast: fastest(xs) * scale });
  type Fig = ReturnType<typeof per>;
  const fig = Object.fromEntries(names.map((k) => [k, per(t[k], figures[k].scale)])) as Record<Name, Fig>;
  const show = (f: Fig, unit: string, digits: number) =>
    `${f.median.toFixed(digits).padStart(7)} ${unit} (fastest ${f.fast.toFixed(digits)})`;
  const vs = (f: Fig, base: Fig) =>
    `${median(f.xs.map((x, i) => x / base.xs[i]!)).toFixed(2)}× (fastest rounds ${(f.fast / base.fast).toFixed(2)}×)`;
  process.stdout.write(
    [
      `graph bench (Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; main-thread CPU time, median of ${ROUNDS} rounds, fastest beside it)`,
      `  evaluateCompiled (pack compiled once), per evaluation       ${show(fig.compiled, 'µs', 2)}   baseline; ratios are medians of same-round ratios`,
      `  flat 16-node graph compiled once, per node                  ${show(fig.compiledGraph, 'µs', 2)}   ${vs(fig.compiledGraph, fig.compiled)}  goal ≤ 1.2×`,
      `  flat 16-node graph through evaluateGraph, per node          ${show(fig.graph, 'µs', 2)}   ${vs(fig.graph, fig.compiled)}`,
      `  floor: inputs read + evaluateParsed, no graph code, per node ${show(fig.floor, 'µs', 2)}   ${vs(fig.floor, fig.compiled)}`,
      `  evaluateDocuments (validate, compile, evaluate), per call   ${show(fig.documents, 'µs', 1)}`,
      `  256 evaluateCompiled on the 256-leaf graph's leaf documents ${show(fig.leaf, 'ms', 3)}   baseline`,
      `  256-leaf graph (16 × 16) compiled once, one run             ${show(fig.wideCompiled, 'ms', 3)}   ${vs(fig.wideCompiled, fig.leaf)}`,
      `  256-leaf graph (16 × 16) through evaluateGraph, one run     ${show(fig.wide, 'ms', 3)}   ${vs(fig.wide, fig.leaf)}`,
      `  floor: caller document read + 256 evaluateParsed, one run  ${show(fig.wideFloor, 'ms', 3)}   ${vs(fig.wideFloor, fig.leaf)}`,
      `  reproduce: ${COMMAND}`,
      `  (sink ${sink % 10})`,
      '',
    ].join('\n'),
  );
}

main();
