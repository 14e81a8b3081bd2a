/**
 * `docket evaluate --batch`: streamed, one result line per input line (docs/adr/0200-streamed-batch-evaluation.md).
 * Its own module so that a single evaluation never loads the batch loop and its line reader
 * (cli/commands/evaluate.ts imports it only in batch mode; docs/adr/0332-cli-start-up.md).
 */
import { compilePack, evaluateDocuments, type EvaluationResult } from '../../core/evaluate/index.js';
import { validatePack, type DraftFeature } from '../../core/pack/index.js';
import { EXIT } from '../args.js';
import { openInputChunks, type CliIo } from '../io.js';
import { evaluateLine } from './line-evaluator.js';
import type { SplitLine } from './line-splitter.js';
import { streamBatch } from './stream-batch.js';

export interface BatchOptions {
  /** The batch file, or "-" for standard input. */
  readonly batch: string;
  readonly extensions: ReadonlySet<string>;
  readonly workBudget: number | undefined;
  readonly draftFeatures: readonly DraftFeature[];
}

const encoder = new TextEncoder();

export async function runBatch(pack: Uint8Array, opts: BatchOptions, io: CliIo): Promise<number> {
  const chunks = await openInputChunks(opts.batch, io);
  const sink = { write: (text: string) => io.stdout(text), drained: () => io.stdoutDrained?.() };
  const validation = validatePack(pack, { draftFeatures: opts.draftFeatures });
  let answer: (line: SplitLine) => EvaluationResult;
  if (!validation.conformant || validation.pack === undefined) {
    // §8.4 precedence: pack-not-conformant comes first, whatever each line holds. The error is computed once,
    // through the evaluator, so it is the same error a single evaluation reports.
    const packError = evaluateDocuments({
      pack,
      facts: encoder.encode('{}'),
      supportedExtensions: opts.extensions,
      draftFeatures: opts.draftFeatures,
    });
    answer = () => packError;
  } else {
    const compiled = compilePack(validation.pack); // compiled once for every line
    const settings = { supportedExtensions: opts.extensions, workBudget: opts.workBudget };
    answer = (line) => evaluateLine(compiled, line, settings);
  }
  const { errors } = await streamBatch(chunks, sink, answer);
  return errors === 0 ? EXIT.OK : EXIT.EVALUATION_ERROR;
}
