/**
 * Replaying an admission refusal (docs/adr/0101-replaying-admission-refusals.md): re-run our own admission where it
 * is a function of the retained request bytes and content-addressed registry state, and say plainly when it is not.
 *
 *   request-malformed, unsupported-request-format, request-too-large — the pipeline's request reader again, on the
 *     retained bytes: the same refusal code is a match. (request-too-large bytes are never retained, so that
 *     refusal is `not-replayable/request-not-retained` before we get here.)
 *   unknown-pack-alias, unknown-pack-digest — the registry only grows (packs and aliases are conditional creates,
 *     ADR 0062): still unknown is a match; published since is `not-replayable/registry-state-changed`, because the
 *     refusal was right when made and cannot be reproduced now.
 *   work-budget-out-of-range — outside 1..MAX_WORK_BUDGET is a match whatever the deployment; inside it, the
 *     refusal depended on the deployment's lower maximum, which the entry does not record: judged when the caller
 *     supplies it (ReplayOptions.maxWorkBudget), else `not-replayable/refusal-depends-on-deployment`.
 *   entry-would-not-fit — the ledger's own worst-case check (core/ledger/admission.ts) again, from the recorded
 *     request id, correlation, supported extensions, evaluator and the pack's worst case, over the one log the entry
 *     landed on. The pipeline judged over every configured log, whose worst case can only be larger, so "still does
 *     not fit" is a match; "fits over this log alone" means the refusal depended on the deployment's other log ids
 *     → `not-replayable/refusal-depends-on-deployment`.
 */
import { MAX_WORK_BUDGET } from '../evaluate/index.js';
import type { DraftFeature } from '../pack/index.js';
import { refusalCodeOfRequestError, type EvaluationRequest, type RequestError } from '../admission/index.js';
import type { Result } from '../result.js';
import { checkEntryFits } from '../ledger/admission.js';
import type { RefusalCode, RefusalEntryBody, SignedEntry } from '../ledger/entry-types.js';
import type { Difference } from './types.js';
import type { ReplayContext, Verdict } from './replay-context.js';

/** Refusals the request reader alone decides; the rest depend on the registry or the deployment. */
const REQUEST_LEVEL = ['request-malformed', 'unsupported-request-format', 'request-too-large'] as const;
type RequestLevelRefusal = (typeof REQUEST_LEVEL)[number];
const isRequestLevel = (code: RefusalCode): code is RequestLevelRefusal =>
  (REQUEST_LEVEL as readonly RefusalCode[]).includes(code);

const match: Verdict = { result: 'replay-match', work: { recorded: 0, replayed: 0 } };
const differ = (differs: Difference[]): Verdict => ({ result: 'replay-mismatch', differs });
const admitted = (recorded: RefusalCode, why: string): Verdict =>
  differ([
    { member: 'refusal.code', recorded, replayed: null },
    { member: 'admission', recorded: 'refused', replayed: why },
  ]);

export async function replayRefusal(
  entry: SignedEntry & RefusalEntryBody,
  read: Result<EvaluationRequest, RequestError>,
  ctx: ReplayContext,
): Promise<Verdict> {
  const code = entry.refusal.code;
  if (!read.ok) {
    const replayed = refusalCodeOfRequestError(read.error.code);
    const differs: Difference[] = [];
    // The pipeline records a refusal only under an id it could read (ADR 0071); otherwise it dead-letters.
    if ((read.error.requestId ?? null) !== entry.requestId)
      differs.push({ member: 'requestId', recorded: entry.requestId, replayed: read.error.requestId ?? null });
    if (replayed !== code) differs.push({ member: 'refusal.code', recorded: code, replayed });
    return differs.length === 0 ? match : differ(differs);
  }
  const req = read.value;
  if (req.requestId !== entry.requestId)
    return differ([{ member: 'requestId', recorded: entry.requestId, replayed: req.requestId }]);
  if (isRequestLevel(code)) return admitted(code, 'the request reads as a valid request');
  const fetch = ctx.options.fetch;

  if (code === 'unknown-pack-alias') {
    if (req.pack.kind !== 'alias') return admitted(code, 'the request names a pack digest, not an alias');
    const now = await fetch.resolveAlias(req.pack.alias);
    return now === null ? match : changed(`${req.pack.alias} has been published since, as sha256:${now}`);
  }

  const digest =
    req.pack.kind === 'digest' ? req.pack.digest.slice('sha256:'.length) : await fetch.resolveAlias(req.pack.alias);
  if (digest === null) return admitted(code, `the alias is unknown: the replay refuses it as unknown-pack-alias`);
  if (entry.pack !== null && entry.pack.digest !== digest)
    return differ([{ member: 'pack.digest', recorded: entry.pack.digest, replayed: digest }]);
  // Judged under the grammar the deployment recorded (ADR 0223).
  const loaded = await ctx.packs.load(digest, (entry.draftFeatures ?? []) as readonly DraftFeature[]);
  if (!loaded.ok) return { result: 'not-replayable', reason: loaded.reason, detail: loaded.detail };

  if (code === 'unknown-pack-digest') {
    return loaded.value === null ? match : changed(`a pack with digest sha256:${digest} has been published since`);
  }
  if (loaded.value === null)
    return {
      result: 'not-replayable',
      reason: 'pack-missing',
      detail: `the pack registry holds no pack sha256:${digest}`,
    };
  if (loaded.value.status !== 'found') {
    // The pipeline records a non-conformant stored pack as an evaluation error before the budget check.
    return differ([{ member: 'kind', recorded: 'admission-refusal', replayed: 'evaluation-error' }]);
  }

  if (code === 'work-budget-out-of-range') {
    const b = req.workBudget;
    if (b === undefined) return dependsOnDeployment('the request named no budget; the deployment default applied');
    if (b < 1 || b > MAX_WORK_BUDGET) return match;
    const max = ctx.options.maxWorkBudget;
    if (max === undefined)
      return dependsOnDeployment(
        `workBudget ${b} is within the evaluator's range; the deployment's maximum is not recorded`,
      );
    return b > max ? match : admitted(code, `workBudget ${b} is within 1..${max}`);
  }
  if (code === 'entry-would-not-fit') {
    const p = loaded.value.pack;
    // ADR 0054: the same worst-case arithmetic the pipeline ran before evaluating.
    const fits = checkEntryFits({
      requestId: entry.requestId,
      correlation: entry.correlation,
      pack: {
        id: p.id,
        version: p.version,
        specVersion: p.specVersion,
        outcomeIds: p.outcomeIds,
        routeTargets: p.routeTargets,
      },
      logIds: [entry.logId],
      supportedExtensions: entry.supportedExtensions,
      evaluator: entry.evaluator,
      ...(entry.draftFeatures !== undefined ? { draftFeatures: entry.draftFeatures } : {}),
    });
    return fits.ok
      ? dependsOnDeployment(
          `the worst-case entry fits over log ${entry.logId}; the deployment's other log ids are not recorded`,
        )
      : match;
  }
  // Every code of REFUSAL_CODES is handled above: a new code that is not makes this assignment fail to compile.
  const unhandled: never = code;
  return admitted(unhandled, 'no admission rule of this replay refuses it');
}

const changed = (detail: string): Verdict => ({ result: 'not-replayable', reason: 'registry-state-changed', detail });
const dependsOnDeployment = (detail: string): Verdict => ({
  result: 'not-replayable',
  reason: 'refusal-depends-on-deployment',
  detail,
});
