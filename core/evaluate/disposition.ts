import canonicalize from 'canonicalize';
import { REASONS, TRIGGER_REASONS, type Disposition, type HandoffTarget, type Reason } from './types.js';

/**
 * The one serializer of a disposition (§8.3). It checks every §8.3 invariant, then emits RFC 8785 bytes through the
 * `canonicalize` package. A violation is a bug in the evaluator, never an input-driven condition, so it throws.
 */
export class DispositionInvariantError extends Error {
  override readonly name = 'DispositionInvariantError';
  readonly code = 'disposition-invariant';
  constructor(readonly invariant: string) {
    super(`§8.3 invariant violated: ${invariant}`);
  }
}

/** What the pack says about a disposition produced from it; when given, the pack-relative invariants are checked. */
export interface DispositionContext {
  readonly outcomeIds: ReadonlySet<string>;
  /** The escalation's triggers, or undefined when the pack has no escalation object. */
  readonly triggers: ReadonlySet<string> | undefined;
  /** The declared route targets, or undefined when the pack declares no routes (§8.3: routes present iff declared). */
  readonly routeTargets: readonly HandoffTarget[] | undefined;
}

const REASON_SET: ReadonlySet<string> = new Set(REASONS);
const TRIGGER_SET: ReadonlySet<string> = new Set(TRIGGER_REASONS);
const KINDS: ReadonlySet<string> = new Set(['outcome', 'not-applicable', 'unresolved']);
const TARGET_KINDS: ReadonlySet<string> = new Set(['human-role', 'queue', 'system']);
const LOCAL_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** A lone surrogate, which RFC 8785 cannot serialize (String#isWellFormed is not in Node 20's ES2022 typings). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const fail = (invariant: string): never => {
  throw new DispositionInvariantError(invariant);
};

const isPlainRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

function onlyMembers(o: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(o)) if (!allowed.includes(key)) fail(`${where} has no member ${JSON.stringify(key)}`);
}

/** §8.3 serialization: sets are sorted ascending by code point with no duplicates. All members are ASCII, so code
 * point order and UTF-16 order agree. */
function checkSortedSet(xs: unknown, where: string): asserts xs is readonly Reason[] {
  if (!Array.isArray(xs)) fail(`${where} is an array`);
  const arr = xs as unknown[];
  for (let i = 0; i < arr.length; i++) {
    const r = arr[i];
    if (typeof r !== 'string' || !REASON_SET.has(r)) fail(`${where} holds only §8 reasons`);
    if (i > 0 && !((arr[i - 1] as string) < (r as string))) fail(`${where} is sorted ascending and duplicate-free`);
  }
}

function checkTarget(t: unknown, where: string): void {
  if (!isPlainRecord(t)) fail(`${where} is an object`);
  const o = t as Record<string, unknown>;
  onlyMembers(o, ['kind', 'name'], where);
  if (typeof o.kind !== 'string' || !TARGET_KINDS.has(o.kind)) fail(`${where}.kind is human-role, queue or system`);
  if (typeof o.name !== 'string' || o.name.length === 0 || LONE_SURROGATE.test(o.name))
    fail(`${where}.name is a non-empty well-formed string`);
}

