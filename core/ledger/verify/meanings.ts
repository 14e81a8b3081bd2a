/**
 * What each `id@version` meant when the ledger recorded it (docs/verify.md "Logs", `meaning-rebound`;
 * docs/adr/0450-a-graph-is-named-by-its-closure.md). The registry's aliases and closure records are table items a
 * writer can rewrite; the ledger's entries are signed. Every entry that names a pack by id, version and digest, and
 * every graph run (its graph id and version, document digest and every member pin), fixes what that name meant the
 * first time it was recorded; a later entry that records another meaning under the same name is the evidence a
 * rebinding leaves, however the table was written.
 */
import type { RefusalCode, SignedEntry } from '../entries/entry-types.js';

/** The name an entry records and what it meant, or undefined for an entry that names no pack or graph by version. */
export function meaningOf(e: SignedEntry): { readonly name: string; readonly meaning: string } | undefined {
  if (e.kind === 'graph-run') {
    const sorted = (m: Readonly<Record<string, string>>) => Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1));
    return {
      name: `graph ${e.graph.id}@${e.graph.version}`,
      meaning: JSON.stringify([e.graph.digest, sorted(e.packs), sorted(e.graphs)]),
    };
  }
  const p = e.pack;
  if (p?.id === undefined || p.version === undefined) return undefined;
  return { name: `pack ${p.id}@${p.version}`, meaning: p.digest };
}

/** The first recorded meaning of every name, and the names later entries rebound. */
export class Meanings {
  private readonly first = new Map<string, { meaning: string; logId: string; seq: number }>();

  /** The first occurrence when `e` (stored at logId, seq) records another meaning for a name already recorded. */
  rebound(e: SignedEntry, logId: string, seq: number): { name: string; logId: string; seq: number } | undefined {
    const m = meaningOf(e);
    if (m === undefined) return undefined;
    const seen = this.first.get(m.name);
    if (seen === undefined) {
      this.first.set(m.name, { meaning: m.meaning, logId, seq });
      return undefined;
    }
    return seen.meaning === m.meaning ? undefined : { name: m.name, logId: seen.logId, seq: seen.seq };
  }
}

/**
 * The refusals that are themselves the evidence of a registry written around the create-only publisher: a closure
 * served under a digest it does not hash to (`graph-closure-mismatch`, ADR 0450), a pack item whose bytes do not hash
 * to its digest (`pack-unreadable`), an alias item with no valid digest (`alias-unreadable`, ADR 0485).
 */
const REWRITTEN_REGISTRY_CODES: ReadonlySet<RefusalCode> = new Set<RefusalCode>([
  'graph-closure-mismatch',
  'pack-unreadable',
  'alias-unreadable',
]);

/** Whether the entry is itself the evidence that the registry was rewritten (one of the refusals above). */
export const recordsRewrittenRegistry = (e: SignedEntry): boolean =>
  e.kind === 'admission-refusal' && REWRITTEN_REGISTRY_CODES.has(e.refusal.code);
