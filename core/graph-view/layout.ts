/**
 * A deterministic layout of a graph run (ADR 0341): each graph level (the root, then every subgraph instance) is laid
 * out on its own, left to right in layers by Kahn order (smallest id first, as the run itself orders nodes, A4/B6);
 * a node's layer is one past its latest same-level upstream. A subgraph instance is a box sized by its own layout.
 * No randomness, no measuring of text: the same result object gives the same coordinates forever.
 */
import type { GraphRunView, ViewFeed, ViewInstance, ViewLeaf } from './read.js';

export const LEAF_W = 280;
export const LEAF_H = 72;
const GAP_X = 190;
/** Room inside a box, left of its nodes, for the labels of edges from its interface. */
const BOX_INNER_LEFT = 170;
const GAP_Y = 28;
const PAD = 20;
const BOX_HEADER = 44;
const CALLER_W = 96;
const CALLER_H = 40;

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface LaidLeaf extends Rect {
  readonly leaf: ViewLeaf;
  /** Index in the result's `nodes`: the page anchor of its disposition is `disposition-<index>`. */
  readonly index: number;
}

export interface LaidBox extends Rect {
  readonly instance: ViewInstance;
  /** Nesting depth, 1 for an instance in the root graph. */
  readonly depth: number;
}

export interface LaidEdge {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly feed: ViewFeed;
}

export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  readonly caller: Rect | null;
  readonly leaves: readonly LaidLeaf[];
  readonly boxes: readonly LaidBox[];
  readonly edges: readonly LaidEdge[];
}

interface Vertex {
  readonly id: string;
  readonly path: readonly string[];
  readonly feeds: readonly ViewFeed[];
  readonly leaf?: { leaf: ViewLeaf; index: number };
  readonly instance?: ViewInstance;
  children: Vertex[];
  w: number;
  h: number;
  /** Relative to the parent level's origin until `absolute` runs. */
  x: number;
  y: number;
}

const keyOf = (path: readonly string[]): string => JSON.stringify(path);
const byId = (a: Vertex, b: Vertex): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Kahn order and layer of each vertex of one level; a cycle (impossible in a valid run) is laid after the rest. */
function layers(vs: readonly Vertex[]): Map<Vertex, number> {
  const ids = new Map(vs.map((v) => [v.id, v]));
  const preds = new Map(vs.map((v) => [v, new Set(v.feeds.map((f) => ids.get(f.from)).filter((p) => p && p !== v))]));
  const layer = new Map<Vertex, number>();
  const pending = [...vs].sort(byId);
  while (pending.length > 0) {
    const i = pending.findIndex((v) => [...preds.get(v)!].every((p) => layer.has(p!)));
    const v = pending.splice(i === -1 ? 0 : i, 1)[0]!;
    const done = [...preds.get(v)!].filter((p) => layer.has(p!)).map((p) => layer.get(p!)!);
    layer.set(v, done.length === 0 ? 0 : Math.max(...done) + 1);
  }
  return layer;
}

/** Sizes and relative positions of one level's vertices; returns the level's content size. */
function placeLevel(vs: Vertex[], left: number, top: number): { w: number; h: number } {
  for (const v of vs) if (v.instance) sizeBox(v);
  const layer = layers(vs);
  const columns: Vertex[][] = [];
  for (const [v, l] of layer) (columns[l] ??= []).push(v);
  let x = left;
  let h = 0;
  for (const col of columns) {
    if (!col) continue;
    let y = top;
    for (const v of col) {
      v.x = x;
      v.y = y;
      y += v.h + GAP_Y;
    }
    h = Math.max(h, y - GAP_Y - top);
    x += Math.max(...col.map((v) => v.w)) + GAP_X;
  }
  return { w: Math.max(0, x - GAP_X - left), h };
}

