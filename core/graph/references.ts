/**
 * RFC 0022 reference resolution (B3, B5): the tree of subgraph instances under a root document, with every static
 * finding in the B5 order — the root's structural findings, then references in sorted node order depth first, each
 * checked name → recursion → depth → read → digest → load → version → the child's own structural findings
 * (prefixed by its instance path, ADR 0311), then the interface checks that need child documents, then the leaf
 * budget. Every instance of one graph name shares one snapshot of its bytes (0022:158).
 */
import { escapeToken } from '../carrier/index.js';
import { GRAPH_LIMITS } from './codes.js';
import { prefixed, type GraphDiagnostic } from './diagnostic.js';
import { bytesDigest } from './digest.js';
import type { GraphDocument } from './document.js';
import { loadGraph } from './load.js';
import type { GraphProject } from './project.js';
import { structuralDiagnostics } from './structure.js';

/** One evaluated document: the root ('' path) or a subgraph instance (`/a`, `/a/b`, …; B4). */
export interface Instance {
  readonly path: string;
  readonly name: string | undefined;
  readonly doc: GraphDocument;
  /** Subgraph node id → its instance (only references that resolved). */
  readonly children: ReadonlyMap<string, Instance>;
  /** Evaluated leaf pack instances under this document (B5 accounting: k × m, wrappers not counted). */
  readonly leaves: number;
}

/**
 * The most instances the walk visits before it stops: far beyond any admissible tree (≤ 256 leaves, depth ≤ 8),
 * so a graph bomb costs bounded work and is answered with JPS-GRAPH-NODE-BUDGET (ADR 0311).
 */
const MAX_INSTANCE_VISITS = 100_000;

/** One graph file as the walk read it: its exact bytes and their digest, or why it could not be read. */
export type Loaded = { readonly bytes: Uint8Array; readonly digest: string } | { readonly readError: string };

class Resolver {
  readonly diagnostics: GraphDiagnostic[] = [];
  /** Every `graphs` file the walk consulted, by name (B3 "one snapshot"). */
  readonly snapshots = new Map<string, Loaded>();
  private readonly docs = new Map<string, ReturnType<typeof loadGraph>>();
  private readonly childStructure = new Map<string, GraphDiagnostic[]>();
  visits = 0;

  constructor(private readonly project: GraphProject) {}

  private snapshot(name: string): Loaded {
    let s = this.snapshots.get(name);
    if (s === undefined) {
      const file = this.project.graphs.get(name)!;
      s = file.ok ? { bytes: file.bytes, digest: bytesDigest(file.bytes) } : { readError: file.message };
      this.snapshots.set(name, s);
    }
    return s;
  }

  private load(name: string, bytes: Uint8Array): ReturnType<typeof loadGraph> {
    let d = this.docs.get(name);
    if (d === undefined) this.docs.set(name, (d = loadGraph(bytes)));
    return d;
  }

  private structure(name: string, doc: GraphDocument): GraphDiagnostic[] {
    let s = this.childStructure.get(name);
    if (s === undefined) {
      const packs = new Set(this.project.packs.keys());
      this.childStructure.set(name, (s = structuralDiagnostics(doc, { packs, isRoot: false })));
    }
    return s;
  }

  walk(doc: GraphDocument, path: string, name: string | undefined, chain: readonly string[]): Instance {
    const children = new Map<string, Instance>();
    let leaves = 0;
    for (const id of [...doc.nodes.keys()].sort()) {
      const node = doc.nodes.get(id)!;
      if (node.kind === 'pack') {
        leaves++;
        continue;
      }
      if (++this.visits > MAX_INSTANCE_VISITS) break;
      const at = (d: Omit<GraphDiagnostic, 'path'>, sub = ''): void => {
        this.diagnostics.push(prefixed(path, { ...d, path: `/nodes/${id}${sub}` }));
      };
      const ref = node.subgraph;
      if (!this.project.graphs.has(ref)) {
        at(
          { code: 'JPS-GRAPH-REFERENCE-UNKNOWN', message: `graph ${JSON.stringify(ref)} is not in jpack.json (B3)` },
          '/subgraph',
        );
        continue;
      }
      if (chain.includes(ref)) {
        at(
          {
            code: 'JPS-GRAPH-REFERENCE-CYCLE',
            message: `graph ${JSON.stringify(ref)} references itself through ${[...chain, ref].join(' → ')} (B5)`,
          },
          '/subgraph',
        );
        continue;
      }
      // B5: the root is depth 0; the child of the instance at `path` ('' or '/a/…') sits one segment deeper.
      const depth = path.split('/').length;
      if (depth > GRAPH_LIMITS.depth) {
        at({
          code: 'JPS-GRAPH-DEPTH-LIMIT',
          message: `a subgraph at depth ${depth} is beyond the limit of ${GRAPH_LIMITS.depth} (B5)`,
        });
        continue;
      }
      const snap = this.snapshot(ref);
      if ('readError' in snap) {
        at({
          code: 'JPS-GRAPH-REFERENCE-READ',
          message: `graph ${JSON.stringify(ref)} cannot be read: ${snap.readError} (B3)`,
        });
        continue;
      }
      if (snap.digest !== node.digest) {
        at(
          {
            code: 'JPS-GRAPH-REFERENCE-DIGEST-MISMATCH',
            message: `node pins ${node.digest} but graph ${JSON.stringify(ref)} loaded as ${snap.digest} (B3)`,
          },
          '/digest',
        );
        continue;
      }
      const loaded = this.load(ref, snap.bytes);
      if (!loaded.ok) {
        at({ code: loaded.error.code, message: `graph ${JSON.stringify(ref)}: ${loaded.error.message}` });
        continue;
      }
      const child = loaded.value;
      if (node.version !== undefined && node.version !== child.version) {
        at(
          {
            code: 'JPS-GRAPH-REFERENCE-VERSION-MISMATCH',
            message: `node ${JSON.stringify(id)} pins version ${JSON.stringify(node.version)} but the loaded document declares ${JSON.stringify(child.version)} (B3)`,
          },
          '/version',
        );
        continue;
      }
      const childPath = `${path}/${id}`;
      for (const d of this.structure(ref, child)) this.diagnostics.push(prefixed(childPath, d));
      const instance = this.walk(child, childPath, ref, [...chain, ref]);
      children.set(id, instance);
      leaves = Math.min(leaves + instance.leaves, Number.MAX_SAFE_INTEGER);
    }
    return { path, name, doc, children, leaves };
  }
}

