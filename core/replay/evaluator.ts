/**
 * The recorded evaluator against the running one (docs/adr/0100-replay-evaluator-identity.md). Name and version
 * are the evaluator's promise (core/evaluate/identity.ts: the version is bumped whenever any disposition, error or
 * work charge could change), so a different name or version is a different evaluator; a different build digest
 * under the same name and version is the same evaluator packaged differently (a Lambda bundle versus the local
 * dist/ tree), replayed and marked.
 */
import type { EvaluatorRef } from '../ledger/entries/entry-types.js';
import type { EvaluatorComparison } from './types.js';

export function compareEvaluator(recorded: EvaluatorRef, running: EvaluatorRef): EvaluatorComparison {
  if (recorded.name !== running.name || recorded.version !== running.version) return 'identity-differs';
  return recorded.buildDigest === running.buildDigest ? 'same' : 'build-differs';
}
