import { readJson } from '../../core/carrier/index.js';
import {
  compilePack,
  evaluateCompiled,
  evaluateDocuments,
  type EvaluationError,
  type EvaluationResult,
} from '../../core/evaluate/index.js';
import { validatePack, type DraftFeature } from '../../core/pack/index.js';
import { EXIT, parseCommandArgs, parsePositiveInteger, readCommandLine, UsageError } from '../args.js';
import { readInput, type CliIo } from '../io.js';

const USAGE = [
  'docket evaluate --pack <file> --facts <file> [--evidence <file>] [--extension <name>]... [--work-budget <n>] [--trace] [--rfc0008-quantifiers]',
  '       docket evaluate --pack <file> --batch <file.jsonl|-> [--extension <name>]... [--work-budget <n>] [--rfc0008-quantifiers]',
  '       (any one input may be "-" for standard input)',
].join('\n');

const FLAGS = {
  pack: { type: 'string' },
  facts: { type: 'string' },
  evidence: { type: 'string' },
  batch: { type: 'string' },
  extension: { type: 'string', multiple: true },
  'work-budget': { type: 'string' },
  trace: { type: 'boolean' },
  'rfc0008-quantifiers': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * `docket evaluate`: Core §8 over exact input bytes. Prints exactly one line of JSON per evaluation:
 *   {"disposition": <RFC 8785 canonical bytes, spliced in verbatim>, "work": n[, "trace": …]}   exit 0
 *   {"error": {"class", "phase", "code", "message"}, "work": n}                                  exit 2
 * With --batch, one such line per input line, in order (docs/adr/0042-batch-evaluation-lines.md).
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(io, 'evaluate', USAGE, () => options(argv));
  if (!line.ok) return line.exit;
  const opts = line.args;
  const pack = await readInput(opts.pack, io);
  if (opts.mode === 'batch') return runBatch(pack, await readInput(opts.batch, io), opts, io);
  const facts = await readInput(opts.facts, io);
  const evidence = opts.evidence === undefined ? undefined : await readInput(opts.evidence, io);
  const result = evaluateDocuments({
    pack,
    facts,
    ...(evidence !== undefined ? { evidence } : {}),
    supportedExtensions: opts.extensions,
    ...(opts.workBudget !== undefined ? { workBudget: opts.workBudget } : {}),
    trace: opts.trace,
    draftFeatures: opts.draftFeatures,
  });
  io.stdout(`${resultLine(result, opts.trace)}\n`);
  return result.kind === 'disposition' ? EXIT.OK : EXIT.EVALUATION_ERROR;
}

type Options =
  | 'help'
  | {
      readonly mode: 'single';
      readonly pack: string;
      readonly facts: string;
      readonly evidence: string | undefined;
      readonly extensions: ReadonlySet<string>;
      readonly workBudget: number | undefined;
      readonly trace: boolean;
      readonly draftFeatures: readonly DraftFeature[];
    }
  | {
      readonly mode: 'batch';
      readonly pack: string;
      readonly batch: string;
      readonly extensions: ReadonlySet<string>;
      readonly workBudget: number | undefined;
      readonly trace: false;
      readonly draftFeatures: readonly DraftFeature[];
    };

function options(argv: string[]): Options {
  const { values } = parseCommandArgs(argv, FLAGS, { min: 0, max: 0 });
  if (values.help === true) return 'help';
  const str = (k: string): string | undefined => values[k] as string | undefined;
  const pack = str('pack');
  const facts = str('facts');
  const batch = str('batch');
  const evidence = str('evidence');
  if (pack === undefined) throw new UsageError('--pack is required');
  if (facts === undefined && batch === undefined) throw new UsageError('one of --facts or --batch is required');
  if (facts !== undefined && batch !== undefined) throw new UsageError('--facts and --batch cannot be combined');
  if (batch !== undefined && evidence !== undefined)
    throw new UsageError('--evidence cannot be combined with --batch (each line carries its own "evidence")');
  if (batch !== undefined && values.trace === true) throw new UsageError('--trace cannot be combined with --batch');
  const stdinUsers = [pack, facts, evidence, batch].filter((x) => x === '-').length;
  if (stdinUsers > 1) throw new UsageError('only one input may be "-" (standard input)');
  const wb = str('work-budget');
  const workBudget = wb === undefined ? undefined : parsePositiveInteger(wb, '--work-budget');
  const extensions = new Set((values.extension as string[] | undefined) ?? []);
  // The explicit opt-in to RFC 0008's draft grammar (docs/adr/0190-draft-feature-opt-in.md).
  const draftFeatures: readonly DraftFeature[] = values['rfc0008-quantifiers'] === true ? ['rfc0008-quantifiers'] : [];
  if (batch !== undefined) return { mode: 'batch', pack, batch, extensions, workBudget, trace: false, draftFeatures };
  return {
    mode: 'single',
    pack,
    facts: facts as string,
    evidence,
    extensions,
    workBudget,
    trace: values.trace === true,
    draftFeatures,
  };
}

