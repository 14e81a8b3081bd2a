/**
 * The handoffs of a graph run (docs/pipeline.md "Graph requests"; ADR 0361): every requested handoff at any depth
 * (graph-semantics.md B6, the output contract's `handoffs`, in its order) fans out to its route queue exactly as a
 * pack's disposition does (handoff-plan.ts: its routes, else its pack's target, else no destination), with the
 * originating instance path and the leaf's node id beside it and the target never rewritten (0022:252-254). The
 * route index runs over the whole run, so every message of one entry has its own handoff id. Read from the entry's
 * signed run text only: the pipeline plans from it and a consumer's reader re-plans from it to check a message.
 */
import type { Disposition, HandoffTarget } from '../evaluate/types.js';
import type { GraphRunEntryBody } from '../ledger/entries/entry-types.js';
import { isRec, type Rec } from '../ledger/primitives/shape.js';
import { planHandoffs, type PlannedHandoff, type RouteQueueConfig } from './handoff-plan.js';

/** One leaf whose disposition requested a handoff, as the run recorded it. */
export interface GraphLeafHandoff {
  /** The originating instance path (B6; format "1": the node id). */
  readonly instancePath: string;
  /** The leaf's local node id. */
  readonly node: string;
  readonly disposition: Disposition;
  /** SHA-256 (hex) of the leaf's pack, from the entry's closure (`packs[leaf.pack]`). */
  readonly packDigest: string;
  /** The pack's escalation target, when it declares one (A5 `handoffTarget`). */
  readonly packTarget?: HandoffTarget;
}

export type GraphPlannedHandoff = PlannedHandoff & { readonly instancePath: string; readonly node: string };

/** The requested handoffs of a graph run in the contract's order; [] for a refused run (it has no dispositions). */
export function graphLeafHandoffs(e: Pick<GraphRunEntryBody, 'run' | 'packs'>): GraphLeafHandoff[] {
  const run = JSON.parse(e.run) as unknown;
  if (!isRec(run) || run.status !== 'evaluated' || !Array.isArray(run.handoffs) || !Array.isArray(run.nodes)) return [];
  const leaves = new Map<string, Rec>();
  for (const n of run.nodes as unknown[])
    if (isRec(n) && typeof n.instancePath === 'string') leaves.set(n.instancePath, n);
  const out: GraphLeafHandoff[] = [];
  for (const h of run.handoffs as unknown[]) {
    if (!isRec(h)) continue;
    const path = typeof h.originatingNode === 'string' ? h.originatingNode : h.node;
    const leaf = typeof path === 'string' ? leaves.get(path) : undefined;
    if (leaf === undefined || typeof path !== 'string') continue;
    const disposition = leaf.disposition as Disposition;
    if (disposition?.handoff?.state !== 'requested') continue;
    out.push({
      instancePath: path,
      node: leaf.node as string,
      disposition,
      packDigest: e.packs[leaf.pack as string] ?? '',
      ...(isRec(leaf.handoffTarget) ? { packTarget: leaf.handoffTarget as unknown as HandoffTarget } : {}),
    });
  }
  return out;
}

/** The messages of a graph run's handoffs, each leaf planned as a pack's disposition is, one route index over all. */
export function planGraphHandoffs(
  e: Pick<GraphRunEntryBody, 'run' | 'packs'>,
  config: RouteQueueConfig,
): (GraphPlannedHandoff & { readonly leaf: GraphLeafHandoff })[] {
  const out: (GraphPlannedHandoff & { readonly leaf: GraphLeafHandoff })[] = [];
  for (const leaf of graphLeafHandoffs(e))
    for (const h of planHandoffs(leaf.disposition, leaf.packTarget, config))
      out.push({ ...h, routeIndex: out.length, instancePath: leaf.instancePath, node: leaf.node, leaf });
  return out;
}
