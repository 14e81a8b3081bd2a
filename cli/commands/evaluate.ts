import { evaluateDocuments } from '../../core/evaluate/index.js';
import type { DraftFeature } from '../../core/pack/index.js';
import { EXIT, flagTable, parseCommandArgs, parsePositiveInteger, readCommandLine, UsageError } from '../args.js';
import { resultLine } from '../batch/result-line.js';
import type { BatchOptions } from '../batch/run-batch.js';
import { readInput, type CliIo } from '../io.js';

const USAGE = [
  'docket evaluate --pack <file> --facts <file> [--evidence <file>] [--extension <name>]... [--work-budget <n>] [--trace] [--rfc0008-quantifiers]',
  '       docket evaluate --pack <file> --batch <file.jsonl|-> [--extension <name>]... [--work-budget <n>] [--rfc0008-quantifiers]',
  '       (any one input may be "-" for standard input)',
].join('\n');

const FLAGS = flagTable(
  ['pack', 'facts', 'evidence', 'batch', 'work-budget'],
  ['trace', 'rfc0008-quantifiers'],
  ['extension'],
);

/**
 * `docket evaluate`: Core §8 over exact input bytes. Prints exactly one line of JSON per evaluation:
 *   {"disposition": <RFC 8785 canonical bytes, spliced in verbatim>, "work": n[, "trace": …]}   exit 0
 *   {"error": {"class", "phase", "code", "message"}, "work": n}                                  exit 2
 * With --batch, one such line per input line, in order (docs/adr/0200-streamed-batch-evaluation.md).
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(io, 'evaluate', USAGE, () => options(argv));
  if (!line.ok) return line.exit;
  const opts = line.args;
  const pack = await readInput(opts.pack, io);
  // The batch loop loads only in batch mode (docs/adr/0332-cli-start-up.md).
  if (opts.mode === 'batch') return (await import('../batch/run-batch.js')).runBatch(pack, opts, io);
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

/** What `runBatch` takes, with the pack and the mode; a single evaluation adds its documents and --trace. */
type Options =
  | (Omit<BatchOptions, 'batch'> & {
      readonly mode: 'single';
      readonly pack: string;
      readonly facts: string;
      readonly evidence: string | undefined;
      readonly trace: boolean;
    })
  | (BatchOptions & { readonly mode: 'batch'; readonly pack: string; readonly trace: false });

function options(argv: string[]): Options {
  const { values } = parseCommandArgs(argv, FLAGS, USAGE);
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
