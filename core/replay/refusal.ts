/**
 * Replaying an admission refusal (docs/adr/0101-replaying-admission-refusals.md): run the pipeline's own admission
 * decision (core/admission `admit`, ADR 0335) again on the retained request bytes, against the registry as it is now
 * and a deployment rebuilt from what the entry records, and compare where it refuses with the recorded refusal. What
 * the entry does not record is said plainly instead of guessed, code by code as ADR 0101 decides: the registry only
 * grows (ADR 0062), so a pack or alias published since is `registry-state-changed`; a budget refusal inside
 * 1..MAX_WORK_BUDGET, or a worst-case fit (ADR 0054) judged here over the entry's one log, hung on deployment settings
 * and is `refusal-depends-on-deployment` unless the caller supplies them.
 */
import { MAX_WORK_BUDGET } from '../evaluate/index.js';
import type { DraftFeature } from '../pack/index.js';
import {
  admit,
  aliasUnreadableRefusal,
  packUnreadableRefusal,
  REFUSAL_STEP,
  stepOrder,
  type Admission,
  type AdmissionDeployment,
  type EvaluationRequest,
  type PackRegistry,
  type RequestError,
} from '../admission/index.js';
import type { Result } from '../result.js';
import type { RefusalCode, RefusalEntryBody, SignedEntry } from '../ledger/entries/entry-types.js';
import type { Difference, NotReplayableReason } from './types.js';
import { changed, dependsOnDeployment, match, mismatch, type ReplayContext, type Verdict } from './replay-context.js';

const admitted = (recorded: RefusalCode, why: string): Verdict =>
  mismatch([
    { member: 'refusal.code', recorded, replayed: null },
    { member: 'admission', recorded: 'refused', replayed: why },
  ]);

type RefusalEntry = SignedEntry & RefusalEntryBody;
type Decision = Admission<NotReplayableReason>;

export async function replayRefusal(
  entry: RefusalEntry,
  read: Result<EvaluationRequest, RequestError>,
  ctx: ReplayContext,
): Promise<Verdict> {
  const code = entry.refusal.code;
  const readId = read.ok ? read.value.requestId : (read.error.requestId ?? null);
  // The pipeline records a refusal only under an id it could read (ADR 0071); otherwise it dead-letters.
  if (read.ok && readId !== entry.requestId)
    return mismatch([{ member: 'requestId', recorded: entry.requestId, replayed: readId }]);
  const decision = await admit(read, replayDeployment(entry, ctx), replayRegistry(entry, ctx));
  if (!read.ok) {
    const differs: Difference[] = [];
    if (readId !== entry.requestId) differs.push({ member: 'requestId', recorded: entry.requestId, replayed: readId });
    const replayed = decision.kind === 'refused' ? decision.code : null;
    if (replayed !== code) differs.push({ member: 'refusal.code', recorded: code, replayed });
    return differs.length === 0 ? match : mismatch(differs);
  }
  return judge(entry, read.value, decision, ctx);
}

/**
 * The deployment as far as the entry records it: its log, extensions, evaluator and draft features. A refusal entry
 * records no budget and not the deployment's maximum or default, so the budget check is re-judged only for a budget
 * refusal (against the supplied maximum, else the evaluator's); before a later refusal the entry says the budget
 * passed, and it is taken as passed (ADR 0335).
 */
function replayDeployment(entry: RefusalEntry, ctx: ReplayContext): AdmissionDeployment {
  const supplied = ctx.options.maxWorkBudget;
  const judgingBudget = entry.refusal.code === 'work-budget-out-of-range';
  return {
    logIds: [entry.logId],
    supportedExtensions: entry.supportedExtensions,
    evaluator: entry.evaluator,
    ...(entry.draftFeatures !== undefined ? { draftFeatures: entry.draftFeatures as readonly DraftFeature[] } : {}),
    // Any in-range default: a budget refusal of a request that named none is judged deployment-dependent below.
    defaultWorkBudget: 1,
    maxWorkBudget: judgingBudget ? Math.min(supplied ?? MAX_WORK_BUDGET, MAX_WORK_BUDGET) : Number.MAX_SAFE_INTEGER,
  };
}

