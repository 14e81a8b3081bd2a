/**
 * The closed-set check (ADR 0340): a published graph is usable only when every member its closure pins is present
 * and hashes to its pin, and the closure is exactly the one its documents imply (nothing missing, nothing extra).
 * Run at publish time after the members are stored and again on every read, over the bytes the registry returned.
 */
import { bytesDigest, type GraphProject, type SourceFile } from '../graph/index.js';
import { closureOf, type ClosureFinding, type GraphClosure } from './closure.js';

/** What the registry returned for each member the closure pins: the exact bytes, or null when none are stored. */
export interface FetchedMembers {
  readonly packs: ReadonlyMap<string, Uint8Array | null>;
  readonly graphs: ReadonlyMap<string, Uint8Array | null>;
}

export type ClosedSet =
  | { readonly ok: true; readonly project: GraphProject }
  | { readonly ok: false; readonly findings: readonly ClosureFinding[] };

function pinned(
  table: string,
  pins: Readonly<Record<string, string>>,
  fetched: ReadonlyMap<string, Uint8Array | null>,
  findings: ClosureFinding[],
): Map<string, SourceFile> {
  const out = new Map<string, SourceFile>();
  for (const [name, pin] of Object.entries(pins)) {
    const member = `${table} ${name}`;
    const bytes = fetched.get(name) ?? null;
    if (bytes === null) {
      findings.push({ code: 'member-missing', member, message: `${member} (${pin}) is not published` });
      continue;
    }
    const actual = bytesDigest(bytes);
    if (actual !== pin) {
      findings.push({
        code: 'member-differs',
        member,
        message: `${member} hashes to ${actual}, not to its pin ${pin}`,
      });
      continue;
    }
    out.set(name, { ok: true, bytes });
  }
  return out;
}

const same = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** Every finding, members first (packs, then graphs, each by name), then a closure that disagrees with the graph. */
export function checkClosedSet(closure: GraphClosure, graph: Uint8Array, fetched: FetchedMembers): ClosedSet {
  const findings: ClosureFinding[] = [];
  if (bytesDigest(graph) !== closure.graph)
    findings.push({ code: 'member-differs', member: 'graph', message: `the graph does not hash to ${closure.graph}` });
  const packs = pinned('pack', closure.packs, fetched.packs, findings);
  const graphs = pinned('graph', closure.graphs, fetched.graphs, findings);
  if (findings.length > 0) return { ok: false, findings };
  const project: GraphProject = { packs, graphs };
  const derived = closureOf(graph, project);
  if (!derived.ok) return derived;
  const d = derived.closure;
  if (
    d.graphId !== closure.graphId ||
    d.graphVersion !== closure.graphVersion ||
    !same(d.packs, closure.packs) ||
    !same(d.graphs, closure.graphs)
  )
    return {
      ok: false,
      findings: [
        {
          code: 'closure-mismatch',
          member: 'graph',
          message: 'the recorded closure is not the set the graph documents name',
        },
      ],
    };
  return { ok: true, project };
}
