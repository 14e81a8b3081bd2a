/**
 * The invariants of a graph run's entry (kind `graph-run`, format /3; docs/ledger-format.md "Graph runs";
 * docs/adr/0360-graph-runs-in-the-pipeline.md), checked by the one builder before it signs and by the strict reader
 * after it parses. The run's answer is recorded as the exact text of the output contract (graph-semantics.md
 * "Output contract", core/graph/output.ts) and is checked here against the entry's own members: the graph it names,
 * the budget and the work, every leaf's pack and every subgraph instance in the closure the entry records.
 */
import { isHex } from '../primitives/bytes.js';
import { ENTRY_LIMITS } from './entry-types.js';
import { exactly, isBoundedText, isNat, isRec, type Rec } from '../primitives/shape.js';

const CLOSURE_NAME = /^[\x21-\x7e]+$/;

/** The draft feature a graph run needs (core/pack JUDGMENT_GRAPHS; the format names features by pattern, ADR 0220). */
export const GRAPH_RUN_FEATURE = 'judgment-graphs';

function graphRefViolation(g: unknown): string | null {
  if (!isRec(g) || !exactly(g, ['digest', 'id', 'version'])) return 'graph has exactly digest, id and version';
  if (!isHex(g.digest, 32)) return 'graph.digest is 64 lowercase hex digits';
  // A1: a graph id is any non-empty string (RFC 0022 uses URIs); JSON escapes what it must.
  if (!isBoundedText(g.id, ENTRY_LIMITS.graphIdBytes, true))
    return `graph.id is a non-empty string of at most ${ENTRY_LIMITS.graphIdBytes} bytes`;
  if (!isBoundedText(g.version, ENTRY_LIMITS.graphVersionBytes, false))
    return 'graph.version is a non-empty string without control characters';
  return null;
}

function pinsViolation(p: unknown, name: 'packs' | 'graphs'): string | null {
  if (!isRec(p)) return `${name} is an object of name → digest`;
  const names = Object.keys(p);
  if (name === 'packs' && names.length === 0) return 'packs names at least one pack';
  if (names.length > ENTRY_LIMITS.closureMembers) return `${name} has at most ${ENTRY_LIMITS.closureMembers} members`;
  for (const n of names) {
    // jpack.json names are decision ids (graph schemas' decisionId); the entry admits printable ASCII names.
    if (!CLOSURE_NAME.test(n) || n.length > ENTRY_LIMITS.closureNameBytes)
      return `${name} names are printable ASCII without spaces, at most ${ENTRY_LIMITS.closureNameBytes} bytes`;
    if (!isHex(p[n], 32)) return `${name} pins each name to 64 lowercase hex digits`;
  }
  return null;
}

/**
 * The recorded run text against the entry: the exact text JSON.stringify gives the output contract object (so a
 * duplicate member, spacing or another escape is not that text), an evaluated run of this graph within this budget
 * using this work, each leaf's pack and each subgraph instance in the recorded closure; or a refusal with exactly
 * the contract's members.
 */
export function graphRunTextViolation(e: Rec): string | null {
  const t = e.run;
  if (typeof t !== 'string' || t.length === 0) return 'run is the output contract text';
  let run: unknown;
  try {
    run = JSON.parse(t);
  } catch {
    return 'run is a JSON text';
  }
  if (JSON.stringify(run) !== t) return 'run is the exact text of the output contract object';
  if (!isRec(run)) return 'run is a JSON object';
  const workBudget = e.workBudget as number;
  const work = e.work as number;
  if (run.status === 'refused') {
    if (!exactly(run, ['status', 'error'])) return 'a refused run has exactly status and error';
    const x = run.error;
    if (!isRec(x) || !exactly(x, ['layer', 'code', 'diagnostic', 'class', 'phase', 'node', 'message']))
      return 'run.error has exactly layer, code, diagnostic, class, phase, node and message';
    if (typeof x.layer !== 'string' || typeof x.code !== 'string' || typeof x.message !== 'string')
      return 'run.error.layer, code and message are strings';
    return null;
  }
  if (run.status !== 'evaluated') return 'run.status is evaluated or refused';
  const g = e.graph as Rec;
  if (run.graphDigest !== `sha256:${g.digest as string}`) return 'run.graphDigest is the graph the entry names';
  if (run.graphId !== g.id || run.graphVersion !== g.version) return 'run.graphId and graphVersion are the graph’s';
  const w = run.work;
  if (!isRec(w) || !exactly(w, ['budget', 'used'])) return 'run.work has exactly budget and used';
  if (w.budget !== workBudget) return 'run.work.budget is the entry’s workBudget';
  if (w.used !== work) return 'run.work.used is the entry’s work';
  const packs = e.packs as Rec;
  if (!Array.isArray(run.nodes) || run.nodes.length === 0) return 'run.nodes lists every leaf';
  for (const n of run.nodes as unknown[]) {
    if (!isRec(n) || typeof n.pack !== 'string' || !Object.hasOwn(packs, n.pack))
      return 'every leaf’s pack is in the entry’s packs';
    if (typeof n.instancePath !== 'string' || !isNat(n.work)) return 'every leaf has its instance path and work';
  }
  if (run.subgraphs !== undefined) {
    const graphs = e.graphs as Rec;
    if (!Array.isArray(run.subgraphs)) return 'run.subgraphs is an array';
    for (const s of run.subgraphs as unknown[])
      if (
        !isRec(s) ||
        typeof s.subgraph !== 'string' ||
        !Object.hasOwn(graphs, s.subgraph) ||
        s.digest !== `sha256:${graphs[s.subgraph] as string}`
      )
        return 'every subgraph instance is pinned in the entry’s graphs';
  }
  return null;
}

/** The graph-run members' invariants (the common members are checked by entryViolation). */
export function graphRunViolation(e: Rec): string | null {
  const members = graphRefViolation(e.graph) ?? pinsViolation(e.packs, 'packs') ?? pinsViolation(e.graphs, 'graphs');
  if (members !== null) return members;
  if (e.inputsDigest !== null && !isHex(e.inputsDigest, 32)) return 'inputsDigest is 64 lowercase hex digits or null';
  if (!(e.draftFeatures as readonly string[]).includes(GRAPH_RUN_FEATURE))
    return `a graph run's draftFeatures name ${GRAPH_RUN_FEATURE}`;
  if (!(isNat(e.workBudget) && e.workBudget >= 1)) return 'workBudget is a positive integer';
  if ((e.work as number) > e.workBudget) return 'a graph run uses at most its workBudget';
  return graphRunTextViolation(e);
}
