/**
 * Graph evaluation cost per node, next to single evaluations of the same pack and documents in the same run, and a
 * 256-leaf graph's run time (docs/graphs.md "Performance", ADR 0315).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/graph.bench.js
 *
 * Workload: RFC 0006's triage pack (examples/data-request-intake-triage.json) and 1,024 seeded facts documents with
 * the six evidence documents (bench/support/triage-facts.ts), identical bytes every run.
 *   - flat: 64 format "1" runs of a 16-node graph (no edges), each node with its own facts and evidence entry, so
 *     1,024 node evaluations per round. A run = load + validation + reading the inputs document + per node: assembly
 *     and evaluateParsed (ADR 0315); packs and graph documents are memoized by digest across runs.
 *   - baselines on the same 1,024 (facts, evidence) pairs: `evaluateCompiled` on a pack compiled once (the hot path)
 *     and `evaluateDocuments` (a whole single evaluation, as `docket evaluate` does: validate, compile, evaluate).
 *   - 256 leaves: a 0.2.0-draft root with 16 instances of a 16-node subgraph (k × m = 256, B5), every leaf bound to a
 *     caller facts document through 256 caller edges and the subgraph's inputs; next to 256 evaluateCompiled calls
 *     on the same leaf documents.
 * Rounds alternate so drift affects all alike; figures are medians of the measured rounds.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compilePack, evaluateCompiled, evaluateDocuments, type EvaluationInput } from '../core/evaluate/index.js';
import { bytesDigest, evaluateGraph, type GraphProject } from '../core/graph/index.js';
import { validatePack } from '../core/pack/index.js';
import { prng } from './support/seeded-prng.js';
import { TRIAGE_EVIDENCE, triageFacts } from './support/triage-facts.js';

const COMMAND = 'npx tsc -p tsconfig.build.json && node dist/bench/graph.bench.js';
const root = fileURLToPath(new URL('../../', import.meta.url));
const enc = new TextEncoder();
const dec = new TextDecoder();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function seconds(body: () => void): number {
  const t0 = process.hrtime.bigint();
  body();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function main(): void {
  const packBytes = new Uint8Array(readFileSync(`${root}examples/data-request-intake-triage.json`));
  const validation = validatePack(packBytes);
  if (!validation.pack) throw new Error('the triage pack must be conformant');
  const compiled = compilePack(validation.pack);
  const r = prng(20261204);
  const facts = Array.from({ length: 1024 }, () => triageFacts(r));
  const evidence = facts.map((_, i) => TRIAGE_EVIDENCE[i % TRIAGE_EVIDENCE.length]!);
  const singles: EvaluationInput[] = facts.map((f, i) => ({
    facts: f,
    evidence: evidence[i]!,
    supportedExtensions: new Set<string>(),
  }));

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
    enc.encode(
      `{${ids
        .map((id, i) => {
          const k = run * NODES + i;
          return `${JSON.stringify(id)}:{"facts":${dec.decode(facts[k])},"evidence":${dec.decode(evidence[k])}}`;
        })
        .join(',')}}`,
    ),
  );
  const ext = new Set<string>();
  // Correctness guard: each node's disposition equals the single evaluation of its documents.
  for (let run = 0; run < 64; run++) {
    const g = evaluateGraph({ graph: flatGraph, project, inputs: inputsDocs[run], supportedExtensions: ext });
    if (g.status !== 'evaluated') throw new Error(`graph refused: ${g.error.code}`);
    g.nodes.forEach((n, i) => {
      const s = evaluateCompiled(compiled, singles[run * NODES + i]!);
      if (s.kind !== 'disposition' || s.bytes !== n.dispositionBytes || s.work !== n.work)
        throw new Error('a graph node disagrees with its single evaluation');
    });
  }
  let sink = 0;
  const graphRound = () => {
    for (const inputs of inputsDocs) {
      const g = evaluateGraph({ graph: flatGraph, project, inputs, supportedExtensions: ext });
      sink += g.status === 'evaluated' ? g.work.used : 0;
    }
  };
  const compiledRound = () => {
    for (const input of singles) sink += evaluateCompiled(compiled, input).work;
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
  const wideRound = () => {
    const g = evaluateGraph({ graph: wideGraph, project: wideProject, inputs: wideInputs, supportedExtensions: ext });
    sink += g.status === 'evaluated' ? g.work.used : 0;
  };
  const leafRound = () => {
    for (const input of leafSingles) sink += evaluateCompiled(compiled, input).work;
  };

  for (let i = 0; i < 5; i++) {
    graphRound();
    compiledRound();
    documentsRound();
    wideRound();
    leafRound();
  }
  const t = {
    graph: [] as number[],
    compiled: [] as number[],
    documents: [] as number[],
    wide: [] as number[],
    leaf: [] as number[],
  };
  for (let i = 0; i < 15; i++) {
    t.graph.push(seconds(graphRound));
    t.compiled.push(seconds(compiledRound));
    t.documents.push(seconds(documentsRound));
    t.wide.push(seconds(wideRound));
    t.leaf.push(seconds(leafRound));
  }
  const us = (s: number, n: number) => (s * 1e6) / n;
  const perNode = us(median(t.graph), 1024);
  const perCompiled = us(median(t.compiled), 1024);
  const perDocuments = us(median(t.documents), 1024);
  const wideMs = median(t.wide) * 1e3;
  const leafMs = median(t.leaf) * 1e3;
  process.stdout.write(
    [
      `graph bench (Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; medians of 15 rounds)`,
      `  flat 16-node graph, per node        ${perNode.toFixed(1)} µs`,
      `  single evaluateCompiled, same docs   ${perCompiled.toFixed(1)} µs   graph/compiled  ${(perNode / perCompiled).toFixed(2)}×`,
      `  single evaluateDocuments, same docs  ${perDocuments.toFixed(1)} µs   graph/documents ${(perNode / perDocuments).toFixed(2)}×  (goal ≤ 1.2×)`,
      `  256-leaf graph (16 × 16), one run    ${wideMs.toFixed(2)} ms   256 evaluateCompiled on its leaf docs ${leafMs.toFixed(2)} ms (${(wideMs / leafMs).toFixed(2)}×)`,
      `  reproduce: ${COMMAND}`,
      `  (sink ${sink % 10})`,
      '',
    ].join('\n'),
  );
}

main();
