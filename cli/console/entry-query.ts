/**
 * The entries list's filters and pages (docs/console.md "Entries"). Every filter is an exact match on what the entry
 * states, except `requestId`, which also matches a prefix (search), and the time range, which compares RFC 3339 UTC
 * strings (entries carry one fixed form, docs/ledger-format.md, so text order is time order).
 */
import type { EntryPage, EntrySummary } from '../../core/console-api/index.js';

/**
 * The filters by query name. `result`: the disposition kind (`outcome`, `no-match`, …), the error class or the refusal
 * code; `pack`: a pack id or digest (64 hex); `correlation`: `name=value` (exact) or `value` (any member with it).
 */
export const FILTER_KEYS = [
  'requestId',
  'log',
  'kind',
  'result',
  'outcome',
  'pack',
  'correlation',
  'from',
  'to',
] as const;
export type EntryFilter = Readonly<Partial<Record<(typeof FILTER_KEYS)[number], string>>>;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export function filterFromQuery(q: URLSearchParams): EntryFilter {
  const out: Record<string, string> = {};
  for (const k of FILTER_KEYS) {
    const v = q.get(k);
    if (v !== null && v !== '') out[k] = v;
  }
  return out;
}

function correlationMatches(c: EntrySummary['correlation'], wanted: string): boolean {
  if (c === null) return false;
  const eq = wanted.indexOf('=');
  if (eq > 0) return c[wanted.slice(0, eq)] === wanted.slice(eq + 1);
  return Object.values(c).includes(wanted);
}

export function matches(e: EntrySummary, f: EntryFilter): boolean {
  if (f.requestId !== undefined && !e.requestId.startsWith(f.requestId)) return false;
  if (f.log !== undefined && e.logId !== f.log) return false;
  if (f.kind !== undefined && e.kind !== f.kind) return false;
  if (f.result !== undefined && e.result !== f.result) return false;
  if (f.outcome !== undefined && e.outcomeId !== f.outcome) return false;
  if (f.pack !== undefined && e.packId !== f.pack && e.packDigest !== f.pack) return false;
  if (f.correlation !== undefined && !correlationMatches(e.correlation, f.correlation)) return false;
  if (f.from !== undefined && (e.time === null || e.time < f.from)) return false;
  if (f.to !== undefined && (e.time === null || e.time > f.to)) return false;
  return true;
}

/** Newest first (time, then log and seq), one page of the matching entries. */
export function pageOf(all: readonly EntrySummary[], f: EntryFilter, page: number, pageSize: number): EntryPage {
  const hits = all.filter((e) => matches(e, f));
  hits.sort((a, b) => {
    const ta = a.time ?? '';
    const tb = b.time ?? '';
    if (ta !== tb) return ta < tb ? 1 : -1;
    if (a.logId !== b.logId) return a.logId < b.logId ? -1 : 1;
    return b.seq - a.seq;
  });
  const size = Math.min(Math.max(1, pageSize), MAX_PAGE_SIZE);
  const p = Math.max(0, page);
  return { total: hits.length, page: p, pageSize: size, entries: hits.slice(p * size, (p + 1) * size) };
}

/** A non-negative integer query parameter, or the fallback. */
export function intParam(q: URLSearchParams, name: string, fallback: number): number {
  const v = q.get(name);
  return v !== null && /^(0|[1-9][0-9]{0,8})$/.test(v) ? Number(v) : fallback;
}