/** One result line. The disposition's canonical string is spliced in as it is: re-serializing it could change
 * bytes that §8.3 makes comparable. */
export function resultLine(result: EvaluationResult, withTrace = false): string {
  if (result.kind === 'disposition') {
    const trace = withTrace && result.trace !== undefined ? `,"trace":${JSON.stringify(result.trace)}` : '';
    return `{"disposition":${result.bytes},"work":${result.work}${trace}}`;
  }
  return errorLine(result.error, result.work);
}

function errorLine(error: EvaluationError, work: number): string {
  const { class: cls, phase, code, message } = error;
  return `{"error":${JSON.stringify({ class: cls, phase, code, message })},"work":${work}}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Batch mode (docs/adr/0042-batch-evaluation-lines.md)

function runBatch(
  pack: Uint8Array,
  input: Uint8Array,
  opts: Extract<Options, { mode: 'batch' }>,
  io: CliIo,
): Promise<number> {
  const lines = splitLines(input);
  const out: string[] = [];
  let errors = 0;
  const flush = (): void => {
    if (out.length > 0) io.stdout(`${out.join('\n')}\n`);
    out.length = 0;
  };
  const emit = (line: string, isError: boolean): void => {
    out.push(line);
    if (isError) errors++;
    if (out.length >= 512) flush();
  };
  const validation = validatePack(pack, { draftFeatures: opts.draftFeatures });
  if (!validation.conformant || validation.pack === undefined) {
    // §8.4 precedence: pack-not-conformant comes first, whatever each line holds. The error is computed once,
    // through the evaluator, so it is the same error a single evaluation reports.
    const packError = evaluateDocuments({
      pack,
      facts: encoder.encode('{}'),
      supportedExtensions: opts.extensions,
      draftFeatures: opts.draftFeatures,
    });
    const line = resultLine(packError);
    for (let i = 0; i < lines.length; i++) emit(line, true);
    flush();
    return Promise.resolve(lines.length === 0 ? EXIT.OK : EXIT.EVALUATION_ERROR);
  }
  const compiled = compilePack(validation.pack); // compiled once for every line
  for (const line of lines) {
    const request = readBatchRequest(line);
    if ('error' in request) {
      emit(errorLine(request.error, 0), true);
      continue;
    }
    const workBudget = request.workBudget ?? opts.workBudget;
    const result = evaluateCompiled(compiled, {
      facts: request.facts,
      ...(request.evidence !== undefined ? { evidence: request.evidence } : {}),
      supportedExtensions: opts.extensions,
      ...(workBudget !== undefined ? { workBudget } : {}),
    });
    emit(resultLine(result), result.kind === 'error');
  }
  flush();
  return Promise.resolve(errors === 0 ? EXIT.OK : EXIT.EVALUATION_ERROR);
}

/** Splits on LF. A final LF ends the last line rather than starting an empty one; every other line, blank ones
 * included, is a request and gets a result line. */
export function splitLines(input: Uint8Array): Uint8Array[] {
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

export interface BatchRequest {
  readonly facts: Uint8Array;
  readonly evidence?: Uint8Array;
  readonly workBudget?: number;
}

const batchError = (code: string, message: string): { error: EvaluationError } => ({
  error: { class: 'malformed-input', phase: 'preflight', code, message },
});

/**
 * Reads one batch line strictly (the §2.1 carrier: duplicates, lone surrogates, invalid UTF-8 are refused) and
 * returns the exact source bytes of its "facts" and "evidence" members, so numbers keep their lexemes and the
 * RFC 0008 V charge is the one the same document would carry as a file.
 */
export function readBatchRequest(line: Uint8Array): BatchRequest | { error: EvaluationError } {
  // Lone surrogate escapes are left to the evaluator, which reads the facts and evidence slices under the pack's own
  // carrier (ADR 0030: admitted for a 0.2.0-draft pack, malformed-input for 0.3.0), exactly as in single mode.
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
  i++; // opening quote
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

/** [start, end) byte spans of the root object's member values, by decoded member name. Only called on a line the
 * strict carrier has already accepted, so the scan can trust the grammar. */
export function topLevelMemberSpans(b: Uint8Array): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  let i = skipWs(b, 0) + 1; // '{'
  for (;;) {
    i = skipWs(b, i);
    if (b[i] !== 0x22) return spans; // '}' of an empty object
    const nameEnd = skipString(b, i);
    const name = JSON.parse(decoder.decode(b.subarray(i, nameEnd))) as string;
    i = skipWs(b, nameEnd) + 1; // ':'
    const start = skipWs(b, i);
    const end = skipValue(b, start);
    spans.set(name, [start, end]);
    i = skipWs(b, end);
    if (b[i] !== 0x2c) return spans; // '}'
    i++;
  }
}
