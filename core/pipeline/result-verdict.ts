/**
 * Whether a result is the one a requester can hold (docs/pipeline.md "Verifying a result";
 * docs/adr/0290-verifiable-result-notifications.md). Anyone who may publish to the results topic can write a
 * notification; only the holder of an entry key can sign an entry. A result is accepted only when its entry is
 * signed under the key the trust policy pins for its log and seq, by an accepted evaluator build, and records the
 * request the requester sent: the same request id, the SHA-256 of the exact request bytes, of the facts and evidence
 * slices (ADR 0070), and the pack the request named. The reasons are fixed codes checked in RESULT_REJECTIONS order;
 * the first that applies is the verdict.
 *
 * Offline verification proves the key holder recorded the entry; that it stays in the log is what a checkpoint
 * covering its seq proves later (core/ledger/receipts/promise-audit.ts, `docket verify-receipt`).
 */
// The request readers' own modules, not the core/admission barrel: the barrel reaches the graph runtime, which a
// verifier (@docket/verify, in a browser) neither needs nor can load (docs/adr/0442).
import { isGraphRequest, type GraphRequest } from '../admission/graph-request.js';
import { readIntakeRequest, type IntakeRequest } from '../admission/intake.js';
import type { EvaluationRequest } from '../admission/request.js';
import type { SignedEntry } from '../ledger/entries/entry-types.js';
import { sha256Hex } from '../ledger/primitives/bytes.js';
import { verifyParsedEntrySignature, type ParsedEntry } from '../ledger/entries/entry.js';
import type { SignatureBackend } from '../ledger/primitives/signature.js';
import {
  draftFeaturesAllowed,
  isAllowedBuild,
  keyForEntry,
  type TrustPolicy,
} from '../ledger/trust-policy/trust-policy.js';

/** Every reason a result is refused, in the order checked. Stable codes. */
export const RESULT_REJECTIONS = [
  'unknown-key',
  'key-not-valid-at-seq',
  'signature-mismatch',
  'evaluator-build-not-allowed',
  'draft-features-not-allowed',
  'request-id-mismatch',
  'request-digest-mismatch',
  'facts-digest-mismatch',
  'evidence-digest-mismatch',
  'pack-mismatch',
  'inputs-digest-mismatch',
  'graph-mismatch',
] as const;
export type ResultRejection = (typeof RESULT_REJECTIONS)[number];

export type ResultVerdict =
  { readonly ok: true } | { readonly ok: false; readonly reason: ResultRejection; readonly detail: string };

/**
 * What the requester sent: its request id, the exact request bytes, and the request read from them by core/admission's
 * reader (null when the bytes do not read as a request: the pipeline then records an admission refusal, whose entry
 * is still bound to the bytes by the request digest).
 */
export interface SentRequest {
  readonly requestId: string;
  readonly bytes: Uint8Array;
  readonly request: IntakeRequest | null;
}

/** The request as sent: its exact bytes and what core/admission's reader makes of them (`submit --wait`'s record). */
export function sentRequestOf(requestId: string, bytes: Uint8Array): SentRequest {
  const read = readIntakeRequest(bytes);
  return { requestId, bytes, request: read.ok ? read.value : null };
}

/**
 * Judges one parsed entry as the result of `sent` under `policy`; without `sent`, only as a signed entry the policy
 * accepts (key, signature, build, draft features). Pure; never throws for bad input.
 */
