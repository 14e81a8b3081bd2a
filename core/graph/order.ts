/**
 * Evaluation order and cycles of one document (A4, A8 "Cycles", B5 "Dataflow cycles"): the dataflow edges between
 * declared nodes, self-edges and edges with an undeclared endpoint (and caller edges) left out; a subgraph node
 * stands as one node.
 */
import { CALLER, type GraphDocument } from './document.js';

type Adjacency = ReadonlyMap<string, readonly string[]>;

function adjacency(doc: GraphDocument): Adjacency {
  const out = new Map<string, string[]>();
  for (const id of doc.nodes.keys()) out.set(id, []);
  for (const e of doc.edges) {
    if (doc.formatVersion !== '1' && e.from === CALLER) continue;
    if (e.from === e.to || !doc.nodes.has(e.from) || !doc.nodes.has(e.to)) continue;
    out.get(e.from)!.push(e.to);
  }
  return out;
}

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A4: Kahn's algorithm taking the smallest ready id (byte-wise; ids are ASCII, so UTF-16 order is byte order) at
 * every step. Nodes on or behind a cycle are left out; structural validation refuses such a document first.
 */
export function evaluationOrder(doc: GraphDocument): string[] {
  const adj = adjacency(doc);
  const indegree = new Map<string, number>();
  for (const id of adj.keys()) indegree.set(id, 0);
  for (const targets of adj.values()) for (const t of targets) indegree.set(t, indegree.get(t)! + 1);
  const ready = [...indegree].filter(([, d]) => d === 0).map(([id]) => id);
  const order: string[] = [];
  while (ready.length > 0) {
    ready.sort(byteOrder);
    const next = ready.shift()!;
    order.push(next);
    for (const t of adj.get(next)!) {
      const d = indegree.get(t)! - 1;
      indegree.set(t, d);
      if (d === 0) ready.push(t);
    }
  }
  return order;
}

/** A8: the strongly connected components of more than one node (Tarjan), each sorted, sorted by first member. */
export function cycles(doc: GraphDocument): string[][] {
  const adj = adjacency(doc);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of adj.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort(byteOrder));
    }
  };
  // 64 nodes at most (A1), so the recursion depth is bounded.
  for (const v of [...adj.keys()].sort(byteOrder)) if (!index.has(v)) visit(v);
  return found.sort((a, b) => byteOrder(a[0]!, b[0]!));
}