function sizeBox(v: Vertex): void {
  const inner = placeLevel(v.children, BOX_INNER_LEFT, BOX_HEADER);
  // Wide enough for the full digest label (72 monospace characters).
  v.w = Math.max(inner.w + BOX_INNER_LEFT + PAD, 480);
  v.h = inner.h + BOX_HEADER + PAD;
}

function absolute(vs: readonly Vertex[], dx: number, dy: number): void {
  for (const v of vs) {
    v.x += dx;
    v.y += dy;
    absolute(v.children, v.x, v.y);
  }
}

export function layoutGraphRun(run: GraphRunView): GraphLayout {
  const byPath = new Map<string, Vertex>();
  const make = (path: readonly string[], feeds: readonly ViewFeed[], extra: Partial<Vertex>): Vertex => {
    const v: Vertex = { id: path.at(-1)!, path, feeds, children: [], w: LEAF_W, h: LEAF_H, x: 0, y: 0, ...extra };
    byPath.set(keyOf(path), v);
    return v;
  };
  // Parents first (the contract lists instances parents first), so every child finds its box.
  const instances = [...run.instances].sort((a, b) => a.path.length - b.path.length);
  for (const inst of instances) make(inst.path, inst.feeds, { instance: inst });
  run.leaves.forEach((leaf, index) => make(leaf.path, leaf.feeds, { leaf: { leaf, index } }));
  const root: Vertex[] = [];
  for (const v of byPath.values()) {
    const parent = v.path.length === 1 ? undefined : byPath.get(keyOf(v.path.slice(0, -1)));
    if (v.path.length === 1) root.push(v);
    else if (parent?.instance) parent.children.push(v);
  }
  const callerUsed = root.some((v) => v.feeds.some((f) => f.from === 'caller'));
  const left = PAD + (callerUsed ? CALLER_W + GAP_X : 0);
  const size = placeLevel(root, left, PAD);
  absolute(root, 0, 0);
  const caller = callerUsed
    ? { x: PAD, y: PAD + Math.max(0, size.h / 2 - CALLER_H / 2), w: CALLER_W, h: CALLER_H }
    : null;

  const leaves: LaidLeaf[] = [];
  const boxes: LaidBox[] = [];
  const edges: LaidEdge[] = [];
  const visit = (vs: readonly Vertex[], depth: number, parent: Vertex | undefined): void => {
    for (const v of [...vs].sort(byId)) {
      if (v.leaf) leaves.push({ x: v.x, y: v.y, w: v.w, h: v.h, ...v.leaf });
      if (v.instance) boxes.push({ x: v.x, y: v.y, w: v.w, h: v.h, instance: v.instance, depth });
      const ids = new Map(vs.map((s) => [s.id, s]));
      v.feeds.forEach((feed, i) => {
        // Into a box, edges end in its header band, away from the edges its interface feeds inside.
        const y2 = v.instance
          ? v.y + 10 + (i * (BOX_HEADER - 14)) / Math.max(1, v.feeds.length - 1)
          : v.y + ((i + 1) * v.h) / (v.feeds.length + 1);
        const src = ids.get(feed.from);
        if (src && src !== v) edges.push({ x1: src.x + src.w, y1: src.y + src.h / 2, x2: v.x, y2, feed });
        else if (parent && (feed.from === 'caller' || feed.from.startsWith('input:')))
          edges.push({ x1: parent.x, y1: y2, x2: v.x, y2, feed });
        else if (!parent && caller && feed.from === 'caller')
          edges.push({ x1: caller.x + caller.w, y1: caller.y + caller.h / 2, x2: v.x, y2, feed });
      });
      visit(v.children, depth + 1, v);
    }
  };
  visit(root, 1, undefined);
  leaves.sort((a, b) => a.index - b.index);
  return {
    width: left + size.w + PAD,
    height: Math.max(size.h, caller ? CALLER_H : 0) + 2 * PAD,
    caller,
    leaves,
    boxes,
    edges,
  };
}
