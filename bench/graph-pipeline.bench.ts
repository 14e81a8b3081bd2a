/**
 * What taking a graph run through the pipeline costs (ADR 0360, ADR 0361; docs/pipeline.md "Graph requests"), in the
 * same run as its baselines, on the procurement-triage example (examples/graphs/):
 *   1. processRequest of a docket.graph-request/1 over in-memory ports (what the evaluate function does under the
 *      FIFO lock), per request; baselines: evaluateGraph + graphRunJson alone, and a one-pack request.
 *   2. verify's per-entry check (checkEntry, Ed25519 included) of the graph-run entries; baseline: the same check of
 *      the one-pack requests' entries.
 * Rounds alternate; each side shows its best of three.
 *
 *   npm run build && node dist/bench/graph-pipeline.bench.js [requests]
 */
import './support/node-crypto.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closureDigest, closureOf } from '../core/graph-closure/index.js';
import { evaluateGraph, graphRunJson, type GraphProject } from '../core/graph/index.js';
import { DEFAULT_WORK_BUDGET, EVALUATOR_IDENTITY } from '../core/evaluate/index.js';
import { GRAPH_REQUEST_FORMAT, REQUEST_FORMAT, type LoadedGraph } from '../core/admission/index.js';
import { signerFromKeyPair } from '../core/ledger/primitives/signature.js';
import { MemoryLedgerStore } from '../core/ledger/store/memory-store.js';
import { sha256Hex, utf8Bytes } from '../core/ledger/primitives/bytes.js';
import type { TrustPolicy } from '../core/ledger/trust-policy/trust-policy.js';
import { checkEntry } from '../core/ledger/verify/entry-status.js';
import type { StoredEntry } from '../core/ledger/store/store.js';
import { BUILD, K1 } from '../conformance/ledger/fixtures.js';
import { policyFromSeq0, readPolicy } from './support/generated-ledger.js';
import {
  cachedPackSource,
  ledgerWriter,
  processRequest,
  type PipelineConfig,
  type PipelinePorts,
} from '../core/pipeline/index.js';

const COMMAND = 'npm run build && node dist/bench/graph-pipeline.bench.js';
const n = Number(process.argv[2] ?? 300);
const ROOT = join(process.cwd(), 'examples', 'graphs', 'procurement-triage');
const file = (p: string) => new Uint8Array(readFileSync(join(ROOT, p)));
const jpack = JSON.parse(readFileSync(join(ROOT, 'jpack.json'), 'utf8')) as {
  packs: Record<string, { path: string }>;
  graphs: Record<string, { path: string }>;
};
const project: GraphProject = {
  packs: new Map(Object.entries(jpack.packs).map(([k, v]) => [k, { ok: true, bytes: file(v.path) }])),
  graphs: new Map(Object.entries(jpack.graphs).map(([k, v]) => [k, { ok: true, bytes: file(v.path) }])),
};
const graph = file(jpack.graphs['procurement-triage']!.path);
const inputs = file('inputs.json');
const closed = closureOf(graph, project);
if (!closed.ok) throw new Error('the example graph is not closed');
const digest = closed.closure.graph.slice('sha256:'.length);
const loaded: LoadedGraph = { digest, bytes: graph, closure: closed.closure, project };
// A graph request names the published graph by its closure digest (ADR 0450).
const named = ((d) => (d.ok ? d.value.slice('sha256:'.length) : ''))(closureDigest(closed.closure));
const inputsText = new TextDecoder().decode(inputs).trim();

const LOGS = ['log-0'];
const config: PipelineConfig = {
  logIds: LOGS,
  supportedExtensions: [],
  defaultWorkBudget: DEFAULT_WORK_BUDGET,
  maxWorkBudget: DEFAULT_WORK_BUDGET * 10,
  evaluator: { name: EVALUATOR_IDENTITY.name, version: EVALUATOR_IDENTITY.version, buildDigest: BUILD },
  draftFeatures: ['judgment-graphs'],
};
const packBytes = new Map([...project.packs].map(([, f]) => [sha256Hex(f.ok ? f.bytes : new Uint8Array()), f]));

