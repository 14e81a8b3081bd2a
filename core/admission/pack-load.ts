/**
 * Loading a pack by its bytes for admission: validated and compiled, never trusted because it came from storage
 * (§8.2: the pack is the first preflight input). One home for the pipeline and for replay, so both judge a stored
 * pack the same way.
 */
import { validatePack, type DraftFeature } from '../pack/index.js';
import { compilePack } from '../evaluate/index.js';
import type { CompiledPack } from '../evaluate/compiled-pack.js';
import type { Diagnostic } from '../pack/types.js';
import type { HandoffTarget } from '../evaluate/types.js';

/** A published pack, validated and compiled once. */
export interface LoadedPack {
  /** SHA-256 hex of the exact pack bytes. */
  readonly digest: string;
  readonly id: string;
  readonly version: string;
  readonly specVersion: string;
  readonly compiled: CompiledPack;
  /** escalation.target when the pack declares one (§6.7). */
  readonly target: HandoffTarget | undefined;
  /** Every declared outcome id, and the declared route targets in order: the pack's worst case for admission. */
  readonly outcomeIds: readonly string[];
  readonly routeTargets: readonly HandoffTarget[];
}

/** The outcome of loading a pack by digest. `not-conformant` carries the §8.4 error to record. */
export type PackLoad =
  | { readonly status: 'found'; readonly pack: LoadedPack }
  | { readonly status: 'missing' }
  | { readonly status: 'not-conformant'; readonly message: string };

/** The pack's configured target (§6.7), read from the validated plain document; undefined for routes or none. */
export function packEscalationTarget(plainPack: unknown): HandoffTarget | undefined {
  if (typeof plainPack !== 'object' || plainPack === null) return undefined;
  const esc = (plainPack as { escalation?: { target?: { kind?: unknown; name?: unknown } } }).escalation;
  const t = esc?.target;
  if (t === undefined || typeof t.name !== 'string') return undefined;
  if (t.kind !== 'human-role' && t.kind !== 'queue' && t.kind !== 'system') return undefined;
  return { kind: t.kind, name: t.name };
}

/**
 * `draftFeatures`: the grammar the evaluator enables (ADR 0190); none = Core only. The pipeline passes its
 * deployment's features, replay the ones the entry recorded (ADR 0220).
 */
export function loadPackBytes(
  digest: string,
  bytes: Uint8Array,
  draftFeatures: readonly DraftFeature[] = [],
): PackLoad {
  const v = validatePack(bytes, draftFeatures.length > 0 ? { draftFeatures } : {});
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
