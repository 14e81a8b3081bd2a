import type { EvaluationError, EvaluationResult } from '../../core/evaluate/index.js';

/**
 * One result line of `docket evaluate` (single and batch). The disposition's canonical string is spliced in as it
 * is: re-serializing it could change bytes that §8.3 makes comparable.
 */
export function resultLine(result: EvaluationResult, withTrace = false): string {
  if (result.kind === 'disposition') {
    const trace = withTrace && result.trace !== undefined ? `,"trace":${JSON.stringify(result.trace)}` : '';
    return `{"disposition":${result.bytes},"work":${result.work}${trace}}`;
  }
  return errorLine(result.error, result.work);
}

export function errorLine(error: EvaluationError, work: number): string {
  const { class: cls, phase, code, message } = error;
  return `{"error":${JSON.stringify({ class: cls, phase, code, message })},"work":${work}}`;
}
