/**
 * Replays one stored entry (docs/replay.md): verify it, then re-read the retained request and re-load the recorded
 * pack with the pipeline's own reader and loader, evaluate under the RECORDED budget and extensions, and compare.
 * Pure: every byte comes through ReplayOptions.fetch; it never throws for bad stored data (a fetcher's own failure
 * propagates, so the caller reports no verdict rather than a wrong one).
 */
import { evaluateCompiled, type EvaluationTrace } from '../evaluate/index.js';
import {
  isGraphRequest,
  readIntakeRequest,
  refusalCodeOfRequestError,
  type EvaluationRequest,
  type RequestError,
} from '../admission/index.js';
import type { Result } from '../result.js';
import { replayGraphRefusal, replayGraphRun } from './replay-graph.js';
import { sha256Hex, toHex } from '../ledger/primitives/bytes.js';
import { canonicalText } from '../ledger/primitives/canonical.js';
import type { SignedEntry } from '../ledger/entries/entry-types.js';
import type { StoredEntry } from '../ledger/store/store.js';
import { checkEntry } from '../ledger/verify/entry-status.js';
import { DRAFT_FEATURES, isDraftFeature, type DraftFeature } from '../pack/index.js';
import { compareEvaluator } from './evaluator.js';
import { fetchRequest } from './fetch.js';
import { mismatch, sameValue, type ReplayContext, type Verdict } from './replay-context.js';
import { replayRefusal } from './refusal.js';
import type { Difference, ReplayOutcome } from './types.js';

export async function replayStoredEntry(stored: StoredEntry, ctx: ReplayContext): Promise<ReplayOutcome> {
  // Verify first (docs/replay.md): canonical bytes, key valid at this position, strict Ed25519 signature, placement,
  // projection, disposition digest and allowed build — the verify owner's per-entry check, unchanged.
  const check = checkEntry(stored, ctx.options.policy, true);
  const head = {
    logId: stored.logId,
    seq: stored.seq,
    requestId: check.entry?.requestId ?? null,
    kind: check.entry?.kind ?? null,
    entryHash: toHex(check.entryHash),
  };
  if (check.status !== 'ok' || check.entry === null) {
    return { ...head, result: 'not-replayable', reason: 'entry-fails-verification', detail: check.status };
  }
  const entry = check.entry;
  const evaluator = compareEvaluator(entry.evaluator, ctx.options.evaluator);
  if (evaluator === 'identity-differs' && ctx.options.acrossEvaluators !== true) {
    const r = entry.evaluator;
    const mine = ctx.options.evaluator;
    return {
      ...head,
      result: 'not-replayable',
      reason: 'evaluator-identity-differs',
      detail: `recorded by ${r.name} ${r.version}; this is ${mine.name} ${mine.version}`,
      evaluator,
    };
  }
  // ADR 0223: exactly the recorded features (none for a /1 entry); one this evaluator lacks cannot be re-run.
  const unknown = (entry.draftFeatures ?? []).filter((f) => !isDraftFeature(f));
  if (unknown.length > 0) {
    return {
      ...head,
      result: 'not-replayable',
      reason: 'draft-feature-unknown',
      detail: `the entry was evaluated with draft feature ${unknown.join(', ')}, which this evaluator does not implement (it knows ${DRAFT_FEATURES.join(', ')})`,
      evaluator,
    };
  }
  const verdict = await replayVerified(entry, ctx);
  return { ...head, ...verdict, evaluator };
}

/** The draft features the entry recorded, every one known (replayStoredEntry checked), for the pack loader. */
const recordedFeatures = (entry: SignedEntry): readonly DraftFeature[] =>
  (entry.draftFeatures ?? []) as readonly DraftFeature[];

async function replayVerified(entry: SignedEntry, ctx: ReplayContext): Promise<Verdict> {
  const tooLarge = entry.kind === 'admission-refusal' && entry.refusal.code === 'request-too-large';
  const request = await fetchRequest(
    ctx.options.fetch,
    entry.requestDigest,
    tooLarge ? 'request-not-retained' : 'request-purged',
  );
  if (!request.ok) return { result: 'not-replayable', reason: request.reason, detail: request.detail };
  // The pipeline's intake reader (evaluation and graph requests share the queue, ADR 0360), so the document slices
  // and their digests are the pipeline's own.
  const intake = readIntakeRequest(request.value);
  const graph = intake.ok && isGraphRequest(intake.value) ? intake.value : undefined;
  if (entry.kind === 'admission-refusal')
    return graph !== undefined
      ? replayGraphRefusal(entry, graph, ctx)
      : replayRefusal(entry, intake as Result<EvaluationRequest, RequestError>, ctx);
  if (entry.kind === 'graph-run') {
    if (graph !== undefined) return replayGraphRun(entry, graph, ctx);
    return mismatch([
      { member: 'kind', recorded: entry.kind, replayed: intake.ok ? 'an evaluation' : 'admission-refusal' },
    ]);
  }
  if (graph !== undefined) return mismatch([{ member: 'kind', recorded: entry.kind, replayed: 'graph-run' }]);
  const read = intake as Result<EvaluationRequest, RequestError>;
  if (!read.ok) {
    return mismatch([
      { member: 'kind', recorded: entry.kind, replayed: 'admission-refusal' },
      { member: 'refusal', recorded: null, replayed: refusalCodeOfRequestError(read.error.code) },
    ]);
  }
  return replayEvaluation(entry, read.value, ctx);
}

