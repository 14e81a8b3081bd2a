/**
 * The pipeline's SQS-driven functions as deployed, matched by the template's function logical ids: intake →
 * sequence → FIFO ledger queue → evaluate (docs/adr/0270-one-writer-per-log.md) → delivery queue → deliver
 * (docs/adr/0404-delivery-stage.md). One list, so no caller of the local stack leaves a stage unbound.
 */
import type { HandlerBinding } from './serve.js';

export interface PipelineModules {
  readonly sequence: string;
  readonly evaluate: string;
  readonly deliver: string;
}

/** The bindings of the three functions; `visibilityTimeoutSeconds` (tests waiting for redelivery) for every one. */
export function pipelineHandlers(modules: PipelineModules, visibilityTimeoutSeconds?: number): HandlerBinding[] {
  const v = visibilityTimeoutSeconds !== undefined ? { visibilityTimeoutSeconds } : {};
  return [
    { module: modules.sequence, functionMatch: 'SequencerSequence', ...v },
    { module: modules.evaluate, functionMatch: 'EvaluatorEvaluate', ...v },
    { module: modules.deliver, functionMatch: 'DelivererDeliver', ...v },
  ];
}
