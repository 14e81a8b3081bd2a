/**
 * Verifying a handoff message offline against a trust policy (docs/pipeline.md "Verifying a handoff";
 * docs/adr/0140-verifiable-handoff-messages.md). Anyone who may send to a route queue can write a message; only the
 * holder of an entry key can sign an entry. A handoff is accepted only when the entry it carries is signed under the
 * key the trust policy pins for that log and seq, by an accepted evaluator build, and its routing members match the
 * signed disposition. The reasons are fixed codes, checked in the order of HANDOFF_REJECTIONS; the first that
 * applies is the verdict.
 *
 * Offline verification proves the key holder recorded the entry; that it is still in the log is `docket verify`'s
 * question. A genuine message re-sent is a redelivery: consumers deduplicate on handoffId (ADR 0074).
 */
import type { HandoffTarget } from '../evaluate/types.js';
import { verifyParsedEntrySignature } from '../ledger/entries/entry.js';
import type { SignatureBackend } from '../ledger/primitives/signature.js';
import {
  draftFeaturesAllowed,
  isAllowedBuild,
  keyForEntry,
  type TrustPolicy,
} from '../ledger/trust-policy/trust-policy.js';
import { readHandoffMessage, readHandoffText, type HandoffMessage } from './handoff-message.js';
import { routeKey } from './handoff-plan.js';

/** Every reason a handoff is refused, in the order checked. Stable codes: consumers may match on them. */
export const HANDOFF_REJECTIONS = [
  'message-malformed',
  'unsupported-format',
  'entry-malformed',
  'not-a-handoff',
  'route-mismatch',
  'handoff-id-mismatch',
  'unknown-key',
  'key-not-valid-at-seq',
  'signature-mismatch',
  'evaluator-build-not-allowed',
  'draft-features-not-allowed',
  'wrong-queue',
] as const;
export type HandoffRejection = (typeof HANDOFF_REJECTIONS)[number];

export type HandoffVerdict =
  | { readonly ok: true; readonly handoff: HandoffMessage }
  | { readonly ok: false; readonly reason: HandoffRejection; readonly detail: string };

/**
 * The route queue being read: its queue key and the deployment's route configuration ("<kind>:<name>" → queue key,
 * infra/config.ts RouteConfig). A handoff belongs on the queue its route resolves to (the plan of
 * core/pipeline/handoff-plan.ts): a configured target's key, else `unrouted` (no destination, or a target with no
 * queue). docs/adr/0300-handoff-consumers-check-the-route-queue.md.
 */
export interface RouteQueueOfReader {
  readonly key: string;
  readonly routeQueues: Readonly<Record<string, string>>;
}

/** The key of the unrouted queue (handoff-plan: destinationless and unmapped handoffs). */
export const UNROUTED_QUEUE_KEY = 'unrouted';

/** The queue key a handoff's route resolves to under a route configuration (as planHandoffs sends it). */
export function routeQueueKeyOf(m: HandoffMessage, routeQueues: Readonly<Record<string, string>>): string {
  if (m.target === undefined) return UNROUTED_QUEUE_KEY;
  const key = routeKey(m.target);
  // Own-property lookup: a target named "__proto__" or "constructor" is data, not a prototype member.
  return Object.prototype.hasOwnProperty.call(routeQueues, key) ? (routeQueues[key] as string) : UNROUTED_QUEUE_KEY;
}

export interface HandoffVerifyOptions {
  /** The queue being read: a genuine handoff whose route resolves to another queue key is refused as wrong-queue. */
  readonly routeQueue?: RouteQueueOfReader;
  /**
   * The targets the queue being read serves (the route configuration's targets for that queue key). When given, a
   * genuine handoff for another target — copied onto this queue — is refused as `wrong-queue`. A destinationless
   * handoff (no target) matches only when `acceptNoDestination` is set (the unrouted queue).
   */
  readonly expectedTargets?: readonly HandoffTarget[];
  readonly acceptNoDestination?: boolean;
  readonly backend?: SignatureBackend;
}

type Refusal = { readonly reason: HandoffRejection; readonly detail: string };

/** One check of a read message, after the reader's own; undefined when it passes. */
export interface HandoffCheck {
  readonly name: 'entry-key' | 'signature' | 'evaluator-build' | 'draft-features' | 'route-queue' | 'queue';
  check(m: HandoffMessage, policy: TrustPolicy, options: HandoffVerifyOptions): Refusal | undefined;
}

const at = (m: HandoffMessage): string => `${m.ledger.logId}#${m.ledger.seq}`;

