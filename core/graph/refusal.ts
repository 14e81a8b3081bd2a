import type { EvaluationErrorClass } from '../evaluate/index.js';
import type { RefusalCode, RefusalLayer, DiagnosticCode } from './codes.js';
import type { GraphExit } from '../exit-codes.js';

/**
 * A refused run (graph-semantics.md "Output contract"): its layer and code, the first structural diagnostic, the
 * §8.4 class and phase and the node for a node refusal (null otherwise), a message for people, and the exit status.
 * A refused run carries no disposition of any kind.
 */
export interface GraphRefusal {
  readonly layer: RefusalLayer;
  readonly code: RefusalCode;
  readonly diagnostic: DiagnosticCode | null;
  readonly class: EvaluationErrorClass | null;
  readonly phase: 'preflight' | 'evaluation' | null;
  readonly node: string | null;
  readonly message: string;
  readonly exit: GraphExit;
}

export const refusal = (
  layer: RefusalLayer,
  code: RefusalCode,
  exit: GraphExit,
  message: string,
  more: Partial<Pick<GraphRefusal, 'diagnostic' | 'class' | 'phase' | 'node'>> = {},
): GraphRefusal => ({
  layer,
  code,
  diagnostic: more.diagnostic ?? null,
  class: more.class ?? null,
  phase: more.phase ?? null,
  node: more.node ?? null,
  message,
  exit,
});
