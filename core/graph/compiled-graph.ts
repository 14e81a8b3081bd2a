/**
 * A compiled graph (ADR 0380): everything a run of one root document over one project snapshot computes before the
 * inputs matter — load (A1), static validation and reference resolution (A8, B3, B5), each document's run plan
 * (plan.ts) and every pack the nodes use, validated and compiled (A3) — done once, then run many times with
 * evaluateCompiledGraph, as a compiled pack is with evaluateCompiled. A refusal at load or validation is part of
 * the compiled graph and is answered by every run, after the run's own budget check, exactly where evaluateGraph
 * always answered it.
 *
 * It records the digest of every file its answer depends on (`sources`), so a memo can key it by digests and never
 * hand it to a project whose bytes differ (compiled-graph-memo.ts).
 */
import { GRAPH_LIMITS } from './codes.js';
import { EXIT } from '../exit-codes.js';
import { bytesDigest } from './digest.js';
import type { GraphDocument } from './document.js';
import { loadGraph } from './load.js';
import { packState, type PackState } from './packs.js';
import { documentPlan, type DocumentPlan } from './plan.js';
import type { GraphProject } from './project.js';
import { resolveAll, type Instance } from './references.js';
import { refusal, type GraphRefusal } from './refusal.js';

/** One document of the instance tree (B4) with its plan. */
export interface CompiledInstance {
  /** '' for the root; `/a`, `/a/b`, … inside subgraphs (B4). */
  readonly path: string;
  /** The jpack.json `graphs` name, when the document is one. */
  readonly name: string | undefined;
  readonly doc: GraphDocument;
  readonly plan: DocumentPlan;
  /** Subgraph node id → its instance. */
  readonly children: ReadonlyMap<string, CompiledInstance>;
}

/** A file the compiled graph's answer depends on: by digest when it was read, by its message when it was not. */
export interface CompiledSource {
  readonly table: 'packs' | 'graphs';
  readonly name: string;
  readonly digest?: string;
  readonly unreadable?: string;
}

export interface CompiledGraph {
  /** "sha256:<hex>" of the root document's exact bytes (A1 step 7); '' for a document refused unread (over A1's limit). */
  readonly graphDigest: string;
  /** `rootName` and the jpack.json names the answer depends on (structure checks names, B3, A8). */
  readonly names: string;
  /** Every pack and graph file read while compiling, in the order read. */
  readonly sources: readonly CompiledSource[];
  /** The refusal every run answers (load or validation), or the ready graph. */
  readonly refusal: GraphRefusal | undefined;
  readonly root: CompiledInstance | undefined;
  /** jpack.json pack name → its state, for every pack a leaf uses (A3). */
  readonly packs: ReadonlyMap<string, PackState>;
}

/** The part of a project a compilation depends on without reading a file: its root's name and its names. */
export function projectNames(project: GraphProject): string {
  return JSON.stringify([
    project.rootName ?? null,
    [...project.packs.keys()].sort(),
    [...project.graphs.keys()].sort(),
  ]);
}

export interface GraphSource {
  /** The root graph document's exact bytes. */
  readonly graph: Uint8Array;
  readonly project: GraphProject;
}

/** Load, validate and resolve the root, plan every document and compile every pack its leaves use. */
export function compileGraph(input: GraphSource): CompiledGraph {
  const names = projectNames(input.project);
  const loaded = loadGraph(input.graph);
  const base = { names, packs: new Map<string, PackState>(), root: undefined };
  if (!loaded.ok)
    return {
      ...base,
      graphDigest: input.graph.length > GRAPH_LIMITS.graphBytes ? '' : bytesDigest(input.graph),
      sources: [],
      refusal: refusal('load', loaded.error.code, loaded.error.exit, loaded.error.message),
    };
  const doc = loaded.value;
  const resolution = resolveAll(doc, input.project);
  const sources: CompiledSource[] = [...resolution.sources].map(([name, s]) =>
    'readError' in s ? { table: 'graphs', name, unreadable: s.readError } : { table: 'graphs', name, digest: s.digest },
  );
  const first = resolution.diagnostics[0];
  if (first !== undefined)
    return {
      ...base,
      graphDigest: doc.digest,
      sources,
      refusal: refusal(
        'structure',
        'JPS-GRAPH-INVALID',
        EXIT.GRAPH_INVALID,
        `${first.code} at ${first.path}: ${first.message}`,
        { diagnostic: first.code },
      ),
    };
  const packs = new Map<string, PackState>();
  const root = compiledInstance(resolution.root, (pack) => {
    if (packs.has(pack)) return;
    const { state, digest } = packState(input.project.packs.get(pack));
    packs.set(pack, state);
    sources.push(
      state.kind === 'unreadable'
        ? { table: 'packs', name: pack, unreadable: state.message }
        : { table: 'packs', name: pack, digest: digest! },
    );
  });
  return { graphDigest: doc.digest, names, sources, refusal: undefined, root, packs };
}

function compiledInstance(inst: Instance, usePack: (pack: string) => void): CompiledInstance {
  const plan = documentPlan(inst.doc);
  // Packs in evaluation order, so `sources` lists them as a run first meets them.
  for (const id of plan.order) {
    const node = inst.doc.nodes.get(id)!;
    if (node.kind === 'pack') usePack(node.pack);
  }
  const children = new Map<string, CompiledInstance>();
  for (const [id, child] of inst.children) children.set(id, compiledInstance(child, usePack));
  return { path: inst.path, name: inst.name, doc: inst.doc, plan, children };
}
