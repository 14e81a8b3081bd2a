/**
 * The closed set a published graph pins (ADR 0340): every pack and every subgraph document the graph needs, at any
 * depth, each named by its jpack.json name and pinned by the SHA-256 of its exact bytes (B3: digests bind bytes).
 * Derived from the graph documents themselves, so a stored closure can always be re-derived and compared.
 */
import { bytesDigest, loadGraph, type GraphProject } from '../graph/index.js';

import { CLOSURE_FORMAT } from './closure-format.js';

export { CLOSURE_FORMAT };

export interface GraphClosure {
  readonly format: typeof CLOSURE_FORMAT;
  /** "sha256:<hex>" of the graph's exact bytes. */
  readonly graph: string;
  readonly graphId: string;
  readonly graphVersion: string;
  /** jpack.json `packs` name → "sha256:<hex>" of the pack's exact bytes, every name used at any depth. */
  readonly packs: Readonly<Record<string, string>>;
  /** jpack.json `graphs` name → the digest every subgraph node naming it pins, at any depth. */
  readonly graphs: Readonly<Record<string, string>>;
  /**
   * The graph's own rows (its jpack.json `rows`) the publisher ran before publishing it (ADR 0431): the SHA-256 of
   * the rows file's exact bytes, its case count and how many passed. Absent when the graph declares no rows or the
   * publisher skipped its tests. What the graph was tested against, never part of the closed-set check.
   */
  readonly testedRows?: TestedRows;
}

export interface TestedRows {
  /** "sha256:<hex>" of the rows file's exact bytes. */
  readonly digest: string;
  readonly cases: number;
  readonly passed: number;
}

export type ClosureCode =
  'graph-unloadable' | 'member-missing' | 'member-differs' | 'pin-conflict' | 'closure-mismatch';

export interface ClosureFinding {
  readonly code: ClosureCode;
  /** "pack <name>", "graph <name>" or "graph" for the root document. */
  readonly member: string;
  readonly message: string;
}

export type ClosureResult =
  | { readonly ok: true; readonly closure: GraphClosure }
  | { readonly ok: false; readonly findings: readonly ClosureFinding[] };

const sorted = (m: Map<string, string>): Record<string, string> =>
  Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Walks the graph and every subgraph it references (through `project`), collecting names and digests. Every finding
 * is reported, in walk order: a name the project lacks or cannot read (`member-missing`), subgraph bytes that do not
 * hash to their pin (`member-differs`), one name pinned to two digests (`pin-conflict`), an unloadable document.
 */
export function closureOf(graph: Uint8Array, project: GraphProject): ClosureResult {
  const findings: ClosureFinding[] = [];
  const loaded = loadGraph(graph);
  if (!loaded.ok)
    return { ok: false, findings: [{ code: 'graph-unloadable', member: 'graph', message: loaded.error.message }] };
  const packs = new Map<string, string>();
  const graphs = new Map<string, string>();
  const walk = (bytes: Uint8Array, where: string): void => {
    const doc = loadGraph(bytes);
    if (!doc.ok) {
      findings.push({ code: 'graph-unloadable', member: where, message: doc.error.message });
      return;
    }
    for (const id of [...doc.value.nodes.keys()].sort()) {
      const node = doc.value.nodes.get(id)!;
      if (node.kind === 'pack') {
        if (packs.has(node.pack)) continue;
        const file = project.packs.get(node.pack);
        if (!file?.ok) {
          findings.push(missing(`pack ${node.pack}`, file === undefined ? 'not in the project' : file.message));
          continue;
        }
        packs.set(node.pack, bytesDigest(file.bytes));
        continue;
      }
      const member = `graph ${node.subgraph}`;
      const pinned = graphs.get(node.subgraph);
      if (pinned !== undefined) {
        if (pinned !== node.digest)
          findings.push({
            code: 'pin-conflict',
            member,
            message: `${member} is pinned to both ${pinned} and ${node.digest}`,
          });
        continue;
      }
      graphs.set(node.subgraph, node.digest);
      const file = project.graphs.get(node.subgraph);
      if (!file?.ok) {
        findings.push(missing(member, file === undefined ? 'not in the project' : file.message));
        continue;
      }
      const actual = bytesDigest(file.bytes);
      if (actual !== node.digest) {
        findings.push({
          code: 'member-differs',
          member,
          message: `${member} hashes to ${actual}, not to its pin ${node.digest} (B3)`,
        });
        continue;
      }
      walk(file.bytes, member);
    }
  };
  walk(graph, 'graph');
  if (findings.length > 0) return { ok: false, findings };
  return {
    ok: true,
    closure: {
      format: CLOSURE_FORMAT,
      graph: loaded.value.digest,
      graphId: loaded.value.id,
      graphVersion: loaded.value.version,
      packs: sorted(packs),
      graphs: sorted(graphs),
    },
  };
}

function missing(member: string, why: string): ClosureFinding {
  return { code: 'member-missing', member, message: `${member} is missing: ${why}` };
}
