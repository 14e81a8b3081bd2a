/**
 * The admission decision for a graph request (docs/pipeline.md "Graph requests"; ADR 0360), the counterpart of
 * `admit` (ADR 0335), with the same fixed order of checks and one refusal code each (REFUSAL_STEP): the request
 * reader, the deployment's opt-in (`graphs-not-enabled` unless it enables the draft feature `judgment-graphs`), the
 * graph alias, the graph digest (a published graph, re-checked as a closed set by the registry, ADR 0340), the work
 * budget; then the run (core/graph: one budget for the whole graph, ADR 0313) and the exact entry's fit
 * (`entry-would-not-fit`). The pipeline records what `decideGraph` returns; replay calls the same function on the
 * retained bytes and compares, so the two cannot drift.
 */
import { evaluateGraph, graphRunJson, type GraphProject } from '../graph/index.js';
import { closureDigest, type GraphClosure } from '../graph-closure/index.js';
import { checkGraphRunFits, sha256Hex, type GraphRunEntryDraft, type RefusalCode } from '../ledger/index.js';
import { JUDGMENT_GRAPHS } from '../pack/index.js';
import type { Result } from '../result.js';
import { REFUSAL_STEP, reasonOf, type AdmissionDeployment, type AdmissionStep, type PackUnreadable } from './admit.js';
import type { GraphRequest } from './graph-request.js';
import type { RequestError } from './request.js';
import { refusalCodeOfRequestError } from './request-refusal.js';

/** A published graph as the registry serves it: checked as a closed set on every read (ADR 0340). */
export interface LoadedGraph {
  /** SHA-256 (hex) of the graph document's exact bytes (the entry's `graph.digest`; not the published identity). */
  readonly digest: string;
  readonly bytes: Uint8Array;
  readonly closure: GraphClosure;
  /** Every pack and subgraph of the closure, by jpack.json name, as exact bytes. */
  readonly project: GraphProject;
}

/** A registry that cannot give a graph's members it claims to hold: the same shape as a pack it cannot give. */
export type GraphUnreadable<Reason extends string = string> = PackUnreadable<Reason>;

/** The graph registry as admission reads it. `Reason`: `never` for the pipeline's, which throws instead. */
export interface GraphRegistry<Reason extends string = never> {
  /**
   * The published graph (closure digest, hex) an alias names, null, or an alias item the registry holds but cannot
   * serve (no valid digest in it, ADR 0485).
   */
  resolveGraphAlias(alias: string): Promise<string | null | GraphUnreadable<Reason>>;
  /**
   * The published graph a closure digest (hex) names, null when none is published. Untrusted: decideGraph hashes the
   * closure it returns against the digest asked for (ADR 0450).
   */
  loadGraph(digestHex: string): Promise<LoadedGraph | null | GraphUnreadable<Reason>>;
}

export type GraphDecision<Reason extends string = never> =
  | {
      readonly kind: 'refused';
      readonly step: AdmissionStep;
      readonly code: RefusalCode;
      readonly message: string;
    }
  | { readonly kind: 'graph-unreadable'; readonly digest: string; readonly reason: Reason; readonly detail: string }
  | { readonly kind: 'alias-unreadable'; readonly alias: string; readonly reason: Reason; readonly detail: string }
  | {
      readonly kind: 'run';
      readonly request: GraphRequest;
      /** The entry's members but the common ones (request id and digest, correlation, deployment, slot). */
      readonly entry: Pick<
        GraphRunEntryDraft,
        'graph' | 'packs' | 'graphs' | 'inputsDigest' | 'workBudget' | 'work' | 'run'
      >;
    };

const refused = (code: RefusalCode, message: string): GraphDecision<never> => ({
  kind: 'refused',
  step: REFUSAL_STEP[code],
  code,
  message,
});

const hex = (digest: string): string => digest.slice('sha256:'.length);
const pins = (m: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(m).map(([name, digest]) => [name, hex(digest)]));

/** Everything decided for one graph request; never throws for bad input (a registry's own fault propagates). */
export async function decideGraph<Reason extends string = never>(
  read: Result<GraphRequest, RequestError>,
  deployment: AdmissionDeployment,
  registry: GraphRegistry<Reason>,
): Promise<GraphDecision<Reason>> {
  if (!read.ok) return refused(refusalCodeOfRequestError(read.error.code), read.error.message);
  const req = read.value;
  // ADR 0360: a draft feature of the deployment, as RFC 0008's quantifiers are (ADR 0221); never of a request.
  if (!(deployment.draftFeatures ?? []).includes(JUDGMENT_GRAPHS))
    return refused(
      'graphs-not-enabled',
      `this deployment does not enable the draft feature ${JUDGMENT_GRAPHS}: graph requests are not evaluated`,
    );
  let digest: string;
  if (req.graph.kind === 'alias') {
    const resolved = await registry.resolveGraphAlias(req.graph.alias);
    if (resolved === null) return refused('unknown-graph-alias', `no graph is published as ${req.graph.alias}`);
    if (typeof resolved !== 'string')
      return { kind: 'alias-unreadable', alias: req.graph.alias, ...reasonOf(resolved) };
    digest = resolved;
  } else digest = hex(req.graph.digest);
  const loaded = await registry.loadGraph(digest);
  if (loaded === null) return refused('unknown-graph-digest', `no graph with digest sha256:${digest} is published`);
  if ('status' in loaded) return { kind: 'graph-unreadable', digest, ...reasonOf(loaded) };
  // ADR 0450: the digest names the closure, so a registry that serves another closed set under it (a rewritten
  // closure item, a member rebound to other bytes) is refused and recorded here, never run.
  const served = closureDigest(loaded.closure);
  if (!served.ok || served.value !== `sha256:${digest}`)
    return refused(
      'graph-closure-mismatch',
      `the registry serves sha256:${digest} with a closure that hashes to ${served.ok ? served.value : `nothing (${served.error.message})`}: its meaning was rewritten`,
    );
  const workBudget = req.workBudget ?? deployment.defaultWorkBudget;
  if (!Number.isSafeInteger(workBudget) || workBudget < 1 || workBudget > deployment.maxWorkBudget)
    return refused(
      'work-budget-out-of-range',
      `workBudget must be from 1 to ${deployment.maxWorkBudget} work units in this deployment`,
    );
  const run = evaluateGraph({
    graph: loaded.bytes,
    project: loaded.project,
    ...(req.inputs !== undefined ? { inputs: req.inputs } : {}),
    // A2 "Extension support": the deployment's set, applied identically to every node.
    supportedExtensions: new Set(deployment.supportedExtensions),
    workBudget,
  });
  const c = loaded.closure;
  const entry = {
    graph: { digest: loaded.digest, id: c.graphId, version: c.graphVersion },
    packs: pins(c.packs),
    graphs: pins(c.graphs),
    inputsDigest: req.inputs !== undefined ? sha256Hex(req.inputs) : null,
    workBudget,
    work: run.status === 'evaluated' ? run.work.used : (run.workUsed ?? 0),
    run: graphRunJson(run),
  };
  const fits = checkGraphRunFits(
    {
      ...entry,
      kind: 'graph-run',
      requestId: req.requestId,
      requestDigest: 'f'.repeat(64),
      correlation: req.correlation ?? null,
      supportedExtensions: [...new Set(deployment.supportedExtensions)].sort(),
      draftFeatures: [...new Set(deployment.draftFeatures)].sort(),
      evaluator: deployment.evaluator,
    },
    deployment.logIds,
  );
  if (!fits.ok) return refused('entry-would-not-fit', fits.error.message);
  return { kind: 'run', request: req, entry };
}
