import type { CompiledEscalation } from './compiled-pack.js';
import type { Handoff, HandoffTarget, Reason } from './types.js';

const NONE: Handoff = Object.freeze({ state: 'none' });
const NONE_ROUTED: Handoff = Object.freeze({ state: 'none', routes: Object.freeze([]) as readonly HandoffTarget[] });

/**
 * §8.1 handoff selection from the complete retained reasons (sorted, duplicate-free).
 * - A request is made by a retained reason in escalation.triggers, or by a direct exception escalation.
 * - target: one request; triggeredBy = the retained reasons among the triggers, plus exception-escalation.
 * - routes: only when a request is made, select every route whose triggers meet the complete reasons and every
 *   route without triggers, in declaration order, duplicates kept; none selected → state none, routes [].
 * - no escalation object: a direct request is still requested, with no destination and no routes member.
 */
export function selectHandoff(escalation: CompiledEscalation | undefined, reasons: readonly Reason[]): Handoff {
  const direct = reasons.includes('exception-escalation');
  if (escalation === undefined) {
    return direct ? { state: 'requested', triggeredBy: ['exception-escalation'] } : NONE;
  }
  // Sorted input and filter keep triggeredBy sorted by code point.
  const triggeredBy = reasons.filter((r) => r === 'exception-escalation' || escalation.triggers.has(r as never));
  const routes = escalation.routes;
  if (triggeredBy.length === 0) return routes === undefined ? NONE : NONE_ROUTED;
  if (routes === undefined) return { state: 'requested', triggeredBy };
  const selected: HandoffTarget[] = [];
  for (const route of routes) {
    if (route.triggers === undefined || route.triggers.some((t) => reasons.includes(t))) selected.push(route.target);
  }
  // §8.1: a direct exception bypasses the trigger gate but not route filters.
  if (selected.length === 0) return NONE_ROUTED;
  return { state: 'requested', triggeredBy, routes: selected };
}