/** The registry as it is now, every pack judged under the grammar the entry recorded (ADR 0223). */
function replayRegistry(entry: RefusalEntry, ctx: ReplayContext): PackRegistry<NotReplayableReason> {
  const features = (entry.draftFeatures ?? []) as readonly DraftFeature[];
  return {
    async resolveAlias(alias) {
      const r = await ctx.options.fetch.resolveAlias(alias);
      return r === null || typeof r === 'string'
        ? r
        : { status: 'unreadable', reason: 'alias-corrupt', detail: r.corrupt };
    },
    async load(digest) {
      const loaded = await ctx.packs.load(digest, features);
      if (!loaded.ok) return { status: 'unreadable', reason: loaded.reason, detail: loaded.detail };
      return loaded.value ?? { status: 'missing' };
    },
  };
}

/** The digest admission reached (named, or resolved from the alias), if it got that far. */
function decidedDigest(d: Decision): string | undefined {
  if (d.kind === 'refused') return d.pack?.digest;
  if (d.kind === 'alias-unreadable') return undefined;
  return d.kind === 'admitted' || d.kind === 'pack-unreadable' ? d.digest : d.pack.digest;
}

/**
 * A readable request under the recorded id: where did admission refuse now, against where it refused then? A switch
 * over the closed union without a default: a refusal code added to REFUSAL_CODES does not compile until it is judged.
 */
function judge(entry: RefusalEntry, req: EvaluationRequest, d: Decision, ctx: ReplayContext): Verdict {
  const code = entry.refusal.code;
  switch (code) {
    case 'request-malformed':
    case 'unsupported-request-format':
    case 'request-too-large':
      return admitted(code, 'the request reads as a valid request');
    // Refusals of graph requests only (replayed by replay-graph.ts); here the bytes read as an evaluation request.
    case 'graphs-not-enabled':
    case 'unknown-graph-alias':
    case 'unknown-graph-digest':
    case 'graph-unreadable':
    case 'graph-closure-mismatch':
      return admitted(code, 'the request reads as an evaluation request, not a graph request');
    case 'unknown-pack-alias':
      if (req.pack.kind !== 'alias') return admitted(code, 'the request names a pack digest, not an alias');
      if (d.kind === 'refused' && d.code === code) return match;
      return changed(`${req.pack.alias} has been published since, as sha256:${decidedDigest(d) ?? ''}`);
    case 'unknown-pack-digest':
      return (
        beforePack(code, entry, d) ??
        (d.kind === 'refused' && d.code === code
          ? match
          : changed(`a pack with digest sha256:${decidedDigest(d) ?? ''} has been published since`))
      );
    case 'work-budget-out-of-range':
      return beforePack(code, entry, d) ?? beforeStep(code, d) ?? judgeBudget(code, req, d, ctx);
    case 'pack-unreadable':
      return judgePackUnreadable(entry, d);
    case 'alias-unreadable':
      if (req.pack.kind !== 'alias') return admitted(code, 'the request names a pack digest, not an alias');
      // Still unreadable: the refusal is rebuilt from the alias alone, so it must be the recorded one byte for byte.
      if (d.kind === 'alias-unreadable') return sameRefusal(entry, aliasUnreadableRefusal(d.alias));
      return changed(`${req.pack.alias} reads now: ${now(d)}`);
    case 'entry-would-not-fit':
      return (
        beforePack(code, entry, d) ??
        beforeStep(code, d) ??
        (d.kind === 'refused' && d.code === code
          ? match
          : dependsOnDeployment(
              `the worst-case entry fits over log ${entry.logId}; the deployment's other log ids are not recorded`,
            ))
      );
  }
}

