/**
 * Replaying a graph request's entry (docs/replay.md "Graph runs"; ADR 0361): the pipeline's own decision
 * (`decideGraph`, core/admission) runs again on the retained request bytes, against the registry's published graph
 * (its closed set re-checked here, trusting no store) and a deployment rebuilt from what the entry records. A graph
 * run must reproduce every member byte for byte; a refusal of a graph request is judged like a pack's (ADR 0101).
 */
import {
  aliasUnreadableRefusal,
  decideGraph,
  type AdmissionDeployment,
  type GraphDecision,
  type GraphRegistry,
  type GraphRequest,
} from '../admission/index.js';
import { MAX_WORK_BUDGET } from '../evaluate/index.js';
import { checkGraphClosedSet } from './graph-closed-set.js';
import { sha256Hex } from '../ledger/primitives/bytes.js';
import type { GraphRunEntryBody, RefusalEntryBody, SignedEntry } from '../ledger/entries/entry-types.js';
import type { DraftFeature } from '../pack/index.js';
import {
  changed,
  dependsOnDeployment,
  match,
  mismatch,
  sameValue,
  type ReplayContext,
  type Verdict,
} from './replay-context.js';
import type { Difference, NotReplayableReason } from './types.js';

type GraphRunEntry = SignedEntry & GraphRunEntryBody;
type RefusalEntry = SignedEntry & RefusalEntryBody;

/** The registry as it is now, every graph re-checked as a closed set (ADR 0340) before it is run. */
function replayGraphs(ctx: ReplayContext): GraphRegistry<NotReplayableReason> {
  const f = ctx.options.fetch;
  return {
    async resolveGraphAlias(alias) {
      const r = f.resolveGraphAlias === undefined ? null : await f.resolveGraphAlias(alias);
      return r === null || typeof r === 'string'
        ? r
        : { status: 'unreadable', reason: 'alias-corrupt', detail: r.corrupt };
    },
    async loadGraph(digest) {
      if (f.publishedGraph === undefined)
        return { status: 'unreadable', reason: 'graph-missing', detail: 'replay was given no graph registry' };
      const g = await f.publishedGraph(digest);
      if (g === null) return null;
      if ('corrupt' in g) return { status: 'unreadable', reason: 'graph-not-closed', detail: g.corrupt };
      // The bytes hash to the closure's graph pin (the closed-set check); that the closure is the one `digest` names
      // is decideGraph's own check (ADR 0450), as in the pipeline.
      const problem = checkGraphClosedSet(g);
      if (problem !== undefined) return { status: 'unreadable', reason: 'graph-not-closed', detail: problem };
      return { ...g, digest: g.closure.graph.slice('sha256:'.length) };
    },
  };
}

function deploymentOf(
  entry: GraphRunEntry | RefusalEntry,
  budget: { readonly defaultWorkBudget: number; readonly maxWorkBudget: number },
): AdmissionDeployment {
  return {
    logIds: [entry.logId],
    supportedExtensions: entry.supportedExtensions,
    evaluator: entry.evaluator,
    ...(entry.draftFeatures !== undefined ? { draftFeatures: entry.draftFeatures as readonly DraftFeature[] } : {}),
    ...budget,
  };
}

/** A graph run, re-run whole from the registry's closed set and compared member by member, the run text by bytes. */
export async function replayGraphRun(entry: GraphRunEntry, req: GraphRequest, ctx: ReplayContext): Promise<Verdict> {
  // The recorded budget is the request's or the deployment default that applied; it passed the deployment's range.
  const d = await decideGraph(
    { ok: true, value: req },
    deploymentOf(entry, { defaultWorkBudget: entry.workBudget, maxWorkBudget: MAX_WORK_BUDGET }),
    replayGraphs(ctx),
  );
  if (d.kind === 'graph-unreadable' || d.kind === 'alias-unreadable')
    return { result: 'not-replayable', reason: d.reason, detail: d.detail };
  if (d.kind === 'refused') {
    if (d.code === 'unknown-graph-digest')
      return { result: 'not-replayable', reason: 'graph-missing', detail: d.message };
    return mismatch([
      { member: 'kind', recorded: 'graph-run', replayed: 'admission-refusal' },
      { member: 'refusal.code', recorded: null, replayed: d.code },
    ]);
  }
  const differs: Difference[] = [];
  const same = (member: string, recorded: unknown, replayed: unknown): void => {
    if (!sameValue(recorded, replayed)) differs.push({ member, recorded, replayed });
  };
  const r = d.entry;
  same('requestId', entry.requestId, req.requestId);
  same('correlation', entry.correlation, req.correlation ?? null);
  same('graph', entry.graph, r.graph);
  same('packs', entry.packs, r.packs);
  same('graphs', entry.graphs, r.graphs);
  same('inputsDigest', entry.inputsDigest, r.inputsDigest);
  same('workBudget', entry.workBudget, r.workBudget);
  // Byte comparison of the output contract text; the digests are reported because the text may be long.
  if (entry.run !== r.run) same('runDigest', sha256Hex(entry.run), sha256Hex(r.run));
  same('work', entry.work, r.work);
  const work = { recorded: entry.work, replayed: r.work };
  return differs.length === 0 ? { result: 'replay-match', work } : { result: 'replay-mismatch', differs, work };
}

