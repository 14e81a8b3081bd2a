/**
 * Packs by digest, validated and compiled once and kept in a bounded LRU across invocations (docs/pipeline.md).
 * The registry only stores bytes; conformance is re-checked here on load because the evaluator must not trust
 * storage (§8.2: the pack is the first preflight input).
 */
import { validatePack } from '../pack/index.js';
import { compilePack } from '../evaluate/index.js';
import type { Diagnostic } from '../pack/types.js';
import type { HandoffTarget } from '../evaluate/types.js';
import { Lru } from './lru.js';
import { packEscalationTarget } from './handoff-plan.js';
import type { PackLoad, PackSource } from './ports.js';

export interface PackBytesSource {
  getPack(digestHex: string): Promise<Uint8Array | null>;
  resolveAlias(alias: string): Promise<string | null>;
}

/** Compiled packs kept per warm function instance. 64 × a few hundred KB at most. */
export const DEFAULT_PACK_CACHE_SIZE = 64;

export function cachedPackSource(
  registry: PackBytesSource,
  capacity = DEFAULT_PACK_CACHE_SIZE,
): PackSource & { readonly cache: Lru<string, PackLoad> } {
  const cache = new Lru<string, PackLoad>(capacity);
  return {
    cache,
    async load(digest) {
      const hit = cache.get(digest);
      if (hit !== undefined) return hit;
      const bytes = await registry.getPack(digest);
      // A missing pack is not cached: it may be published a moment later.
      if (bytes === null) return { status: 'missing' };
      const loaded = loadPackBytes(digest, bytes);
      cache.set(digest, loaded);
      return loaded;
    },
    resolveAlias: (alias) => registry.resolveAlias(alias),
  };
}

export function loadPackBytes(digest: string, bytes: Uint8Array): PackLoad {
  const v = validatePack(bytes);
  if (!v.conformant || v.pack === undefined) {
    const first = v.diagnostics.find((d: Diagnostic) => d.severity === 'error');
    return {
      status: 'not-conformant',
      message: `the stored pack is not conformant (${v.class}): ${first?.code ?? 'unknown'}`,
    };
  }
  const plain = v.pack.plain as {
    id?: unknown;
    version?: unknown;
    outcomes?: { id?: unknown }[];
    escalation?: { routes?: { target?: unknown }[] };
  };
  const outcomeIds = (plain.outcomes ?? []).map((o) => String(o.id));
  const routeTargets = (plain.escalation?.routes ?? []).map((r) => r.target as HandoffTarget);
  return {
    status: 'found',
    pack: {
      digest,
      id: String(plain.id),
      version: String(plain.version),
      specVersion: v.pack.specVersion,
      compiled: compilePack(v.pack),
      target: packEscalationTarget(v.pack.plain),
      outcomeIds,
      routeTargets,
    },
  };
}
