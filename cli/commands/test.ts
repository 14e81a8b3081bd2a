/**
 * `docket test --config <jpack.json> [--pack <name> | --graph <name>]` (docs/graphs.md "Testing a project"): runs the
 * project's declared expected results — every pack's `matrix` and every graph's `rows`, or one entry's by its
 * jpack.json name — as the runtime's `jpack packs test` and `jpack experimental graph test` do. Prints one JSON
 * report on stdout (per case pass/fail and its first difference) and a short summary on stderr. Exits with the
 * runtime's statuses, the graph commands' table (EXIT.GRAPH_*, core/exit-codes.ts): 0 every case passed, 1 a case failed or a matrix is
 * not one, 3 the configuration or the command line is refused, 4 a file cannot be read.
 */
import { EXIT, flagTable, parseCommandArgs, reportUsage, UsageError, fail } from '../args.js';
import { terminalText } from '../terminal-text.js';
import type { CliIo } from '../io.js';
import { allPassed, everything, runProjectTests, testReport, testSummary } from '../project/project-tests.js';
import { loadErrorMessage, loadProject } from '../project/read-project.js';

const USAGE = 'docket test --config <jpack.json> [--pack <name> | --graph <name>]';

const FLAGS = flagTable(['config', 'pack', 'graph']);

export async function run(argv: string[], io: CliIo): Promise<number> {
  let values: Record<string, unknown>;
  try {
    values = parseCommandArgs(argv, FLAGS, USAGE).values;
    if (values.config === undefined) throw new UsageError('--config is required');
    if (values.pack !== undefined && values.graph !== undefined)
      throw new UsageError('--pack and --graph name one entry: give one of them');
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message);
    throw e;
  }
  const load = await loadProject(values.config as string);
  if (!load.ok) {
    io.stderr(`docket test: ${terminalText(loadErrorMessage(load.error))}\n`);
    return load.error.kind === 'read' ? EXIT.GRAPH_IO : EXIT.GRAPH_INVOCATION;
  }
  const project = load.project;
  const pack = values.pack as string | undefined;
  const graph = values.graph as string | undefined;
  if (pack !== undefined && !project.config.packs.has(pack))
    return usage(io, `the project declares no pack ${terminalText(JSON.stringify(pack))}`);
  if (graph !== undefined && !project.config.graphs.has(graph))
    return usage(io, `the project declares no graph ${terminalText(JSON.stringify(graph))}`);
  const selection =
    pack !== undefined
      ? { packs: [pack], graphs: [] }
      : graph !== undefined
        ? { packs: [], graphs: [graph] }
        : everything(project);
  const ran = await runProjectTests(project, selection);
  if (!ran.ok) return fail(io, 'test', terminalText(`${ran.error.message} (${ran.error.code})`), EXIT.GRAPH_INVOCATION);
  io.stdout(`${JSON.stringify(testReport(ran.suites))}\n`);
  io.stderr(testSummary(ran.suites));
  if (allPassed(ran.suites)) return EXIT.OK;
  const unreadable = ran.suites.some((s) => s.error?.code === 'matrix-read');
  return unreadable ? EXIT.GRAPH_IO : EXIT.GRAPH_INVALID;
}

const usage = (io: CliIo, message: string): number => reportUsage(io, 'test', message, USAGE, EXIT.GRAPH_INVOCATION);