/** B5 item 3: the interface checks that need the child documents, root first, then instances depth first. */
function interfaceDiagnostics(inst: Instance, out: GraphDiagnostic[]): void {
  const { doc } = inst;
  const add = (d: GraphDiagnostic): void => {
    out.push(prefixed(inst.path, d));
  };
  for (const e of doc.edges) {
    const from = inst.children.get(e.from);
    if (from !== undefined && e.output !== undefined && !from.doc.outputs.has(e.output))
      add({
        code: 'JPS-GRAPH-EDGE-OUTPUT',
        path: `/edges/${e.index}/output`,
        message: `subgraph node ${JSON.stringify(e.from)} declares no output ${JSON.stringify(e.output)} (B2)`,
      });
    const to = inst.children.get(e.to);
    if (to === undefined || e.from === e.to) continue;
    if (e.fact !== undefined && !to.doc.inputFacts.some((m) => m.key === e.fact))
      add(undeclaredInput(`/edges/${e.index}/${e.factMember}`, e.to, e.fact));
    if (e.evidence !== undefined && !to.doc.inputEvidence.some((m) => m.key === e.evidence))
      add(undeclaredInput(`/edges/${e.index}`, e.to, e.evidence));
  }
  for (const m of doc.inputFacts) {
    const to = inst.children.get(m.node);
    if (to !== undefined && !to.doc.inputFacts.some((x) => x.key === m.pointer))
      add(undeclaredInput(`/inputs/facts/${escapeToken(m.key)}/pointer`, m.node, m.pointer));
  }
  for (const m of doc.inputEvidence) {
    const to = inst.children.get(m.node);
    if (to !== undefined && !to.doc.inputEvidence.some((x) => x.key === m.requirementId))
      add(undeclaredInput(`/inputs/evidence/${m.key}/requirementId`, m.node, m.requirementId));
  }
  for (const o of doc.outputs.values()) {
    const from = inst.children.get(o.node);
    if (from !== undefined && o.output !== undefined && !from.doc.outputs.has(o.output))
      add({
        code: 'JPS-GRAPH-OUTPUT-NODE',
        path: `/outputs/${o.name}/output`,
        message: `subgraph node ${JSON.stringify(o.node)} declares no output ${JSON.stringify(o.output)} (B2)`,
      });
  }
  for (const id of [...inst.children.keys()].sort()) interfaceDiagnostics(inst.children.get(id)!, out);
}

const undeclaredInput = (path: string, node: string, key: string): GraphDiagnostic => ({
  code: 'JPS-GRAPH-SUBGRAPH-INPUT-UNDECLARED',
  path,
  message: `subgraph node ${JSON.stringify(node)} declares no input ${JSON.stringify(key)} (B2)`,
});

export interface Resolution {
  readonly diagnostics: readonly GraphDiagnostic[];
  readonly root: Instance;
  /** Every `graphs` file the resolution read, by name: what its answer depends on besides names (ADR 0380). */
  readonly sources: ReadonlyMap<string, Loaded>;
}

export function resolveAll(root: GraphDocument, project: GraphProject): Resolution {
  const packs = new Set(project.packs.keys());
  const diagnostics: GraphDiagnostic[] = structuralDiagnostics(root, { packs, isRoot: true });
  const resolver = new Resolver(project);
  const tree = resolver.walk(root, '', project.rootName, project.rootName === undefined ? [] : [project.rootName]);
  diagnostics.push(...resolver.diagnostics);
  interfaceDiagnostics(tree, diagnostics);
  if (tree.leaves > GRAPH_LIMITS.leafInstances || resolver.visits > MAX_INSTANCE_VISITS)
    diagnostics.push({
      code: 'JPS-GRAPH-NODE-BUDGET',
      path: '',
      message: `the graph expands to more than ${GRAPH_LIMITS.leafInstances} leaf pack instances (B5)`,
    });
  return { diagnostics, root: tree, sources: resolver.snapshots };
}
