/**
 * Physical names of every queue, table and parameter, derived from the stage alone. The stack gives each resource
 * exactly these names and the local stack (localstack/) provisions the same ones, so a name never differs between a
 * laptop and an account (ADR 0064).
 */
import type { DocketConfig, RouteConfig } from './config.js';

export interface QueuePair {
  readonly queue: string;
  readonly dlq: string;
}

export interface ResourceNames {
  readonly prefix: string;
  readonly intake: QueuePair;
  /**
   * The internal FIFO ledger queue (message group = log) and its FIFO DLQ: only the sequence function sends there
   * (docs/adr/0270-one-writer-per-log.md). FIFO queue names must end in ".fifo".
   */
  readonly ledgerQueue: QueuePair;
  /**
   * The delivery queue (standard) and its DLQ: only the evaluate function sends there, one delivery job per log per
   * batch; the deliver function consumes it (docs/adr/0404-delivery-stage.md).
   */
  readonly deliveryQueue: QueuePair;
  /**
   * The evaluate function's deliberate rejects (standard, no DLQ of its own): a copy of every message with no usable
   * request id and of every request whose id is recorded for other bytes, with its reason
   * (docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md). Not a DLQ: what it holds excuses nothing.
   */
  readonly rejectsQueue: string;
  /** Direct exception escalations with no escalation object (§8.1) land here. */
  readonly unrouted: QueuePair;
  /** One pair per distinct route queue key, keyed by that key ("review" → docket-<stage>-route-review). */
  readonly routes: Readonly<Record<string, QueuePair>>;
  /** pk S / sk N: entries, claims, positions, checkpoints (core/ledger/store/store.ts). */
  readonly ledgerTable: string;
  /** pk S / sk S: pack bytes by digest and alias items (docs/adr/0081-pack-registry-and-request-archive-keys.md). */
  readonly packsTable: string;
  /** pk S / sk S: exact request bytes by digest (replay; purgeable without touching the ledger). */
  readonly requestsTable: string;
  /** The results topic: one docket.result/1 notification per appended entry. */
  readonly resultsTopic: string;
  /** Name prefix of the short-lived queues `docket submit --wait` creates. */
  readonly waitQueuePrefix: string;
  readonly evaluateFunction: string;
  readonly checkpointFunction: string;
  readonly sequenceFunction: string;
  readonly deliverFunction: string;
  /** Secrets Manager name of the Ed25519 signing key (value written out of band by `docket keygen`). */
  readonly signingSecret: string;
  /** SSM parameter holding the public trust policy (public keys and their sequence ranges). */
  readonly trustPolicyParameter: string;
  /** Ledger log ids, `<stage>-<n>`; the evaluate function spreads requests over them. */
  readonly logIds: readonly string[];
}

export function resourceNames(stage: string, config: Pick<DocketConfig, 'routes' | 'logCount'>): ResourceNames {
  const prefix = `docket-${stage}`;
  const pair = (base: string): QueuePair => ({ queue: base, dlq: `${base}-dlq` });
  const routes: Record<string, QueuePair> = {};
  for (const key of routeQueueKeys(config.routes)) routes[key] = pair(`${prefix}-route-${key}`);
  return {
    prefix,
    intake: pair(`${prefix}-intake`),
    ledgerQueue: { queue: `${prefix}-ledger.fifo`, dlq: `${prefix}-ledger-dlq.fifo` },
    deliveryQueue: pair(`${prefix}-delivery`),
    rejectsQueue: `${prefix}-rejects`,
    unrouted: pair(`${prefix}-unrouted`),
    routes,
    ledgerTable: `${prefix}-ledger`,
    packsTable: `${prefix}-packs`,
    requestsTable: `${prefix}-requests`,
    resultsTopic: `${prefix}-results`,
    waitQueuePrefix: `${prefix}-wait`,
    evaluateFunction: `${prefix}-evaluate`,
    checkpointFunction: `${prefix}-checkpoint`,
    sequenceFunction: `${prefix}-sequence`,
    deliverFunction: `${prefix}-deliver`,
    signingSecret: `docket/${stage}/signing-key`,
    trustPolicyParameter: `/docket/${stage}/trust-policy`,
    logIds: Array.from({ length: config.logCount }, (_, i) => `${stage}-${i}`),
  };
}

/** Distinct route queue keys in first-declaration order (several targets may share one queue). */
export function routeQueueKeys(routes: readonly RouteConfig[]): string[] {
  return [...new Set(routes.map((r) => r.queue))];
}