function world() {
  const store = new MemoryLedgerStore();
  const ports: PipelinePorts = {
    packs: cachedPackSource(
      {
        getPack: async (d) => {
          const f = packBytes.get(d);
          return f?.ok ? f.bytes : null;
        },
        resolveAlias: async () => null,
      },
      config.draftFeatures,
    ),
    archive: { put: async () => undefined },
    ledger: ledgerWriter({
      store,
      signer: signerFromKeyPair(K1),
      logIds: LOGS,
      now: () => '2026-12-04T09:00:00Z',
    }).forLog('log-0'),
    graphs: { resolveGraphAlias: async () => null, loadGraph: async (d) => (d === named ? loaded : null) },
  };
  return { store, ports };
}

const graphRequest = (id: string) =>
  utf8Bytes(
    `{"format":"${GRAPH_REQUEST_FORMAT}","requestId":"${id}","graph":"sha256:${named}","inputs":${inputsText}}`,
  );
const PACK = [...packBytes.keys()][0]!;
const packRequest = (id: string) =>
  utf8Bytes(`{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${PACK}","facts":{}}`);

async function entriesOf(store: MemoryLedgerStore): Promise<StoredEntry[]> {
  const out: StoredEntry[] = [];
  for await (const e of store.readEntries('log-0', 0)) out.push(e);
  return out;
}

let round = 0;
/** `n` requests through processRequest into a fresh store: ms per request, and the entries written. */
async function throughPipeline(graphs: boolean): Promise<{ ms: number; entries: StoredEntry[] }> {
  const w = world();
  round += 1;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    if (!graphs) await processRequest(packRequest(`p-${round}-${i}`), config, w.ports);
    else {
      const o = await processRequest(graphRequest(`g-${round}-${i}`), config, w.ports);
      if (o.status !== 'recorded' || o.kind !== 'graph-run') throw new Error('not a graph run');
    }
  }
  return { ms: (performance.now() - t0) / n, entries: await entriesOf(w.store) };
}

function runMs(): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const r = evaluateGraph({
      graph,
      project,
      inputs,
      supportedExtensions: new Set(),
      workBudget: DEFAULT_WORK_BUDGET,
    });
    if (graphRunJson(r).length === 0) throw new Error('no run');
  }
  return (performance.now() - t0) / n;
}

function checkRate(list: readonly StoredEntry[], p: TrustPolicy): number {
  const t0 = performance.now();
  for (const s of list) if (checkEntry(s, p, true).status !== 'ok') throw new Error(`entry not ok`);
  return list.length / ((performance.now() - t0) / 1000);
}

const f = (x: number, d = 2): string => x.toFixed(d);
console.log(`${COMMAND}  (${n} requests per round; Node ${process.version})`);
let best = { pipeline: Infinity, run: Infinity, pack: Infinity };
let entries: StoredEntry[] = [];
let packs: StoredEntry[] = [];
for (let r = 0; r < 3; r++) {
  const p = await throughPipeline(true);
  const q = await throughPipeline(false);
  entries = p.entries;
  packs = q.entries;
  best = { pipeline: Math.min(best.pipeline, p.ms), run: Math.min(best.run, runMs()), pack: Math.min(best.pack, q.ms) };
}
console.log(
  `  graph request through processRequest: ${f(best.pipeline)} ms   baseline evaluateGraph + graphRunJson: ${f(best.run)} ms   ${f(best.pipeline / best.run)}× the run`,
);
console.log(
  `  graph request through processRequest: ${f(best.pipeline)} ms   baseline one pack request through processRequest: ${f(best.pack)} ms   ${f(best.pipeline / best.pack)}× a pack request`,
);
const p = readPolicy(policyFromSeq0(LOGS, ['judgment-graphs']));
let graphRate = 0;
let packRate = 0;
for (let r = 0; r < 3; r++) {
  graphRate = Math.max(graphRate, checkRate(entries, p));
  packRate = Math.max(packRate, checkRate(packs, p));
}
const bytes = (l: readonly StoredEntry[]) => Math.round(l.reduce((a, e) => a + e.body.length, 0) / l.length);
console.log(
  `  verify checkEntry incl. Ed25519: graph-run entries ${Math.round(graphRate)}/s (${bytes(entries)} B each)   baseline one-pack entries ${Math.round(packRate)}/s (${bytes(packs)} B each)   ${f(packRate / graphRate)}× the cost`,
);