/** What the replay produced, in the entry's own terms. */
type Replayed =
  | { readonly kind: 'disposition'; readonly bytes: string; readonly work: number }
  | {
      readonly kind: 'evaluation-error';
      readonly error: { readonly class: string; readonly phase: string; readonly code: string };
      readonly work: number;
    };

async function replayEvaluation(
  entry: Extract<SignedEntry, { kind: 'disposition' | 'evaluation-error' }>,
  req: EvaluationRequest,
  ctx: ReplayContext,
): Promise<Verdict> {
  const differs: Difference[] = [];
  const same = (member: string, recorded: unknown, replayed: unknown): void => {
    if (!sameValue(recorded, replayed)) differs.push({ member, recorded, replayed });
  };
  const pack = entry.pack;
  if (pack === null) return mismatch([{ member: 'pack', recorded: null, replayed: 'a pack reference' }]);
  same('requestId', entry.requestId, req.requestId);
  same('correlation', entry.correlation, req.correlation ?? null);
  // The recorded digest is what was evaluated; the request's reference must name it (an alias is immutable, ADR 0062).
  const named =
    req.pack.kind === 'digest'
      ? req.pack.digest.slice('sha256:'.length)
      : await ctx.options.fetch.resolveAlias(req.pack.alias);
  same('pack.digest', pack.digest, named);
  same('factsDigest', entry.factsDigest, sha256Hex(req.facts));
  same('evidenceDigest', entry.evidenceDigest, req.evidence ? sha256Hex(req.evidence) : null);
  // A budget the request named is the one recorded; with none, the recorded one is the deployment default.
  if (req.workBudget !== undefined) same('workBudget', entry.workBudget, req.workBudget);

  const loaded = await ctx.packs.load(pack.digest, recordedFeatures(entry));
  if (!loaded.ok) return { result: 'not-replayable', reason: loaded.reason, detail: loaded.detail };
  if (loaded.value === null)
    return {
      result: 'not-replayable',
      reason: 'pack-missing',
      detail: `the pack registry holds no pack sha256:${pack.digest}`,
    };
  const load = loaded.value;
  let replayed: Replayed;
  let trace: EvaluationTrace | undefined;
  if (load.status === 'found') {
    const p = load.pack;
    same('pack.id', pack.id ?? null, p.id);
    same('pack.version', pack.version ?? null, p.version);
    same('specVersion', entry.specVersion, p.specVersion);
    // §8.2 preflight then §8 steps under the RECORDED budget and the RECORDED supported extensions (§9): the
    // entry, not today's deployment, says what the evaluation was given.
    const result = evaluateCompiled(p.compiled, {
      facts: req.facts,
      ...(req.evidence ? { evidence: req.evidence } : {}),
      supportedExtensions: new Set(entry.supportedExtensions),
      ...(entry.workBudget !== null ? { workBudget: entry.workBudget } : {}),
      ...(ctx.options.trace === true ? { trace: true } : {}),
    });
    if (result.kind === 'disposition' && result.trace !== undefined) trace = result.trace;
    replayed =
      result.kind === 'disposition'
        ? { kind: 'disposition', bytes: result.bytes, work: result.work }
        : {
            kind: 'evaluation-error',
            error: { class: result.error.class, phase: result.error.phase, code: result.error.code },
            work: result.work,
          };
  } else {
    // The pipeline records a stored pack that no longer validates as this §8.4 preflight error, with no work.
    if (load.status === 'missing')
      return { result: 'not-replayable', reason: 'pack-missing', detail: `sha256:${pack.digest}` };
    replayed = {
      kind: 'evaluation-error',
      error: { class: 'pack-not-conformant', phase: 'preflight', code: 'pack-not-conformant' },
      work: 0,
    };
  }
  compareResult(entry, replayed, same);
  same('work', entry.work, replayed.work);
  const work = { recorded: entry.work, replayed: replayed.work };
  const traced = trace === undefined ? {} : { trace };
  return differs.length === 0
    ? { result: 'replay-match', work, ...traced }
    : { result: 'replay-mismatch', differs, work, ...traced };
}

/** The RFC 8785 disposition bytes, or the §8.4 error class, phase and code (ADR 0102: messages are not compared). */
function compareResult(
  entry: Extract<SignedEntry, { kind: 'disposition' | 'evaluation-error' }>,
  replayed: Replayed,
  same: (m: string, a: unknown, b: unknown) => void,
): void {
  if (entry.kind !== replayed.kind) {
    same('kind', entry.kind, replayed.kind);
    if (replayed.kind === 'evaluation-error') same('error', null, replayed.error);
    else
      same(
        'dispositionDigest',
        entry.kind === 'disposition' ? entry.dispositionDigest : null,
        sha256Hex(replayed.bytes),
      );
    return;
  }
  if (entry.kind === 'disposition' && replayed.kind === 'disposition') {
    // Byte comparison of the RFC 8785 text; the digest is reported because the bytes may be long.
    if (canonicalText(entry.disposition) !== replayed.bytes) {
      same('dispositionDigest', entry.dispositionDigest, sha256Hex(replayed.bytes));
    }
    return;
  }
  if (entry.kind === 'evaluation-error' && replayed.kind === 'evaluation-error') {
    same('error.class', entry.error.class, replayed.error.class);
    same('error.phase', entry.error.phase, replayed.error.phase);
    same('error.code', entry.error.code, replayed.error.code);
  }
}
