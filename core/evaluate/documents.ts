import { validatePack, type DraftFeature } from '../pack/index.js';
import { compilePack } from './compile.js';
import { evaluateCompiled, failure } from './evaluate.js';
import type { EvaluationInput, EvaluationResult } from './types.js';

/**
 * Full §8.2 preflight from bytes: pack → facts → evidence → required extensions, then §8. `draftFeatures` is the
 * evaluator's explicit opt-in to draft grammar (ADR 0190); without it a pack using that grammar is not conformant.
 */
export function evaluateDocuments(
  input: EvaluationInput & { readonly pack: Uint8Array; readonly draftFeatures?: readonly DraftFeature[] },
): EvaluationResult {
  // The §3.3.1 overlap lint never changes a non-strict verdict, so the evaluator's preflight skips it.
  const validation = validatePack(input.pack, {
    overlapCheck: false,
    ...(input.draftFeatures !== undefined ? { draftFeatures: input.draftFeatures } : {}),
  });
  if (!validation.conformant || validation.pack === undefined) {
    const first = validation.diagnostics.find((d) => d.severity === 'error');
    return failure(
      {
        class: 'pack-not-conformant',
        phase: 'preflight',
        code: `pack-${validation.class === 'valid' ? 'semantic' : validation.class}`,
        message:
          `the pack is not a semantically conforming document (§3.3), failing at the ${validation.class} layer` +
          (first === undefined ? '' : `: ${first.code}: ${first.message}`),
      },
      0,
    );
  }
  return evaluateCompiled(compilePack(validation.pack), input);
}
