/**
 * The overview page's data (docs/console.md "Overview"): each log with its head, its newest checkpoint (and whether
 * it verifies under the trust policy) and the witness cosignatures on the newest checkpoint note — read from the
 * store per log, never from a pass over every entry (ADR 0230) — and, separately, the entries per kind and per pack
 * over time, in at most CHART_BUCKETS equal time buckets (ADR 0182), from the index once it is built.
 */
import {
  keyForCheckpoint,
  leafHash,
  toHex,
  parseCheckpoint,
  verifyCheckpointSignature,
  type LedgerStore,
  type StoredCheckpoint,
  type TrustPolicy,
} from '../../core/ledger/index.js';
import { keepsNotes } from '../../core/ledger/index.js';
import type { LedgerIndex } from './ledger-index.js';
import type { ConsoleSource } from './source.js';
import type {
  EntrySummary,
  CheckpointView,
  WitnessPolicySummary,
  Overview,
  Chart,
  OverviewChart,
} from '../../core/console-api/index.js';

export const CHART_BUCKETS = 24;
/** Packs drawn as their own series; the rest are summed as "other packs". */
export const CHART_PACKS = 6;

export function checkpointView(c: StoredCheckpoint, policy: TrustPolicy | null): CheckpointView {
  const parsed = parseCheckpoint(c.body);
  const cp = parsed.ok ? parsed.value : null;
  const base = {
    logId: c.logId,
    treeSize: c.treeSize,
    time: cp?.time ?? null,
    rootHash: cp?.rootHash ?? null,
    chainHead: cp?.chainHead ?? null,
    keyId: cp?.keyId ?? null,
  };
  if (cp === null) return { ...base, status: 'malformed' };
  if (policy === null) return { ...base, status: 'no-policy' };
  const key = keyForCheckpoint(policy, cp.keyId, cp.logId, cp.treeSize);
  if (!key.ok) return { ...base, status: key.code };
  return { ...base, status: verifyCheckpointSignature(cp, key.key.publicKey) ? 'ok' : 'bad-signature' };
}

/** The newest (largest tree) checkpoint of a log that verifies, else the newest at all; null when none is stored. */
export function newestCheckpoint(all: readonly StoredCheckpoint[], policy: TrustPolicy | null): CheckpointView | null {
  const views = all.map((c) => checkpointView(c, policy)).sort((a, b) => b.treeSize - a.treeSize);
  return views.find((v) => v.status === 'ok') ?? views[0] ?? null;
}

function series(entries: readonly EntrySummary[], start: number, bucket: number, keyOf: (e: EntrySummary) => string) {
  const out = new Map<string, number[]>();
  for (const e of entries) {
    if (e.time === null) continue;
    const i = Math.min(CHART_BUCKETS - 1, Math.floor((Date.parse(e.time) / 1000 - start) / bucket));
    const k = keyOf(e);
    let counts = out.get(k);
    if (counts === undefined) out.set(k, (counts = new Array<number>(CHART_BUCKETS).fill(0)));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return out;
}

const total = (c: readonly number[]) => c.reduce((a, b) => a + b, 0);

export function chartOf(entries: readonly EntrySummary[]): Chart {
  let lo = Infinity;
  let hi = -Infinity;
  for (const e of entries) {
    if (e.time === null) continue;
    const t = Date.parse(e.time) / 1000;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  if (lo === Infinity) return { start: null, end: null, bucketSeconds: 0, byKind: [], byPack: [] };
  const bucket = Math.max(1, hi - lo + 1) / CHART_BUCKETS;
  const kinds = series(entries, lo, bucket, (e) => e.kind);
  const packs = [
    ...series(entries, lo, bucket, (e) => e.packId ?? (e.packDigest ? e.packDigest.slice(0, 12) : '(no pack)')),
  ]
    .map(([name, counts]) => ({ name, counts }))
    .sort((a, b) => total(b.counts) - total(a.counts) || (a.name < b.name ? -1 : 1));
  const top = packs.slice(0, CHART_PACKS);
  const rest = packs.slice(CHART_PACKS);
  if (rest.length > 0)
    top.push({
      name: `${rest.length} other packs`,
      counts: new Array<number>(CHART_BUCKETS).fill(0).map((_, i) => rest.reduce((a, s) => a + (s.counts[i] ?? 0), 0)),
    });
  return {
    start: new Date(lo * 1000).toISOString().replace('.000Z', 'Z'),
    end: new Date((hi + 1) * 1000).toISOString().replace('.000Z', 'Z'),
    bucketSeconds: bucket,
    byKind: [...kinds].map(([name, counts]) => ({ name, counts })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    byPack: top,
  };
}

const encoder = new TextEncoder();

async function witnessesOf(store: LedgerStore, logId: string): Promise<Overview['logs'][number]['witnesses']> {
  if (!keepsNotes(store)) return null;
  let newest: number | null = null;
  for await (const n of store.readNotes(logId)) newest = n.treeSize;
  if (newest === null) return null;
  let count = 0;
  for await (const _ of store.readCosignatures(logId, newest)) count++;
  return { treeSize: newest, cosignatures: count };
}

/** Per log: one head read, its checkpoints and notes (ADR 0230: nothing here reads every entry). */
export async function overviewOf(
  { store, policy, description, retention }: Pick<ConsoleSource, 'store' | 'policy' | 'description' | 'retention'>,
  witnessPolicy: WitnessPolicySummary | null,
): Promise<Overview> {
  const logs = [];
  for (const logId of [...(await store.listLogs())].sort()) {
    const checkpoints: StoredCheckpoint[] = [];
    for await (const c of store.readCheckpoints(logId)) checkpoints.push(c);
    const head = await store.readHead(logId);
    logs.push({
      logId,
      entries: head === null ? 0 : head.seq + 1,
      // The entry hash is the RFC 9162 leaf hash of the stored bytes (docs/ledger-format.md).
      head: head && {
        seq: head.seq,
        entryHash: toHex(leafHash(encoder.encode(head.body))),
        time: timeOf(head.body),
      },
      checkpoint: newestCheckpoint(checkpoints, policy),
      witnesses: await witnessesOf(store, logId),
    });
  }
  return { source: description, entries: logs.reduce((a, l) => a + l.entries, 0), logs, retention, witnessPolicy };
}

/** The head's `time` member, read leniently as the list reads it (ADR 0182). */
function timeOf(body: string): string | null {
  try {
    const o = JSON.parse(body) as unknown;
    return typeof o === 'object' && o !== null && typeof (o as { time?: unknown }).time === 'string'
      ? (o as { time: string }).time
      : null;
  } catch {
    return null;
  }
}

/** The charts over what the index holds; recomputed only when the index has grown (a read-only cache). */
export class ChartCache {
  private last: OverviewChart | null = null;

  constructor(private readonly index: LedgerIndex) {}

  async get(): Promise<OverviewChart> {
    await this.index.refresh();
    const indexed = this.index.size;
    if (this.last?.indexed !== indexed) this.last = { indexed, chart: chartOf(this.index.all()) };
    return this.last;
  }
}
