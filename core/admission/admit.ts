/**
 * The admission decision (docs/pipeline.md "What becomes of a message", ADR 0052, ADR 0335): given what the request
 * reader made of the bytes, the deployment and the pack registry, either the refusal to record, a stored pack that
 * no longer validates (§8.2/§8.4: recorded as an evaluation error, not a refusal), or the admitted request with its
 * compiled pack and budget. The pipeline records what this returns; replay calls the same function on the retained
 * bytes and compares, so the two cannot drift (docs/replay.md, ADR 0101).
 *
 * The checks run in a fixed order, one refusal code each (REFUSAL_STEP): the request reader, the alias, the pack
 * digest, the work budget, the worst-case entry (ADR 0054). The first that refuses decides.
 */
import {
  checkEntryFits,
  type AdmissionInput,
  type EvaluatorRef,
  type PackRef,
  type RefusalCode,
} from '../ledger/index.js';
import { normalizeDraftFeatures, type DraftFeature } from '../pack/index.js';
import type { Result } from '../result.js';
import type { LoadedPack, PackLoad } from './pack-load.js';
import type { EvaluationRequest, RequestError } from './request.js';
import { refusalCodeOfRequestError } from './request-refusal.js';

/** The checks in the order they run; a refusal names the one that refused. */
export const ADMISSION_STEPS = ['request', 'feature', 'alias', 'digest', 'budget', 'fit'] as const;
export type AdmissionStep = (typeof ADMISSION_STEPS)[number];

/**
 * The step that decides each refusal code. A `Record` over the closed union: a code added to REFUSAL_CODES does
 * not compile until it is given its step here (and replay, which switches over the codes, handles it).
 */
export const REFUSAL_STEP: Readonly<Record<RefusalCode, AdmissionStep>> = Object.freeze({
  'request-malformed': 'request',
  'request-too-large': 'request',
  'unsupported-request-format': 'request',
  'unknown-pack-alias': 'alias',
  'unknown-pack-digest': 'digest',
  'work-budget-out-of-range': 'budget',
  'entry-would-not-fit': 'fit',
  // Graph requests (admit-graph.ts, ADR 0360): the opt-in is judged once the request reads, before the graph.
  'graphs-not-enabled': 'feature',
  'unknown-graph-alias': 'alias',
  'unknown-graph-digest': 'digest',
  // The registry holds the digest but cannot serve it as a closed set (ADR 0340's re-check): recorded, never retried.
  'graph-unreadable': 'digest',
  'graph-closure-mismatch': 'digest',
  // A registry item the request's name reaches but the registry cannot serve (ADR 0485): recorded, never retried.
  'pack-unreadable': 'digest',
  'alias-unreadable': 'alias',
});

/** Where `a` comes in the order of the checks relative to `b`: negative before, 0 the same, positive after. */
export const stepOrder = (a: AdmissionStep, b: AdmissionStep): number =>
  ADMISSION_STEPS.indexOf(a) - ADMISSION_STEPS.indexOf(b);

/**
 * What admission needs of a deployment. The pipeline passes its configuration (the same object on every request,
 * which keys the worst-case memo below); replay builds one from what the entry recorded.
 */
export interface AdmissionDeployment {
  /** The log ids a request may land on: the worst case is taken over all of them (ADR 0054). */
  readonly logIds: readonly string[];
  readonly supportedExtensions: readonly string[];
  readonly evaluator: EvaluatorRef;
  readonly draftFeatures?: readonly DraftFeature[];
  /** Applied when a request names no budget. */
  readonly defaultWorkBudget: number;
  /** The most a request may ask for (≤ the evaluator's MAX_WORK_BUDGET in a deployment). */
  readonly maxWorkBudget: number;
}

/** A pack registry that cannot give a pack's bytes it claims to hold (replay's digest-checked fetch, say). */
export interface PackUnreadable<Reason extends string = string> {
  readonly status: 'unreadable';
  readonly reason: Reason;
  readonly detail: string;
}

/**
 * The registry as admission reads it: aliases to digests, digests to loaded (validated, compiled) packs. `Reason`: why
 * it may hold an item it cannot serve (an alias item with no valid digest, pack bytes that do not hash to theirs).
 */
export interface PackRegistry<Reason extends string = never> {
  resolveAlias(alias: string): Promise<string | null | PackUnreadable<Reason>>;
  load(digestHex: string): Promise<PackLoad | PackUnreadable<Reason>>;
}

/** `Reason`: why the registry may fail to serve an alias or a pack's bytes it holds (PackRegistry). */
export type Admission<Reason extends string = never> =
  | {
      readonly kind: 'refused';
      readonly step: AdmissionStep;
      readonly code: RefusalCode;
      readonly message: string;
      /** The pack as far as admission got: null before a digest is known, then the digest, then id and version. */
      readonly pack: PackRef | null;
      readonly specVersion: string | null;
    }
  | {
      /** §8.2/§8.4: the stored pack no longer validates; the pipeline records an `evaluation-error`. */
      readonly kind: 'pack-not-conformant';
      readonly step: 'digest';
      readonly request: EvaluationRequest;
      readonly pack: PackRef;
      readonly specVersion: string | null;
      readonly workBudget: number;
      readonly message: string;
    }
  | {
      readonly kind: 'pack-unreadable';
      readonly step: 'digest';
      readonly digest: string;
      readonly reason: Reason;
      readonly detail: string;
    }
  | {
      readonly kind: 'alias-unreadable';
      readonly step: 'alias';
      readonly alias: string;
      readonly reason: Reason;
      readonly detail: string;
    }
  | {
      readonly kind: 'admitted';
      readonly request: EvaluationRequest;
      /** The digest the request named or its alias resolved to: the one recorded. */
      readonly digest: string;
      readonly pack: LoadedPack;
      readonly workBudget: number;
    };