export function verifyResultEntry(
  parsed: ParsedEntry,
  sent: SentRequest | undefined,
  policy: TrustPolicy,
  backend?: SignatureBackend,
): ResultVerdict {
  const e = parsed.entry;
  const at = `entry ${e.logId}#${e.seq}`;
  const no = (reason: ResultRejection, detail: string): ResultVerdict => ({ ok: false, reason, detail });
  const key = keyForEntry(policy, e.keyId, e.logId, e.seq);
  if (!key.ok) return no(key.code, `${at} names key ${e.keyId}`);
  if (!verifyParsedEntrySignature(parsed, key.key.publicKey, backend))
    return no('signature-mismatch', `${at} is not signed by ${e.keyId}`);
  if (!isAllowedBuild(policy, e.evaluator.buildDigest))
    return no('evaluator-build-not-allowed', `${at} was written by build ${e.evaluator.buildDigest}`);
  if (!draftFeaturesAllowed(policy, e.logId, e.draftFeatures))
    return no('draft-features-not-allowed', `${at} was evaluated with draft features`);
  if (sent === undefined) return { ok: true };
  if (e.requestId !== sent.requestId) return no('request-id-mismatch', `${at} records request ${e.requestId}`);
  const requestDigest = sha256Hex(sent.bytes);
  if (e.requestDigest !== requestDigest)
    return no('request-digest-mismatch', `${at} records request bytes ${e.requestDigest}, not ${requestDigest}`);
  const r = sent.request;
  if (r === null) return { ok: true };
  if (isGraphRequest(r)) return graphProblem(e, r, at) ?? { ok: true };
  // An admission refusal may record no facts or evidence digest (it stopped before reading them): null is no claim.
  if (e.factsDigest !== null && e.factsDigest !== sha256Hex(r.facts))
    return no('facts-digest-mismatch', `${at} records facts ${e.factsDigest}`);
  const evidence = r.evidence === undefined ? null : sha256Hex(r.evidence);
  if (e.evidenceDigest !== null && e.evidenceDigest !== evidence)
    return no('evidence-digest-mismatch', `${at} records evidence ${e.evidenceDigest}`);
  return packProblem(e.pack, r.pack, at) ?? { ok: true };
}

/** The recorded pack against the reference the request named: the same digest, or the alias's id and version. */
function packProblem(
  recorded: ParsedEntry['entry']['pack'] | undefined,
  named: EvaluationRequest['pack'],
  at: string,
): ResultVerdict | undefined {
  const no = (detail: string): ResultVerdict => ({ ok: false, reason: 'pack-mismatch', detail: `${at} ${detail}` });
  // Refused before the pack reference was read (or a graph run, which names no pack): no claim about a pack.
  if (recorded === null || recorded === undefined) return undefined;
  if (named.kind === 'digest')
    return `sha256:${recorded.digest}` === named.digest
      ? undefined
      : no(`records pack sha256:${recorded.digest}, not ${named.digest}`);
  if (recorded.id === undefined) return undefined; // an unknown alias: refused with no pack bytes read
  const alias = `${recorded.id}@${recorded.version ?? ''}`;
  return alias === named.alias ? undefined : no(`records pack ${alias}, not ${named.alias}`);
}

/**
 * A graph request's result (ADR 0360): a graph run records the digest of the exact inputs slice (ADR 0070's rule for
 * facts) and the graph the request named — its digest, or the alias's id and version. An admission refusal records
 * neither, so makes no claim beyond the request digest.
 */
function graphProblem(e: SignedEntry, r: GraphRequest, at: string): ResultVerdict | undefined {
  if (e.kind !== 'graph-run') return undefined;
  const inputs = r.inputs === undefined ? null : sha256Hex(r.inputs);
  if (e.inputsDigest !== inputs)
    return { ok: false, reason: 'inputs-digest-mismatch', detail: `${at} records inputs ${e.inputsDigest ?? 'none'}` };
  const g = e.graph;
  const same =
    r.graph.kind === 'digest' ? `sha256:${g.digest}` === r.graph.digest : `${g.id}@${g.version}` === r.graph.alias;
  if (!same)
    return {
      ok: false,
      reason: 'graph-mismatch',
      detail: `${at} records graph ${g.id}@${g.version} sha256:${g.digest}, not ${r.graph.kind === 'digest' ? r.graph.digest : r.graph.alias}`,
    };
  return undefined;
}
