/**
 * Packs by digest, validated and compiled once and kept in a bounded LRU across invocations (docs/pipeline.md).
 * The registry only stores bytes; conformance is re-checked here on load because the evaluator must not trust
 * storage (§8.2: the pack is the first preflight input).
 */
import { Lru, loadPackBytes, type PackLoad, type PackUnreadable } from '../admission/index.js';
import type { DraftFeature } from '../pack/index.js';
import type { PackReadFailure, PackSource } from './ports.js';

export interface PackBytesSource {
  getPack(digestHex: string): Promise<Uint8Array | null | PackUnreadable<PackReadFailure>>;
  resolveAlias(alias: string): Promise<string | null | PackUnreadable<PackReadFailure>>;
}

/** Compiled packs kept per warm function instance. 64 × a few hundred KB at most. */
const PACK_CACHE_SIZE = 64;

/** `draftFeatures`: the deployment's (PipelineConfig.draftFeatures), so a pack is judged under the grammar recorded. */
export function cachedPackSource(registry: PackBytesSource, draftFeatures: readonly DraftFeature[] = []): PackSource {
  const cache = new Lru<string, PackLoad>(PACK_CACHE_SIZE);
  // One registry read per digest at a time: a cold instance's batch names the same pack in most of its records,
  // and each would otherwise read (and pay for) the same item concurrently.
  const reading = new Map<string, ReturnType<PackSource['load']>>();
  const read = async (digest: string): ReturnType<PackSource['load']> => {
    const bytes = await registry.getPack(digest);
    // Neither a missing nor an unreadable pack is cached: it may be published (or put back) a moment later.
    if (bytes === null) return { status: 'missing' };
    if (!(bytes instanceof Uint8Array)) return bytes;
    const loaded = loadPackBytes(digest, bytes, draftFeatures);
    cache.set(digest, loaded);
    return loaded;
  };
  return {
    load(digest) {
      const hit = cache.get(digest);
      if (hit !== undefined) return Promise.resolve(hit);
      let pending = reading.get(digest);
      if (pending === undefined) {
        pending = read(digest).finally(() => reading.delete(digest));
        reading.set(digest, pending);
      }
      return pending;
    },
    resolveAlias: (alias) => registry.resolveAlias(alias),
  };
}