export type Refused = Extract<Admission, { kind: 'refused' }>;

const refused = (
  code: RefusalCode,
  message: string,
  pack: PackRef | null = null,
  specVersion: string | null = null,
): Refused => ({ kind: 'refused', step: REFUSAL_STEP[code], code, message, pack, specVersion });

/** Why a registry could not serve an item, as a decision records it. */
export const reasonOf = <R extends string>(u: PackUnreadable<R>): { reason: R; detail: string } => ({
  reason: u.reason,
  detail: u.detail,
});

/** The admission decision for one request; never throws for bad input (a registry's own failure propagates). */
export async function admit<Reason extends string = never>(
  read: Result<EvaluationRequest, RequestError>,
  deployment: AdmissionDeployment,
  registry: PackRegistry<Reason>,
): Promise<Admission<Reason>> {
  if (!read.ok) return refused(refusalCodeOfRequestError(read.error.code), read.error.message);
  const req = read.value;
  let digest: string;
  if (req.pack.kind === 'alias') {
    const resolved = await registry.resolveAlias(req.pack.alias);
    if (resolved === null) return refused('unknown-pack-alias', `no pack is published as ${req.pack.alias}`);
    if (typeof resolved !== 'string')
      return { kind: 'alias-unreadable', step: 'alias', alias: req.pack.alias, ...reasonOf(resolved) };
    digest = resolved; // recorded as the digest (docs/pipeline.md)
  } else {
    digest = req.pack.digest.slice('sha256:'.length);
  }
  const loaded = await registry.load(digest);
  if (loaded.status === 'unreadable') return { kind: 'pack-unreadable', step: 'digest', digest, ...reasonOf(loaded) };
  if (loaded.status === 'missing')
    return refused('unknown-pack-digest', `no pack with digest sha256:${digest} is published`, { digest });
  const workBudget = req.workBudget ?? deployment.defaultWorkBudget;
  // §8.2/§8.4: the pack is the first preflight input; a stored pack that no longer validates is that error.
  if (loaded.status === 'not-conformant')
    return {
      kind: 'pack-not-conformant',
      step: 'digest',
      request: req,
      pack: { digest },
      specVersion: null,
      workBudget,
      message: loaded.message,
    };
  const p = loaded.pack;
  const pack = { id: p.id, version: p.version, digest };
  if (!Number.isSafeInteger(workBudget) || workBudget < 1 || workBudget > deployment.maxWorkBudget) {
    const message = `workBudget must be from 1 to ${deployment.maxWorkBudget} work units in this deployment`;
    return refused('work-budget-out-of-range', message, pack, p.specVersion);
  }
  // ADR 0054 (reserve the terminal report): refuse before evaluating when the worst-case entry could not
  // fit one ledger item, so evaluation never produces a result the ledger cannot hold.
  const fits = entryFits(p, deployment, req);
  if (fits !== undefined) return refused('entry-would-not-fit', fits, pack, p.specVersion);
  return { kind: 'admitted', request: req, digest, pack: p, workBudget };
}

/**
 * The worst-case entry check, memoized per compiled pack and deployment: a pack that fits with the largest request
 * id and correlation any request may carry (128-character id; 16 correlation members with 64-byte names and 256
 * control characters each, which JSON escapes to 6 bytes apiece) fits for every request, so the exact per-request
 * computation only runs for packs near the limit.
 */
const WORST_REQUEST = {
  requestId: 'x'.repeat(128),
  correlation: Object.fromEntries(
    Array.from({ length: 16 }, (_, i) => [`${String(i).padStart(2, '0')}${'n'.repeat(62)}`, '\u0001'.repeat(256)]),
  ),
};
const fitsForEveryRequest = new WeakMap<LoadedPack, WeakMap<AdmissionDeployment, boolean>>();

function entryFits(p: LoadedPack, deployment: AdmissionDeployment, req: EvaluationRequest): string | undefined {
  let perDeployment = fitsForEveryRequest.get(p);
  if (perDeployment === undefined) fitsForEveryRequest.set(p, (perDeployment = new WeakMap()));
  let always = perDeployment.get(deployment);
  if (always === undefined)
    perDeployment.set(deployment, (always = checkEntryFits(fitInput(p, deployment, WORST_REQUEST)).ok));
  if (always) return undefined;
  const exact = checkEntryFits(
    fitInput(p, deployment, { requestId: req.requestId, correlation: req.correlation ?? null }),
  );
  return exact.ok ? undefined : exact.error.message;
}

/** The worst-case input for one request id and correlation: the deployment's values as an entry records them. */
function fitInput(
  p: LoadedPack,
  deployment: AdmissionDeployment,
  r: Pick<AdmissionInput, 'requestId' | 'correlation'>,
): AdmissionInput {
  const draftFeatures = normalizeDraftFeatures(deployment.draftFeatures);
  return {
    ...r,
    pack: {
      id: p.id,
      version: p.version,
      specVersion: p.specVersion,
      outcomeIds: p.outcomeIds,
      routeTargets: p.routeTargets,
    },
    logIds: deployment.logIds,
    // Sorted and duplicate-free, as the entry records them.
    supportedExtensions: [...new Set(deployment.supportedExtensions)].sort(),
    evaluator: deployment.evaluator,
    ...(draftFeatures.length > 0 ? { draftFeatures } : {}),
  };
}
