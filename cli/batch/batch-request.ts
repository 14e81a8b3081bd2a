/**
 * One batch line as a request (docs/adr/0200-streamed-batch-evaluation.md): a strict JSON object
 * {"facts": …, "evidence"?: …, "workBudget"?: n}. A line that is not one gets a malformed-input error with a
 * `batch-line-*` code, checked in this order: strict JSON, object, known members, facts present, workBudget.
 */
import type { JsonObject, JsonValue } from '../../core/carrier/index.js';
import type { EvaluationError } from '../../core/evaluate/index.js';

export const batchError = (code: string, message: string): { error: EvaluationError } => ({
  error: { class: 'malformed-input', phase: 'preflight', code, message },
});

/** The batch-line-not-json error for a carrier refusal of the line. */
export const notJson = (code: string, message: string): { error: EvaluationError } =>
  batchError('batch-line-not-json', `batch line is not a strict JSON text (${code}): ${message}`);

/** The parsed line's members, checked (everything after "is strict JSON"). */
export interface BatchMembers {
  readonly facts: JsonValue;
  readonly evidence?: JsonValue;
  readonly workBudget?: number;
}

export function checkBatchMembers(root: JsonValue): BatchMembers | { error: EvaluationError } {
  if (root.kind !== 'object')
    return batchError(
      'batch-line-not-object',
      'batch line must be a JSON object {"facts": …, "evidence"?: {…}, "workBudget"?: n}',
    );
  for (const name of root.members.keys()) {
    if (name !== 'facts' && name !== 'evidence' && name !== 'workBudget')
      return batchError('batch-line-unknown-member', `batch line has an unknown member ${JSON.stringify(name)}`);
  }
  const facts = root.members.get('facts');
  if (facts === undefined) return batchError('batch-line-missing-facts', 'batch line has no "facts" member');
  const workBudget = readWorkBudget(root);
  if (workBudget === null)
    return batchError(
      'batch-line-work-budget',
      '"workBudget" must be a positive integer written without sign, fraction or exponent',
    );
  const evidence = root.members.get('evidence');
  return {
    facts,
    ...(evidence !== undefined ? { evidence } : {}),
    ...(workBudget !== undefined ? { workBudget } : {}),
  };
}

/** undefined when absent, null when present but not a positive safe integer written as plain digits. */
function readWorkBudget(root: JsonObject): number | undefined | null {
  const wb = root.members.get('workBudget');
  if (wb === undefined) return undefined;
  const n = wb.kind === 'number' && /^[1-9][0-9]*$/.test(wb.lexeme) ? Number(wb.lexeme) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}
