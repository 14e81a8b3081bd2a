/**
 * The closed set a graph-run entry records, as the closure record it was run from (docs/adr/0450-a-graph-is-named-by-its-closure.md):
 * the entry holds the graph's digest, id and version and every member pin, which are exactly a closure record's
 * members, so the identity a graph request named is re-derived from the entry alone — by `verifyResult`, replay and
 * the pipeline itself — with no registry.
 */
// The identity's own modules, not the graph-closure barrel, which reaches the graph runtime a verifier cannot load.
import type { GraphClosure } from '../graph-closure/closure.js';
import { CLOSURE_FORMAT } from '../graph-closure/closure-format.js';
import { closureDigest } from '../graph-closure/closure-identity.js';
import type { GraphRunEntryDraft } from '../ledger/index.js';

type Recorded = Pick<GraphRunEntryDraft, 'graph' | 'packs' | 'graphs'>;

const pinned = (m: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(m).map(([name, hex]) => [name, `sha256:${hex}`]));

/** The closure record a graph run's members spell. */
export function entryClosure(e: Recorded): GraphClosure {
  return {
    format: CLOSURE_FORMAT,
    graph: `sha256:${e.graph.digest}`,
    graphId: e.graph.id,
    graphVersion: e.graph.version,
    packs: pinned(e.packs),
    graphs: pinned(e.graphs),
  };
}

/** "sha256:<hex>" naming the published graph a run's members spell; undefined when they spell no closure record. */
export function entryClosureDigest(e: Recorded): string | undefined {
  const d = closureDigest(entryClosure(e));
  return d.ok ? d.value : undefined;
}
