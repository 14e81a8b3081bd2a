/**
 * §6.7 schema-adjacent rule: a route's triggers, when present, are a subset of its escalation's triggers. Draft
 * 2020-12 cannot compare one array's items against another array's, so this is checked here and reported as a
 * structural finding (§3.2 "all schema-adjacent requirements"; docs/adr/0023-route-triggers-and-extended-ceilings.md).
 * Non-emptiness and duplicate-freedom are in the schema itself. Reads defensively: it runs beside the schema.
 */
import type { Diagnostic } from './types.js';
import { PackCodes } from './codes.js';

const VOCABULARY = new Set(['not-applicable', 'missing-required-evidence', 'unknown', 'conflict', 'no-match']);

export function checkRouteTriggers(plain: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  const esc = asRecord(asRecord(plain)?.['escalation']);
  if (esc === undefined) return out;
  const declared = esc['triggers'];
  const routes = esc['routes'];
  if (!Array.isArray(declared) || !Array.isArray(routes)) return out;
  const declaredSet = new Set(declared.filter((t): t is string => typeof t === 'string'));
  routes.forEach((route, r) => {
    const triggers = asRecord(route)?.['triggers'];
    if (!Array.isArray(triggers)) return;
    triggers.forEach((t, i) => {
      // A name outside the §6.7 vocabulary is already the schema's enum finding; report only real subset breaks.
      if (typeof t === 'string' && VOCABULARY.has(t) && !declaredSet.has(t)) {
        out.push({
          code: PackCodes.ROUTE_TRIGGER_NOT_DECLARED,
          severity: 'error',
          pointer: `/escalation/routes/${r}/triggers/${i}`,
          message: `route trigger "${t}" is not among the escalation's triggers; route triggers must be a subset of them (§6.7)`,
          trigger: t,
        });
      }
    });
  });
  return out;
}

function asRecord(x: unknown): Record<string, unknown> | undefined {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}