function checkHandoff(h: unknown, reasons: readonly Reason[], ctx: DispositionContext | undefined): void {
  if (!isPlainRecord(h)) fail('handoff is an object');
  const o = h as Record<string, unknown>;
  onlyMembers(o, ['state', 'triggeredBy', 'routes'], 'handoff');
  if (o.state !== 'none' && o.state !== 'requested') fail('handoff.state is none or requested');
  // §8.3: triggeredBy present iff state is requested; a non-empty subset of reasons.
  if (o.state === 'requested') {
    if (!('triggeredBy' in o)) fail('triggeredBy is present when state is requested');
    checkSortedSet(o.triggeredBy, 'handoff.triggeredBy');
    const tb = o.triggeredBy as readonly Reason[];
    if (tb.length === 0) fail('triggeredBy is non-empty');
    for (const r of tb) {
      if (!reasons.includes(r)) fail('triggeredBy is a subset of reasons');
      if (r !== 'exception-escalation' && ctx !== undefined && !(ctx.triggers?.has(r) ?? false))
        fail('triggeredBy names only escalation triggers and exception-escalation');
    }
    // §8.1: every retained reason among the triggers triggers the request, and a direct request is named as such.
    for (const r of reasons) {
      if (r === 'exception-escalation' && !tb.includes(r)) fail('a direct exception request is in triggeredBy');
      if (ctx !== undefined && TRIGGER_SET.has(r) && (ctx.triggers?.has(r) ?? false) && !tb.includes(r))
        fail('triggeredBy holds every retained reason in escalation.triggers');
    }
  } else if ('triggeredBy' in o) fail('triggeredBy is absent when state is none');
  // §8.3: routes present iff the pack declares escalation.routes; non-empty iff requested.
  if ('routes' in o) {
    if (ctx !== undefined && ctx.routeTargets === undefined) fail('routes is absent when the pack declares no routes');
    if (!Array.isArray(o.routes)) fail('handoff.routes is an array');
    const routes = o.routes as unknown[];
    routes.forEach((t, i) => checkTarget(t, `handoff.routes[${i}]`));
    if (o.state === 'requested' && routes.length === 0)
      fail('a requested handoff over routes names at least one route');
    if (o.state === 'none' && routes.length !== 0) fail('routes is empty when state is none');
    if (ctx?.routeTargets !== undefined) {
      const declared = ctx.routeTargets;
      for (const t of routes as HandoffTarget[]) {
        if (!declared.some((d) => d.kind === t.kind && d.name === t.name))
          fail('every route target is declared by the pack');
      }
      if (routes.length > declared.length) fail('at most one request per declared route');
    }
  } else if (ctx?.routeTargets !== undefined) fail('routes is present when the pack declares routes');
}

/** Checks every §8.3 invariant of `d`; throws DispositionInvariantError on the first violation. */
export function checkDisposition(d: Disposition, ctx?: DispositionContext): void {
  if (!isPlainRecord(d)) fail('a disposition is an object');
  const o = d as unknown as Record<string, unknown>;
  onlyMembers(o, ['kind', 'outcomeId', 'reasons', 'handoff'], 'disposition');
  if (typeof o.kind !== 'string' || !KINDS.has(o.kind)) fail('kind is outcome, not-applicable or unresolved');
  checkSortedSet(o.reasons, 'reasons');
  const reasons = o.reasons as readonly Reason[];
  if (o.kind === 'outcome') {
    if (typeof o.outcomeId !== 'string' || !LOCAL_ID.test(o.outcomeId))
      fail('outcomeId is a local id when kind is outcome');
    if (ctx !== undefined && !ctx.outcomeIds.has(o.outcomeId as string)) fail('outcomeId names a declared outcome');
    if (reasons.length !== 0) fail('reasons is empty when kind is outcome');
  } else {
    if ('outcomeId' in o) fail('outcomeId is absent unless kind is outcome');
    if (reasons.length === 0) fail('reasons is non-empty unless kind is outcome');
  }
  if (o.kind === 'not-applicable' && !(reasons.length === 1 && reasons[0] === 'not-applicable'))
    fail('a not-applicable result carries exactly the reason not-applicable');
  if (o.kind !== 'not-applicable' && reasons.includes('not-applicable'))
    fail('the reason not-applicable accompanies only kind not-applicable');
  if (!('handoff' in o)) fail('handoff is present');
  checkHandoff(o.handoff, reasons, ctx);
}

/** §8.3 + RFC 8785: the canonical bytes (as a string) of a disposition, after checking every invariant. */
export function canonicalDisposition(d: Disposition, ctx?: DispositionContext): string {
  checkDisposition(d, ctx);
  const bytes = canonicalize(d);
  if (bytes === undefined) return fail('a disposition canonicalizes to JSON');
  return bytes;
}