/**
 * A recorded `pack-unreadable` (ADR 0485): still unreadable under the same digest is the refusal rebuilt byte for
 * byte; a pack the registry serves whole (or no longer holds) now means the item was put back or removed since.
 */
function judgePackUnreadable(entry: RefusalEntry, d: Decision): Verdict {
  const code = entry.refusal.code;
  const digest = decidedDigest(d);
  if (digest === undefined) return mismatch([{ member: 'refusal.code', recorded: code, replayed: now(d) }]);
  if (entry.pack?.digest !== digest)
    return mismatch([{ member: 'pack.digest', recorded: entry.pack?.digest ?? null, replayed: digest }]);
  if (d.kind === 'pack-unreadable') return sameRefusal(entry, packUnreadableRefusal(digest));
  return changed(`the registry's item for sha256:${digest} reads now: ${now(d)}`);
}

/** The recorded refusal against the one replay rebuilt: the same pack reference and message, byte for byte. */
function sameRefusal(entry: RefusalEntry, r: Extract<Admission, { kind: 'refused' }>): Verdict {
  const differs: Difference[] = [];
  if (JSON.stringify(entry.pack) !== JSON.stringify(r.pack))
    differs.push({ member: 'pack', recorded: entry.pack, replayed: r.pack });
  if (entry.refusal.message !== r.message)
    differs.push({ member: 'refusal.message', recorded: entry.refusal.message, replayed: r.message });
  return differs.length === 0 ? match : mismatch(differs);
}

/** What admission decided now, named as a report shows it. */
const now = (d: Decision): string => (d.kind === 'refused' ? d.code : d.kind);

/** A refusal after the alias: the verdict when admission now stops at the alias or at the pack, else undefined. */
function beforePack(code: RefusalCode, entry: RefusalEntry, d: Decision): Verdict | undefined {
  // The recorded refusal passed the alias; refused at it now, the alias is unknown (an alias is never unpublished).
  if (d.kind === 'refused' && d.code === 'unknown-pack-alias')
    return admitted(code, `the alias is unknown: the replay refuses it as unknown-pack-alias`);
  const digest = decidedDigest(d);
  if (entry.pack !== null && digest !== undefined && entry.pack.digest !== digest)
    return mismatch([{ member: 'pack.digest', recorded: entry.pack.digest, replayed: digest }]);
  if (d.kind === 'pack-unreadable' || d.kind === 'alias-unreadable')
    return { result: 'not-replayable', reason: d.reason, detail: d.detail };
  if (code === 'unknown-pack-digest') return undefined;
  if (d.kind === 'refused' && d.code === 'unknown-pack-digest')
    return {
      result: 'not-replayable',
      reason: 'pack-missing',
      detail: `the pack registry holds no pack sha256:${digest ?? ''}`,
    };
  // The pipeline records a non-conformant stored pack as an evaluation error before the budget check.
  if (d.kind === 'pack-not-conformant')
    return mismatch([{ member: 'kind', recorded: 'admission-refusal', replayed: 'evaluation-error' }]);
  return undefined;
}

/** Refused now at an earlier check than the recorded one: the recorded check was never reached. */
function beforeStep(code: RefusalCode, d: Decision): Verdict | undefined {
  if (d.kind === 'refused' && stepOrder(d.step, REFUSAL_STEP[code]) < 0)
    return mismatch([{ member: 'refusal.code', recorded: code, replayed: d.code }]);
  return undefined;
}

function judgeBudget(code: RefusalCode, req: EvaluationRequest, d: Decision, ctx: ReplayContext): Verdict {
  if (d.kind === 'refused' && d.code === code) return match;
  const b = req.workBudget;
  if (b === undefined) return dependsOnDeployment('the request named no budget; the deployment default applied');
  const max = ctx.options.maxWorkBudget;
  if (max === undefined)
    return dependsOnDeployment(
      `workBudget ${b} is within the evaluator's range; the deployment's maximum is not recorded`,
    );
  return admitted(code, `workBudget ${b} is within 1..${max}`);
}
