/**
 * The entry page's pack section (docs/console.md "Entry"; ADR 0232): where the pack registry holds the entry's pack
 * — the exact bytes for its digest, checked by core's fetchPack (§8.2: no registry is trusted) — its rules and
 * exceptions as the pack defines them (Judgment Pack Core §6.5, §6.6), and which of them fired, from the §8.3
 * trace of a replay of the entry (the request from the archive, the pack from the registry). Where the registry
 * lacks the pack or holds other bytes, or the request is gone, it says so.
 */
import { readJson, toPlain } from '../../core/carrier/index.js';
import { fetchPack, type ReplayFetchers, type ReplayOutcome } from '../../core/replay/index.js';
import type { PackItem, PackRulesView } from '../../core/console-api/index.js';

type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);

function itemsOf(list: unknown, yields: (o: Rec) => string): PackItem[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isRec).map((o) => ({
    id: str(o.id) ?? '(no id)',
    description: str(o.description),
    yields: yields(o),
    definition: JSON.stringify(o, null, 2),
  }));
}

const effectOf = (o: Rec): string => {
  const effect = str(o.effect) ?? '?';
  if (effect === 'suppress-rule') return `suppress-rule ${str(o.targetRule) ?? '?'}`;
  if (effect === 'force-outcome') return `force-outcome ${str(o.outcome) ?? '?'}`;
  return effect;
};

/** A pack document's rules and exceptions as the page lists them (Core §6.5, §6.6); none when it has none. */
export function packItemsOf(plain: unknown): { rules: PackItem[]; exceptions: PackItem[] } {
  if (!isRec(plain)) return { rules: [], exceptions: [] };
  return {
    rules: itemsOf(plain.rules, (o) => `outcome ${str(o.outcome) ?? '?'}`),
    exceptions: itemsOf(plain.exceptions, effectOf),
  };
}

/** The registered pack's rules for `digest`, and which fired in `replayed` (a replay run with `trace`). */
export async function packRules(
  fetch: ReplayFetchers,
  digest: string,
  replayed: () => Promise<ReplayOutcome | null>,
): Promise<PackRulesView> {
  const bytes = await fetchPack(fetch, digest);
  if (!bytes.ok) return { registered: false, reason: `the registry holds other bytes for this pack: ${bytes.detail}` };
  if (bytes.value === null) return { registered: false, reason: `the pack registry holds no pack sha256:${digest}` };
  const doc = readJson(bytes.value);
  const plain = doc.ok ? toPlain(doc.value) : null;
  if (!isRec(plain))
    return { registered: false, reason: `the registry's bytes for sha256:${digest} are not a JSON pack document` };
  const { rules, exceptions } = packItemsOf(plain);
  const outcome = await replayed();
  const trace = outcome?.trace;
  const fired: Extract<PackRulesView, { registered: true }>['fired'] =
    trace === undefined
      ? {
          known: false,
          reason:
            outcome === null
              ? 'no entry records this request'
              : `replay did not evaluate the pack (${outcome.reason ?? outcome.result}${outcome.detail ? `: ${outcome.detail}` : ''})`,
        }
      : {
          known: true,
          replay: (outcome as ReplayOutcome).result,
          terminatedAt: trace.terminatedAt,
          rules: trace.rules.filter((r) => r.value === 'true').map((r) => r.id),
          exceptions: trace.exceptions.filter((x) => x.value === 'true').map((x) => x.id),
        };
  return { registered: true, digest, rules, exceptions, fired };
}
