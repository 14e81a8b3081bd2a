/**
 * Evaluates one batch line against a compiled pack (docs/adr/0200-streamed-batch-evaluation.md).
 * The line is read once with the strict carrier and its facts and evidence trees go straight to the evaluator
 * (evaluateParsed): the same trees the evaluator would read from the exact slices, so the same disposition and
 * work. Only a line with a lone surrogate escape takes the slice path, because whether that is admitted depends
 * on the pack's own carrier (ADR 0030) and where it is reported depends on which document holds it.
 */
// From core/carrier, not core/admission: admission's index loads the ledger and graphs, ~100 modules a batch of
// evaluations never uses (docs/adr/0332-cli-start-up.md).
import {
  DEFAULT_CARRIER_LIMITS,
  documentTooLarge,
  readJson,
  topLevelMemberSpans,
  type CarrierError,
} from '../../core/carrier/index.js';
import {
  evaluateCompiled,
  evaluateParsed,
  type CompiledPack,
  type EvaluationError,
  type EvaluationResult,
} from '../../core/evaluate/index.js';
import { checkBatchMembers, notJson } from './batch-request.js';
import type { SplitLine } from './line-splitter.js';

/** A batch line is one document: it is read within the default carrier limits, the document-bytes limit first. */
export const MAX_LINE_BYTES = DEFAULT_CARRIER_LIMITS.documentBytes;

export interface BatchSettings {
  readonly supportedExtensions: ReadonlySet<string>;
  /** --work-budget; a line's own "workBudget" overrides it. */
  readonly workBudget: number | undefined;
}

/** A line that is not a request is refused before evaluation: work 0 (ADR 0200). */
const refused = (error: EvaluationError): EvaluationResult => ({ kind: 'error', error, work: 0 });
const carrierRefusal = (e: CarrierError): EvaluationResult => refused(notJson(e.code, e.message).error);

export function evaluateLine(c: CompiledPack, line: SplitLine, settings: BatchSettings): EvaluationResult {
  if (line.kind === 'oversize') return carrierRefusal(documentTooLarge(line.length, MAX_LINE_BYTES));
  let parsed = readJson(line.bytes);
  // A line holding a lone surrogate escape is read permissively, then its facts and evidence slices are evaluated as
  // bytes under the pack's carrier, exactly as the same documents given as files.
  const asSlices = !parsed.ok && parsed.error.code === 'lone-surrogate';
  if (asSlices) parsed = readJson(line.bytes, { allowLoneSurrogates: true });
  if (!parsed.ok) return carrierRefusal(parsed.error);
  const members = checkBatchMembers(parsed.value);
  if ('error' in members) return refused(members.error);
  const workBudget = members.workBudget ?? settings.workBudget;
  const options = {
    supportedExtensions: settings.supportedExtensions,
    ...(workBudget !== undefined ? { workBudget } : {}),
  };
  if (!asSlices)
    return evaluateParsed(c, {
      facts: members.facts,
      ...(members.evidence !== undefined ? { evidence: members.evidence } : {}),
      ...options,
    });
  const spans = topLevelMemberSpans(line.bytes);
  const facts = spans.get('facts')!; // checkBatchMembers found it
  const evidence = spans.get('evidence');
  return evaluateCompiled(c, {
    facts: line.bytes.subarray(facts.start, facts.end),
    ...(evidence !== undefined ? { evidence: line.bytes.subarray(evidence.start, evidence.end) } : {}),
    ...options,
  });
}
