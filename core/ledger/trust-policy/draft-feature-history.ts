/**
 * A trust policy that remembers (docs/adr/0462-trust-policy-remembers-draft-feature-permits.md): when a policy is
 * regenerated for a log that already holds entries — the local stack writes a new one at every start — every seq
 * already written keeps the permit an earlier policy gave it, and the new permit starts at the log's next seq. So an
 * entry recorded while a draft feature was permitted stays valid after the feature is turned off, and turning a
 * feature on never makes an entry written before valid.
 */
import type { DraftFeatureAllowance } from './trust-policy.js';

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * The permits of the regenerated policy: for each log, the earlier permits cut at the entries written (`written`: the
 * log's number of entries, i.e. its next seq; absent = 0), then `now` from the next seq on, open-ended. An earlier
 * open permit of exactly `now` is kept whole rather than split at every regeneration.
 */
export function rememberedPermits(
  earlier: readonly DraftFeatureAllowance[],
  logs: readonly string[],
  written: ReadonlyMap<string, number>,
  now: readonly string[],
): Required<DraftFeatureAllowance>[] {
  const allow = [...new Set(now)].sort();
  const out: Required<DraftFeatureAllowance>[] = [];
  for (const logId of [...logs].sort()) {
    const next = written.get(logId) ?? 0;
    const mine = earlier
      .filter((a) => a.logId === logId)
      .map((a) => ({ logId, allow: a.allow, fromSeq: a.fromSeq ?? 0, toSeq: a.toSeq ?? null }))
      .sort((a, b) => a.fromSeq - b.fromSeq);
    const continued = mine.find(
      (a) => a.toSeq === null && a.fromSeq <= next && allow.length > 0 && sameSet(a.allow, allow),
    );
    for (const a of mine) {
      if (a === continued) out.push(a);
      else if (a.fromSeq < next) out.push({ ...a, toSeq: a.toSeq === null ? next - 1 : Math.min(a.toSeq, next - 1) });
    }
    if (continued === undefined && allow.length > 0) out.push({ logId, allow, fromSeq: next, toSeq: null });
  }
  return out;
}
