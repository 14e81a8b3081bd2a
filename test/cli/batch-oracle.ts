/**
 * The batch evaluation as it was before streaming (whole input in memory, every line read twice: once whole, then
 * its facts and evidence slices as bytes), kept verbatim as the oracle the streamed batch must match byte for byte
 * (ADR 0200). Test code only.
 */
import { resultLine } from '../../cli/batch/result-line.js';
import { readJson } from '../../core/carrier/index.js';
import { compilePack, evaluateCompiled, evaluateDocuments, type EvaluationError } from '../../core/evaluate/index.js';
import { validatePack } from '../../core/pack/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export interface OracleOptions {
  readonly extensions: ReadonlySet<string>;
  readonly workBudget: number | undefined;
}

/** The old runBatch: returns the whole stdout and the exit code (0, or 2 when a line is an error). */
export function oracleBatch(pack: Uint8Array, input: Uint8Array, opts: OracleOptions): { out: string; code: number } {
  const lines = splitLines(input);
  const out: string[] = [];
  let errors = 0;
  const validation = validatePack(pack);
  if (!validation.conformant || validation.pack === undefined) {
    const packError = evaluateDocuments({ pack, facts: encoder.encode('{}'), supportedExtensions: opts.extensions });
    const line = resultLine(packError);
    for (let i = 0; i < lines.length; i++) out.push(line);
    return { out: out.map((l) => `${l}\n`).join(''), code: lines.length === 0 ? 0 : 2 };
  }
  const compiled = compilePack(validation.pack);
  for (const line of lines) {
    const request = readBatchRequest(line);
    if ('error' in request) {
      out.push(errorLine(request.error, 0));
      errors++;
      continue;
    }
    const workBudget = request.workBudget ?? opts.workBudget;
    const result = evaluateCompiled(compiled, {
      facts: request.facts,
      ...(request.evidence !== undefined ? { evidence: request.evidence } : {}),
      supportedExtensions: opts.extensions,
      ...(workBudget !== undefined ? { workBudget } : {}),
    });
    out.push(resultLine(result));
    if (result.kind === 'error') errors++;
  }
  return { out: out.map((l) => `${l}\n`).join(''), code: errors === 0 ? 0 : 2 };
}

function errorLine(error: EvaluationError, work: number): string {
  const { class: cls, phase, code, message } = error;
  return `{"error":${JSON.stringify({ class: cls, phase, code, message })},"work":${work}}`;
}

function splitLines(input: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    if (input[i] === 0x0a) {
      lines.push(input.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < input.length) lines.push(input.subarray(start));
  return lines;
}

interface BatchRequest {
  readonly facts: Uint8Array;
  readonly evidence?: Uint8Array;
  readonly workBudget?: number;
}

const batchError = (code: string, message: string): { error: EvaluationError } => ({
  error: { class: 'malformed-input', phase: 'preflight', code, message },
});

function readBatchRequest(line: Uint8Array): BatchRequest | { error: EvaluationError } {
  const parsed = readJson(line, { allowLoneSurrogates: true });
  if (!parsed.ok)
    return batchError(
      'batch-line-not-json',
      `batch line is not a strict JSON text (${parsed.error.code}): ${parsed.error.message}`,
    );
  const root = parsed.value;
  if (root.kind !== 'object')
    return batchError(
      'batch-line-not-object',
      'batch line must be a JSON object {"facts": …, "evidence"?: {…}, "workBudget"?: n}',
    );
  for (const name of root.members.keys()) {
    if (name !== 'facts' && name !== 'evidence' && name !== 'workBudget')
      return batchError('batch-line-unknown-member', `batch line has an unknown member ${JSON.stringify(name)}`);
  }
  if (!root.members.has('facts')) return batchError('batch-line-missing-facts', 'batch line has no "facts" member');
  let workBudget: number | undefined;
  const wb = root.members.get('workBudget');
  if (wb !== undefined) {
    const n = wb.kind === 'number' && /^[1-9][0-9]*$/.test(wb.lexeme) ? Number(wb.lexeme) : NaN;
    if (!Number.isSafeInteger(n))
      return batchError(
        'batch-line-work-budget',
        '"workBudget" must be a positive integer written without sign, fraction or exponent',
      );
    workBudget = n;
  }
  const spans = topLevelMemberSpans(line);
  const facts = spans.get('facts');
  const evidence = spans.get('evidence');
  if (facts === undefined) return batchError('batch-line-missing-facts', 'batch line has no "facts" member');
  return {
    facts: line.subarray(facts[0], facts[1]),
    ...(evidence !== undefined ? { evidence: line.subarray(evidence[0], evidence[1]) } : {}),
    ...(workBudget !== undefined ? { workBudget } : {}),
  };
}

const isWs = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function skipWs(b: Uint8Array, i: number): number {
  while (i < b.length && isWs(b[i])) i++;
  return i;
}

function skipString(b: Uint8Array, i: number): number {
  i++;
  while (i < b.length && b[i] !== 0x22) i += b[i] === 0x5c ? 2 : 1;
  return i + 1;
}

function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 0x22) return skipString(b, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    while (i < b.length) {
      const d = b[i];
      if (d === 0x22) {
        i = skipString(b, i);
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < b.length && !isWs(b[i]) && b[i] !== 0x2c && b[i] !== 0x7d && b[i] !== 0x5d) i++;
  return i;
}

function topLevelMemberSpans(b: Uint8Array): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  let i = skipWs(b, 0) + 1;
  for (;;) {
    i = skipWs(b, i);
    if (b[i] !== 0x22) return spans;
    const nameEnd = skipString(b, i);
    const name = JSON.parse(decoder.decode(b.subarray(i, nameEnd))) as string;
    i = skipWs(b, nameEnd) + 1;
    const start = skipWs(b, i);
    const end = skipValue(b, start);
    spans.set(name, [start, end]);
    i = skipWs(b, end);
    if (b[i] !== 0x2c) return spans;
    i++;
  }
}
