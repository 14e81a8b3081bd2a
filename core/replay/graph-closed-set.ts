/**
 * Replay trusts no registry (docs/replay.md): a published graph it is handed is re-checked as the closed set its
 * closure pins (ADR 0340, core/graph-closure `checkClosedSet`) over exactly the bytes it was given.
 */
import type { LoadedGraph } from '../admission/index.js';
import { checkClosedSet } from '../graph-closure/index.js';

const bytesOf = (files: LoadedGraph['project']['packs']): Map<string, Uint8Array | null> =>
  new Map([...files].map(([name, f]) => [name, f.ok ? f.bytes : null]));

/** Why the graph is not its closed set, or undefined when it is. */
export function checkGraphClosedSet(g: Omit<LoadedGraph, 'digest'>): string | undefined {
  const r = checkClosedSet(g.closure, g.bytes, { packs: bytesOf(g.project.packs), graphs: bytesOf(g.project.graphs) });
  return r.ok ? undefined : r.findings.map((f) => f.message).join('; ');
}
