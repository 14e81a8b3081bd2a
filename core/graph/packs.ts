/**
 * The packs of a graph, each validated and compiled once by the existing evaluator (core/evaluate) when the graph is
 * compiled (ADR 0380). A pack's state is only reported when a node that uses it runs — nothing answers for a pack
 * before the engine would (A3) — so a pack defect is the engine's pack-not-conformant on the first node that uses
 * it, with the very error a single evaluation reports.
 */
import {
  compilePack,
  evaluateDocuments,
  type CompiledPack,
  type EvaluationError,
  type HandoffTarget,
} from '../evaluate/index.js';
import { validatePack } from '../pack/index.js';
import { bytesDigest } from './digest.js';
import type { SourceFile } from './project.js';

export interface PackMeta {
  readonly packId: string;
  readonly packVersion: string;
  readonly specVersion: string;
  /** §6.7 escalation.target, verbatim, when the pack declares one. */
  readonly target: HandoffTarget | undefined;
}

export type PackState =
  | { readonly kind: 'ok'; readonly compiled: CompiledPack; readonly meta: PackMeta }
  | { readonly kind: 'error'; readonly error: EvaluationError }
  | { readonly kind: 'unreadable'; readonly message: string };

const EMPTY = new TextEncoder().encode('{}');

/**
 * Validated and compiled packs shared across runs, keyed by the SHA-256 of their exact bytes: the answer is a pure
 * function of the bytes, so a hit is indistinguishable from validating again (as the evaluator's own memos, ADR
 * 0036, ADR 0037). Bounded; the oldest entry goes first.
 */
const SHARED_MAX = 64;
const shared = new Map<string, Exclude<PackState, { kind: 'unreadable' }>>();

/**
 * A pack file's state and, when it was read, the digest of its exact bytes (the key of the compiled-graph memo,
 * ADR 0380): validated and compiled once per distinct bytes.
 */
export function packState(file: SourceFile | undefined): { readonly state: PackState; readonly digest?: string } {
  if (file === undefined || !file.ok)
    return { state: { kind: 'unreadable', message: file?.message ?? 'not in jpack.json' } };
  const digest = bytesDigest(file.bytes);
  let s = shared.get(digest);
  if (s === undefined) {
    s = compile(file.bytes);
    if (shared.size >= SHARED_MAX) shared.delete(shared.keys().next().value!);
    shared.set(digest, s);
  }
  return { state: s, digest };
}

function compile(bytes: Uint8Array): Exclude<PackState, { kind: 'unreadable' }> {
  const validation = validatePack(bytes, { overlapCheck: false });
  if (!validation.conformant || validation.pack === undefined) {
    // The evaluator's own answer for this pack: pack-not-conformant comes first in §8.4 whatever the inputs.
    const r = evaluateDocuments({ pack: bytes, facts: EMPTY, supportedExtensions: new Set() });
    if (r.kind === 'error') return { kind: 'error', error: r.error };
  }
  const validated = validation.pack!;
  const plain = validated.plain as {
    id: string;
    version: string;
    escalation?: { target?: { kind: HandoffTarget['kind']; name: string } };
  };
  const t = plain.escalation?.target;
  return {
    kind: 'ok',
    compiled: compilePack(validated),
    meta: {
      packId: plain.id,
      packVersion: plain.version,
      specVersion: validated.specVersion,
      target: t === undefined ? undefined : { kind: t.kind, name: t.name },
    },
  };
}
