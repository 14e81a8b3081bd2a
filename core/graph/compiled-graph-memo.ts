/**
 * The compiled graphs evaluateGraph reuses across runs (ADR 0380), keyed by digests: the root document's digest and
 * the project's names select an entry, and the entry is reused only when every file it read still has the digest it
 * read (or is still unreadable with the same message). A compiled graph is a pure function of exactly those, so a
 * hit is indistinguishable from compiling again; a project whose bytes differ in any file the graph uses never gets
 * another project's compiled graph. Bounded; the oldest entry goes first.
 */
import { GRAPH_LIMITS } from './codes.js';
import { compileGraph, projectNames, type CompiledGraph, type GraphSource } from './compiled-graph.js';
import { bytesDigest } from './digest.js';
import type { GraphProject } from './project.js';

/** At most this many compiled graphs are kept (ADR 0380 states what one holds). */
export const COMPILED_GRAPHS_MAX = 64;

const memo = new Map<string, CompiledGraph>();

/** The compiled graph for these bytes and this project: a memo hit when every source's digest is unchanged. */
export function compiledGraphFor(input: GraphSource): CompiledGraph {
  // A1: an oversized document is refused before it is read; it is neither hashed nor kept.
  if (input.graph.length > GRAPH_LIMITS.graphBytes) return compileGraph(input);
  const key = `${bytesDigest(input.graph)}\n${projectNames(input.project)}`;
  const hit = memo.get(key);
  if (hit !== undefined && sameSources(hit, input.project)) return hit;
  const compiled = compileGraph(input);
  memo.delete(key);
  if (memo.size >= COMPILED_GRAPHS_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, compiled);
  return compiled;
}

/** Whether every file `compiled` read is, in `project`, the same bytes (by digest) or the same unreadable file. */
function sameSources(compiled: CompiledGraph, project: GraphProject): boolean {
  for (const s of compiled.sources) {
    const file = project[s.table].get(s.name);
    if (file === undefined) return false;
    if (
      s.digest !== undefined
        ? !file.ok || bytesDigest(file.bytes) !== s.digest
        : file.ok || file.message !== s.unreadable
    )
      return false;
  }
  return true;
}
