/**
 * A real graph run for the graph-run entry tests: the procurement-triage example (examples/graphs/, a root graph
 * with a sanctions-screening subgraph used twice) evaluated by core/graph, and a graph-run entry recording it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closureDigest, closureOf, type GraphClosure } from '../../core/graph-closure/index.js';
import { evaluateGraph, graphRunJson, type GraphProject, type GraphRun } from '../../core/graph/index.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { ENTRY_FORMAT_V3, type UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import { BUILD_DIGEST, KEYS } from './fixtures.js';

export const EXAMPLE_DIR = join(import.meta.dirname, '..', '..', 'examples', 'graphs', 'procurement-triage');
const file = (p: string): Uint8Array => new Uint8Array(readFileSync(join(EXAMPLE_DIR, p)));

interface JpackJson {
  readonly packs: Record<string, { path: string }>;
  readonly graphs: Record<string, { path: string }>;
}
const jpack = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'jpack.json'), 'utf8')) as JpackJson;

/** The example project: every pack and graph jpack.json names, as exact bytes. */
export const PROJECT: GraphProject = {
  packs: new Map(Object.entries(jpack.packs).map(([n, { path }]) => [n, { ok: true, bytes: file(path) }])),
  graphs: new Map(Object.entries(jpack.graphs).map(([n, { path }]) => [n, { ok: true, bytes: file(path) }])),
};
export const ROOT_GRAPH = file(jpack.graphs['procurement-triage']!.path);
export const INPUTS = file('inputs.json');

const closed = closureOf(ROOT_GRAPH, PROJECT);
if (!closed.ok) throw new Error(`the example graph is not closed: ${JSON.stringify(closed.findings)}`);
export const CLOSURE: GraphClosure = closed.closure;

export const hexOf = (d: string): string => d.slice('sha256:'.length);
/** The example's published identity: the digest of its closure record (ADR 0450), hex. */
export const PUBLISHED = ((d) => (d.ok ? hexOf(d.value) : ''))(closureDigest(CLOSURE));
const pins = (m: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, hexOf(v)]));

export function runExample(workBudget = 100_000, inputs: Uint8Array | undefined = INPUTS): GraphRun {
  return evaluateGraph({
    graph: ROOT_GRAPH,
    project: PROJECT,
    ...(inputs !== undefined ? { inputs } : {}),
    supportedExtensions: new Set(),
    workBudget,
  });
}

/** An unsigned graph-run entry recording the example's run at `workBudget` (seq 0 of log-0). */
export function graphRunEntry(over: Partial<Record<string, unknown>> = {}, workBudget = 100_000): UnsignedEntry {
  const run = runExample(workBudget);
  return {
    format: ENTRY_FORMAT_V3,
    kind: 'graph-run',
    logId: 'log-0',
    seq: 0,
    prevHash: null,
    requestId: 'graph-req-1',
    requestDigest: sha256Hex('request graph-req-1'),
    correlation: null,
    graph: { digest: hexOf(CLOSURE.graph), id: CLOSURE.graphId, version: CLOSURE.graphVersion },
    packs: pins(CLOSURE.packs),
    graphs: pins(CLOSURE.graphs),
    inputsDigest: sha256Hex(INPUTS),
    supportedExtensions: [],
    draftFeatures: ['judgment-graphs'],
    workBudget,
    work: run.status === 'evaluated' ? run.work.used : 0,
    run: graphRunJson(run),
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
    time: '2026-12-04T09:00:00Z',
    keyId: KEYS.keyId,
    ...over,
  } as UnsignedEntry;
}
