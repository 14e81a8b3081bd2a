/**
 * Handoff fan-out plan (ADR 0073, ADR 0074): which messages a disposition sends, to which queue, in which order.
 *
 * - A pack declaring routes: one message per entry of `disposition.handoff.routes` (§8.1: the selected routes, in
 *   declaration order, duplicate targets kept as distinct routes), routeIndex = position in that array.
 * - A pack declaring a target: one message to the target's queue (§8.3: the disposition does not echo the target;
 *   "a consumer reads that target from the pack"), routeIndex 0.
 * - A direct exception escalation with no escalation object (§8.1: "no Core-defined destination"): one message to
 *   the `unrouted` queue, routeIndex 0, no target.
 * - A target with no configured queue also goes to `unrouted`, marked `unmapped-target`, so nothing is dropped.
 * The target → queue mapping is configuration (ROUTE_QUEUES, keyed "<kind>:<name>"), never code.
 */
import type { Disposition, HandoffTarget } from '../evaluate/types.js';

export type HandoffShape = 'route' | 'target' | 'no-destination';
export type HandoffDestination = 'configured' | 'unmapped-target' | 'no-destination';

export interface PlannedHandoff {
  readonly routeIndex: number;
  readonly shape: HandoffShape;
  readonly target?: HandoffTarget;
  readonly destination: HandoffDestination;
  /** The queue URL (or local queue key) the message goes to. */
  readonly queue: string;
}

export interface RouteQueueConfig {
  /** "<kind>:<name>" → queue URL. */
  readonly routeQueues: Readonly<Record<string, string>>;
  readonly unroutedQueue: string;
}

export const routeKey = (t: HandoffTarget): string => `${t.kind}:${t.name}`;

/** Plans the handoffs of one disposition. `packTarget` is the pack's `escalation.target`, when it declares one. */
export function planHandoffs(
  disposition: Disposition,
  packTarget: HandoffTarget | undefined,
  config: RouteQueueConfig,
): PlannedHandoff[] {
  const h = disposition.handoff;
  if (h.state !== 'requested') return [];
  const toTarget = (routeIndex: number, shape: 'route' | 'target', target: HandoffTarget): PlannedHandoff => {
    // Own-property lookup: a target named "__proto__" or "constructor" is data, not a prototype member.
    const key = routeKey(target);
    const queue = Object.prototype.hasOwnProperty.call(config.routeQueues, key) ? config.routeQueues[key] : undefined;
    return queue !== undefined
      ? { routeIndex, shape, target, destination: 'configured', queue }
      : { routeIndex, shape, target, destination: 'unmapped-target', queue: config.unroutedQueue };
  };
  if (h.routes !== undefined) return h.routes.map((t, i) => toTarget(i, 'route', t));
  if (packTarget !== undefined) return [toTarget(0, 'target', packTarget)];
  return [{ routeIndex: 0, shape: 'no-destination', destination: 'no-destination', queue: config.unroutedQueue }];
}

/** Parses ROUTE_QUEUES (a JSON object of strings); throws on a misconfiguration (a deploy bug, not input). */
export function parseRouteQueues(text: string | undefined): Record<string, string> {
  if (text === undefined || text === '') return {};
  const v = JSON.parse(text) as unknown;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new TypeError('ROUTE_QUEUES must be a JSON object');
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, url] of Object.entries(v)) {
    if (typeof url !== 'string' || url === '')
      throw new TypeError(`ROUTE_QUEUES[${JSON.stringify(k)}] must be a queue URL`);
    out[k] = url;
  }
  return out;
}