/** What the decision is now, in a refusal's terms: its code, or the kind it reached instead. */
const now = (d: GraphDecision<NotReplayableReason>): string => (d.kind === 'refused' ? d.code : d.kind);

/** An admission refusal of a readable graph request (ADR 0101's rules, for graphs). */
export async function replayGraphRefusal(entry: RefusalEntry, req: GraphRequest, ctx: ReplayContext): Promise<Verdict> {
  const code = entry.refusal.code;
  if (req.requestId !== entry.requestId)
    return mismatch([{ member: 'requestId', recorded: entry.requestId, replayed: req.requestId }]);
  const supplied = ctx.options.maxWorkBudget;
  const budget = {
    // A refusal records no budget: a request that named none is judged with any in-range default, and only before
    // the budget step (a budget or fit refusal of such a request depends on the deployment, below).
    defaultWorkBudget: req.workBudget ?? 1,
    maxWorkBudget:
      code === 'work-budget-out-of-range' ? Math.min(supplied ?? MAX_WORK_BUDGET, MAX_WORK_BUDGET) : MAX_WORK_BUDGET,
  };
  const d = await decideGraph({ ok: true, value: req }, deploymentOf(entry, budget), replayGraphs(ctx));
  if (d.kind === 'alias-unreadable' && code === 'alias-unreadable') {
    // Still unreadable: the refusal is rebuilt from the alias alone and must be the recorded one byte for byte.
    const message = aliasUnreadableRefusal(d.alias, 'graph').message;
    return entry.refusal.message === message
      ? match
      : mismatch([{ member: 'refusal.message', recorded: entry.refusal.message, replayed: message }]);
  }
  if (d.kind === 'graph-unreadable' || d.kind === 'alias-unreadable')
    return { result: 'not-replayable', reason: d.reason, detail: d.detail };
  if (d.kind === 'refused' && d.code === code) return match;
  const codeDiffers = mismatch([{ member: 'refusal.code', recorded: code, replayed: now(d) }]);
  switch (code) {
    // graph-unreadable, read cleanly now: the registry was repaired (or changed) since the refusal.
    case 'graph-unreadable':
    case 'unknown-graph-alias':
    case 'unknown-graph-digest':
    case 'graph-closure-mismatch':
    case 'alias-unreadable':
      // The registry only grows (conditional creates, ADR 0340): an answer past this step means it was published
      // since; for a closure mismatch (ADR 0450) or an unreadable alias item (ADR 0485), that the item was put back.
      return d.kind === 'refused' && (d.step === 'request' || d.step === 'feature')
        ? codeDiffers
        : changed(`now ${now(d)}`);
    case 'work-budget-out-of-range': {
      const b = req.workBudget;
      if (d.kind === 'refused' && (d.step === 'request' || d.step === 'feature' || d.step === 'alias'))
        return codeDiffers;
      if (b === undefined) return dependsOnDeployment('the request named no budget; the deployment default applied');
      if (supplied === undefined)
        return dependsOnDeployment(
          `workBudget ${b} is within the evaluator's range; the deployment's maximum is not recorded`,
        );
      return codeDiffers;
    }
    case 'entry-would-not-fit':
      if (d.kind === 'refused') return codeDiffers;
      if (req.workBudget === undefined)
        return dependsOnDeployment('the request named no budget; the deployment default applied');
      return dependsOnDeployment(
        `the run's entry fits over log ${entry.logId}; the deployment's other log ids are not recorded`,
      );
    default:
      // graphs-not-enabled, and the reader's own codes, are decided by the request and the recorded features alone.
      return codeDiffers;
  }
}
