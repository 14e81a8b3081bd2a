/**
 * The handoffs an entry fanned out, as the console shows them (docs/console.md "Handoffs"; ADR 0233): derived from
 * the signed entry by the evaluate function's own code — planHandoffs for the routing and queue, and
 * handoffMessagesFor for each message and its deterministic handoff id (ADR 0074) — never received from a route
 * queue: ReceiveMessage would hide a consumer's message, raise its receive count and could move a real handoff to
 * its DLQ. Queue depth, when asked, is GetQueueAttributes, which changes nothing.
 */
import type { HandoffTarget } from '../../core/evaluate/index.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import {
  handoffMessagesFor,
  planGraphHandoffs,
  planHandoffs,
  routeKey,
  type PlannedHandoff,
  type RouteQueueConfig,
} from '../../core/pipeline/index.js';
import type { HandoffView, HandoffsView } from '../../core/console-api/index.js';
import { routeTargetKey, type RouteConfig } from '../../infra/config.js';
import { routeQueueName, type StackSettings } from '../../stack/settings.js';

export interface HandoffContext {
  /** The deployment's routing, with physical queue names; null when unknown (files mode). */
  readonly config: RouteQueueConfig | null;
  readonly routesDescription: string;
  /** The pack's escalation target for a target-only pack (read from the registry); `unknown` without a registry. */
  packTarget(digest: string): Promise<HandoffTarget | undefined | 'unknown'>;
  queueDepth?(queue: string): Promise<{ visible: number; inFlight: number } | null>;
}

/** A stage's routes with their physical queue names, as the evaluate function plans them. */
export function routeQueueConfig(settings: StackSettings, routes: readonly RouteConfig[]): RouteQueueConfig {
  return {
    routeQueues: Object.fromEntries(routes.map((r) => [routeTargetKey(r), routeQueueName(settings, r.queue)])),
    unroutedQueue: routeQueueName(settings, 'unrouted'),
  };
}

/** Any queue name works for planning ids and route keys; only the queue column depends on the configuration. */
const UNKNOWN: RouteQueueConfig = { routeQueues: {}, unroutedQueue: '' };

export async function handoffsOf(
  entry: SignedEntry,
  body: string,
  entryHash: string,
  ctx: HandoffContext,
): Promise<HandoffsView> {
  const base = { routes: ctx.routesDescription, handoffs: [] };
  let plan: readonly (PlannedHandoff & { readonly instancePath?: string })[];
  if (entry.kind === 'graph-run') {
    // Every requested handoff at any depth, planned from the signed run text as the evaluate function plans them
    // (planGraphHandoffs, ADR 0361), each with the instance path it came from.
    plan = planGraphHandoffs(entry, ctx.config ?? UNKNOWN);
    if (plan.length === 0) return { none: 'no node of the graph run requested a handoff', ...base };
  } else {
    if (entry.kind !== 'disposition') return { ...base, none: `an ${entry.kind} requests no handoff` };
    const d = entry.disposition;
    if (d.handoff.state !== 'requested')
      return { ...base, none: `the disposition's handoff state is ${d.handoff.state}` };
    // Target-only packs: §8.3 "a consumer reads that target from the pack" — as the evaluate function does.
    const target =
      d.handoff.routes === undefined && entry.pack !== null ? await ctx.packTarget(entry.pack.digest) : undefined;
    if (target === 'unknown')
      return { ...base, none: "the pack's escalation target decides it, and no pack registry is at hand" };
    plan = planHandoffs(d, target, ctx.config ?? UNKNOWN);
  }
  const messages = handoffMessagesFor({ entry, body, entryHash }, plan);
  const handoffs: HandoffView[] = [];
  for (const [i, h] of plan.entries()) {
    const queue = ctx.config === null ? null : h.queue;
    handoffs.push({
      routeIndex: h.routeIndex,
      shape: h.shape,
      routeKey: h.target ? routeKey(h.target) : null,
      destination: ctx.config === null ? null : h.destination,
      queue,
      handoffId: messages[i]!.id,
      bytes: new TextEncoder().encode(messages[i]!.body).length,
      depth: queue !== null && ctx.queueDepth ? await ctx.queueDepth(queue) : null,
      ...(h.instancePath !== undefined ? { instancePath: h.instancePath } : {}),
    });
  }
  return { none: null, routes: ctx.routesDescription, handoffs };
}
