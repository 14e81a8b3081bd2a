/**
 * The compiled graphs evaluateGraph reuses across runs (ADR 0380), keyed by digests: the root document's digest and
 * the project's names select an entry, and the entry is reused only when every file it read still has the bytes it
 * read (or is still unreadable with the same message). A compiled graph is a pure function of exactly those, so a
 * hit is indistinguishable from compiling again; a project whose bytes differ in any file the graph uses never gets
 * another project's compiled graph. Bounded; the oldest entry goes first.
 *
 * "The same bytes" is checked against a private copy kept with the entry (a native comparison, several times faster
 * than hashing a pack again on every run) while an entry's copies total at most COPY_BYTES_MAX; a source past that
 * is checked by its digest. Byte equality implies digest equality, so both checks answer the same.
 */
import { Buffer } from 'node:buffer';
import { GRAPH_LIMITS } from './codes.js';
import { compileGraph, projectNames, type CompiledGraph, type GraphSource } from './compiled-graph.js';
import { bytesDigest } from './digest.js';
import type { GraphProject } from './project.js';

/** At most this many compiled graphs are kept (ADR 0380 states what one holds). */
export const COMPILED_GRAPHS_MAX = 64;

/** The private copies of one entry's sources total at most this many bytes (ADR 0380). */
export const COPY_BYTES_MAX = 262_144;

interface Entry {
  readonly compiled: CompiledGraph;
  /** Per `compiled.sources` index: a private copy of the bytes read, or undefined (unreadable, or checked by digest). */
  readonly copies: readonly (Buffer | undefined)[];
}

const memo = new Map<string, Entry>();

/** The compiled graph for these bytes and this project: a memo hit when every source's digest is unchanged. */
export function compiledGraphFor(input: GraphSource): CompiledGraph {
  // A1: an oversized document is refused before it is read; it is neither hashed nor kept.
  if (input.graph.length > GRAPH_LIMITS.graphBytes) return compileGraph(input);
  const key = `${bytesDigest(input.graph)}\n${projectNames(input.project)}`;
  const hit = memo.get(key);
  if (hit !== undefined && sameSources(hit, input.project)) return hit.compiled;
  const compiled = compileGraph(input);
  memo.delete(key);
  if (memo.size >= COMPILED_GRAPHS_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, { compiled, copies: copiesOf(compiled, input.project) });
  return compiled;
}

/** Copies of the bytes each source was compiled from (read synchronously just now), while they fit the bound. */
function copiesOf(compiled: CompiledGraph, project: GraphProject): (Buffer | undefined)[] {
  let room = COPY_BYTES_MAX;
  return compiled.sources.map((s) => {
    const file = project[s.table].get(s.name);
    if (file?.ok !== true || file.bytes.length > room) return undefined;
    room -= file.bytes.length;
    return Buffer.from(file.bytes);
  });
}

/** Whether every file the entry read is, in `project`, the same bytes (copy or digest) or the same unreadable file. */
function sameSources(entry: Entry, project: GraphProject): boolean {
  const { sources } = entry.compiled;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    const file = project[s.table].get(s.name);
    if (file === undefined) return false;
    const copy = entry.copies[i];
    if (copy !== undefined) {
      if (!file.ok || !copy.equals(file.bytes)) return false;
      continue;
    }
    if (
      s.digest !== undefined
        ? !file.ok || bytesDigest(file.bytes) !== s.digest
        : file.ok || file.message !== s.unreadable
    )
      return false;
  }
  return true;
}