/** The checks verifyHandoff runs, in order (HANDOFF_REJECTIONS order). */
export const HANDOFF_CHECKS: readonly HandoffCheck[] = [
  {
    name: 'entry-key',
    check(m, policy) {
      const e = m.entry.entry;
      const key = keyForEntry(policy, e.keyId, e.logId, e.seq);
      return key.ok ? undefined : { reason: key.code, detail: `entry ${at(m)} names key ${e.keyId}` };
    },
  },
  {
    name: 'signature',
    check(m, policy, options) {
      const e = m.entry.entry;
      const key = policy.keys.find((k) => k.keyId === e.keyId);
      return key !== undefined && verifyParsedEntrySignature(m.entry, key.publicKey, options.backend)
        ? undefined
        : { reason: 'signature-mismatch', detail: `entry ${at(m)} is not signed by ${e.keyId}` };
    },
  },
  {
    name: 'evaluator-build',
    check(m, policy) {
      const build = m.entry.entry.evaluator.buildDigest;
      return isAllowedBuild(policy, build)
        ? undefined
        : { reason: 'evaluator-build-not-allowed', detail: `entry ${at(m)} was written by build ${build}` };
    },
  },
  {
    // ADR 0222: as verify judges it, the entry's recorded draft features must be permitted for its log.
    name: 'draft-features',
    check(m, policy) {
      const e = m.entry.entry;
      return draftFeaturesAllowed(policy, e.logId, e.seq, e.draftFeatures)
        ? undefined
        : {
            reason: 'draft-features-not-allowed',
            detail: `entry ${at(m)} was evaluated with draft features ${(e.draftFeatures ?? []).join(', ')}`,
          };
    },
  },
  {
    // ADR 0300: the queue a consumer reads is named by its route key; a genuine handoff copied onto another route's
    // queue is refused there, as the plan would never have sent it.
    name: 'route-queue',
    check(m, _policy, options) {
      const q = options.routeQueue;
      if (q === undefined) return undefined;
      const belongs = routeQueueKeyOf(m, q.routeQueues);
      return belongs === q.key
        ? undefined
        : {
            reason: 'wrong-queue',
            detail: `a handoff for ${m.target === undefined ? 'no destination' : `${m.target.kind}:${m.target.name}`} belongs on route queue ${belongs}, not ${q.key}`,
          };
    },
  },
  {
    // --expect-target: narrows further, to the named targets.
    name: 'queue',
    check(m, _policy, options) {
      if (options.expectedTargets === undefined && options.acceptNoDestination === undefined) return undefined;
      const t = m.target;
      const fits =
        t === undefined
          ? options.acceptNoDestination === true
          : (options.expectedTargets ?? []).some((x) => x.kind === t.kind && x.name === t.name);
      return fits
        ? undefined
        : {
            reason: 'wrong-queue',
            detail: `a handoff for ${t === undefined ? 'no destination' : `${t.kind}:${t.name}`} does not belong on this queue`,
          };
    },
  },
];

/** Verifies one handoff message's bytes. Never throws for bad input. */
export function verifyHandoff(
  bytes: Uint8Array,
  policy: TrustPolicy,
  options: HandoffVerifyOptions = {},
): HandoffVerdict {
  return verifyHandoffWith(HANDOFF_CHECKS, bytes, policy, options);
}

/**
 * verifyHandoff of the UTF-8 bytes of `text`, the message as an SQS body carries it (readHandoffText: the same
 * verdicts without encoding and decoding the body; docs/adr/0494-handoff-consumer-reads-body-text.md).
 */
export function verifyHandoffText(
  text: string,
  policy: TrustPolicy,
  options: HandoffVerifyOptions = {},
): HandoffVerdict {
  return verdictOf(HANDOFF_CHECKS, readHandoffText(text), policy, options);
}

/** verifyHandoff with an explicit list of checks (the corpus's teeth tests drop one to show it matters). */
export function verifyHandoffWith(
  checks: readonly HandoffCheck[],
  bytes: Uint8Array,
  policy: TrustPolicy,
  options: HandoffVerifyOptions = {},
): HandoffVerdict {
  return verdictOf(checks, readHandoffMessage(bytes), policy, options);
}

function verdictOf(
  checks: readonly HandoffCheck[],
  read: ReturnType<typeof readHandoffMessage>,
  policy: TrustPolicy,
  options: HandoffVerifyOptions,
): HandoffVerdict {
  if (!read.ok) return { ok: false, reason: read.error.code, detail: read.error.message };
  for (const c of checks) {
    const refusal = c.check(read.value, policy, options);
    if (refusal !== undefined) return { ok: false, ...refusal };
  }
  return { ok: true, handoff: read.value };
}
