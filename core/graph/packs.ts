/**
 * The packs of a run, each validated and compiled once by the existing evaluator (core/evaluate) the first time a
 * node needs it — nothing reads a pack before the engine does (A3) — so a pack defect is the engine's
 * pack-not-conformant on the first node that uses it, with the very error a single evaluation reports.
 */
import {
  compilePack,
  evaluateDocuments,
  type CompiledPack,
  type EvaluationError,
  type HandoffTarget,
} from '../evaluate/index.js';
import { validatePack } from '../pack/index.js';
import type { GraphProject } from './project.js';

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

export class PackCache {
  private readonly states = new Map<string, PackState>();
  constructor(
    private readonly project: GraphProject,
    private readonly supportedExtensions: ReadonlySet<string>,
  ) {}

  get(pack: string): PackState {
    let s = this.states.get(pack);
    if (s === undefined) this.states.set(pack, (s = this.load(pack)));
    return s;
  }

  private load(pack: string): PackState {
    const file = this.project.packs.get(pack);
    if (file === undefined || !file.ok) return { kind: 'unreadable', message: file?.message ?? 'not in jpack.json' };
    const validation = validatePack(file.bytes, { overlapCheck: false });
    if (!validation.conformant || validation.pack === undefined) {
      // The evaluator's own answer for this pack: pack-not-conformant comes first in §8.4 whatever the inputs.
      const r = evaluateDocuments({ pack: file.bytes, facts: EMPTY, supportedExtensions: this.supportedExtensions });
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
}
