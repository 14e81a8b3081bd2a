/**
 * Fetching the bytes an entry names by digest, with the digest checked here whatever the fetcher did
 * (docs/replay.md): replay trusts no store, exactly as the pipeline trusts no registry (§8.2, §10).
 */
import { Lru, loadPackBytes, type PackLoad } from '../admission/index.js';
import { sha256Hex } from '../ledger/primitives/bytes.js';
import type { DraftFeature } from '../pack/index.js';
import type { NotReplayableReason, ReplayFetchers, Retained } from './types.js';

export type Fetched<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: NotReplayableReason; readonly detail: string };

/** The retained request bytes for `digest`, checked against it. `notRetained` names why absence is expected. */
export async function fetchRequest(
  fetch: ReplayFetchers,
  digest: string,
  absentReason: NotReplayableReason,
): Promise<Fetched<Uint8Array>> {
  const r = await fetch.requestBytes(digest);
  if (r === null)
    return { ok: false, reason: absentReason, detail: `the request archive holds no bytes for sha256:${digest}` };
  return checked(r, digest, 'request-digest-mismatch', 'the retained bytes');
}

/** Bytes a store returned for `digest`, unless it said they are corrupt or they hash to something else. */
function checked(
  r: Exclude<Retained, null>,
  digest: string,
  reason: 'request-digest-mismatch' | 'pack-digest-mismatch',
  whose: string,
): Fetched<Uint8Array> {
  if (!(r instanceof Uint8Array)) return { ok: false, reason, detail: r.corrupt };
  const actual = sha256Hex(r);
  if (actual !== digest)
    return { ok: false, reason, detail: `${whose} hash to sha256:${actual}, the entry names sha256:${digest}` };
  return { ok: true, value: r };
}

/**
 * The registry's exact bytes for a pack digest, checked against it (§8.2: no registry is trusted); null when the
 * registry holds none. Replay's pack loads and the console's pack view both read through it.
 */
export async function fetchPack(fetch: ReplayFetchers, digest: string): Promise<Fetched<Uint8Array | null>> {
  const r = await fetch.packBytes(digest);
  return r === null ? { ok: true, value: null } : checked(r, digest, 'pack-digest-mismatch', "the registry's bytes");
}

/** Packs loaded for one replay run: validated and compiled once per digest, as the pipeline's cache does. */
export class PackCache {
  private readonly cache = new Lru<string, Fetched<PackLoad | null>>(64);
  constructor(private readonly fetch: ReplayFetchers) {}

  /**
   * The pack for `digest` judged under `draftFeatures` (the entry's recorded ones, ADR 0223): loaded (found or
   * not-conformant), `null` when the registry holds no such pack, or a corrupt store.
   */
  async load(digest: string, draftFeatures: readonly DraftFeature[] = []): Promise<Fetched<PackLoad | null>> {
    // The same bytes may be conformant under one grammar and not under another: the features are part of the key.
    const key = draftFeatures.length > 0 ? `${digest}+${draftFeatures.join(',')}` : digest;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const r = await fetchPack(this.fetch, digest);
    let out: Fetched<PackLoad | null>;
    if (!r.ok) out = r;
    else if (r.value === null) out = { ok: true, value: null };
    // The pipeline's own loader: the same validation and compilation, hence the same preflight (§8.2).
    else out = { ok: true, value: loadPackBytes(digest, r.value, draftFeatures) };
    // A missing pack is not cached: it may be published while a long replay runs (the pipeline does the same).
    if (!(out.ok && out.value === null)) this.cache.set(key, out);
    return out;
  }
}
