/**
 * A graph the registry holds but cannot serve as a closed set — its bytes, closure record or members fail the checks
 * every read re-runs (ADR 0340): schema-invalid, a non-canonical closure, a member that does not hash to its pin — is
 * a permanent fault of that one graph. Retrying it would hold the request's FIFO group (its log) for maxReceiveCount
 * visibility timeouts and then dead-letter it with no entry; so the pipeline records it at once as the admission
 * refusal `graph-unreadable` with the reason, and the requests behind it go on
 * (docs/adr/0456-a-poison-graph-is-a-recorded-refusal.md). A store fault (throttling, the network) is not this: it
 * still throws and is retried.
 */
import { REFUSAL_STEP, type Admission } from '../admission/index.js';

/** Why the pipeline's graph registry could not serve a graph it holds (the reason travels into the refusal message). */
export type GraphReadFailure = 'registry-integrity';

export function graphUnreadableRefusal(digest: string, detail: string): Extract<Admission, { kind: 'refused' }> {
  return {
    kind: 'refused',
    step: REFUSAL_STEP['graph-unreadable'],
    code: 'graph-unreadable',
    message: `graph sha256:${digest} is published but cannot be read as a closed set: ${detail}`,
    pack: null,
    specVersion: null,
  };
}
