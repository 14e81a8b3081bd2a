/**
 * The pack rules that fired at each leaf of a graph-run entry (docs/console.md "A graph run's entry", ADR 0371). The
 * output contract records dispositions, not traces, so — as the pack section of a single evaluation does from a
 * replay (ADR 0232) — the console re-runs the recorded request: its exact bytes from the request archive, the
 * published graph's closed set from the registry (re-checked on every read, ADR 0340), the entry's budget and
 * extensions, with each leaf's §8.3 trace kept (core/graph `trace`). The trace is shown only when the re-run gives
 * the recorded run's exact text; otherwise the page says why it is not known (`docket replay` reports the mismatch).
 */
import { readJson, toPlain } from '../../core/carrier/index.js';
import { entryClosureDigest, readGraphRequest } from '../../core/admission/index.js';
import { evaluateGraph, graphRunJson, type GraphProject } from '../../core/graph/index.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import type { Retained } from '../../core/replay/index.js';
import type { GraphLeafRules, GraphRulesView, PackItem } from '../../core/console-api/index.js';
import { packItemsOf } from './pack-rules.js';

type GraphRunEntry = Extract<SignedEntry, { kind: 'graph-run' }>;

export interface GraphRulesFetchers {
  /** The exact request bytes in the request archive, by SHA-256 hex. */
  requestBytes(digestHex: string): Promise<Retained>;
  /** The published graph and its re-checked closed set, by closure digest hex (ADR 0450); null when not published. */
  graph(digestHex: string): Promise<{ readonly bytes: Uint8Array; readonly project: GraphProject } | null>;
}

const unknown = (reason: string): GraphRulesView => ({ known: false, reason });

function items(project: GraphProject, pack: string): { rules: PackItem[]; exceptions: PackItem[] } {
  const file = project.packs.get(pack);
  if (!file?.ok) return { rules: [], exceptions: [] };
  const doc = readJson(file.bytes);
  return packItemsOf(doc.ok ? toPlain(doc.value) : null);
}

export async function graphRules(entry: GraphRunEntry, fetch: GraphRulesFetchers): Promise<GraphRulesView> {
  const request = await fetch.requestBytes(entry.requestDigest);
  if (request === null) return unknown('the request archive no longer holds the request (purged or expired)');
  if (!(request instanceof Uint8Array)) return unknown(`the archived request is corrupt: ${request.corrupt}`);
  const read = readGraphRequest(request);
  if (!read.ok) return unknown(`the archived request does not read as a graph request: ${read.error.code}`);
  // The closed set the entry records is named by its closure digest (ADR 0450): exactly that one is re-run.
  const named = entryClosureDigest(entry) ?? '';
  const graph = await fetch.graph(named.slice('sha256:'.length));
  if (graph === null) return unknown(`the registry holds no published graph ${named}`);
  const run = evaluateGraph({
    graph: graph.bytes,
    project: graph.project,
    ...(read.value.inputs !== undefined ? { inputs: read.value.inputs } : {}),
    supportedExtensions: new Set(entry.supportedExtensions),
    workBudget: entry.workBudget,
    trace: true,
  });
  if (graphRunJson(run) !== entry.run)
    return unknown('re-running the request gives another run than the recorded one (docket replay shows how)');
  if (run.status !== 'evaluated') return unknown('the run was refused: no node has a disposition');
  const leaves = run.nodes.map((n): GraphLeafRules => {
    const all = items(graph.project, n.pack);
    const fired = (kind: 'rules' | 'exceptions') =>
      new Set((n.trace?.[kind] ?? []).filter((x) => x.value === 'true').map((x) => x.id));
    const rules = fired('rules');
    const exceptions = fired('exceptions');
    return {
      instancePath: n.instancePath,
      pack: n.pack,
      terminatedAt: n.trace?.terminatedAt ?? 'unknown',
      rules: all.rules.filter((r) => rules.has(r.id)),
      exceptions: all.exceptions.filter((x) => exceptions.has(x.id)),
    };
  });
  return { known: true, leaves };
}
