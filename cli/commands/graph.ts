import { canonicalDisposition } from '../../core/evaluate/index.js';
import {
  evaluateGraph,
  graphRunJson,
  graphValidationJson,
  refusal,
  validateGraph,
  type GraphProject,
  type GraphRefusal,
  type GraphRun,
} from '../../core/graph/index.js';
import { EXIT, flagTable, parseCommandArgs, parsePositiveInteger, reportUsage, UsageError, fail } from '../args.js';
import { configRefusal, readFileOr, readProject } from '../graph/project-config.js';
import type { CliIo } from '../io.js';
import { terminalLines } from '../terminal-text.js';

const USAGE = [
  'docket graph validate --config <jpack.json> --graph <g.json>',
  '       docket graph evaluate --config <jpack.json> --graph <g.json> [--inputs <file>] [--supported-extension <x>]... [--work-budget <n>] [--human]',
].join('\n');

const FLAGS = flagTable(['config', 'graph', 'inputs', 'work-budget'], ['human'], ['supported-extension']);

/**
 * `docket graph validate|evaluate` (docs/graphs.md): prints exactly one JSON object, the output contract of
 * graph-semantics.md, and exits with the reference runtime's statuses (0 ok, 1 invalid, 2 unsupported,
 * 3 invocation, 4 io, 5 internal) rather than the other commands' (ADR 0314). The command is itself the opt-in.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h') {
    io.stdout(`usage: ${USAGE}\n`);
    return EXIT.OK;
  }
  if (sub !== 'validate' && sub !== 'evaluate')
    return usage(io, `expected "validate" or "evaluate", got ${JSON.stringify(sub ?? '')}`);
  let values: Record<string, unknown>;
  try {
    values = parseCommandArgs(rest, FLAGS, USAGE).values;
    if (values.config === undefined) throw new UsageError('--config is required');
    if (values.graph === undefined) throw new UsageError('--graph is required');
    if (sub === 'validate')
      for (const f of ['inputs', 'supported-extension', 'work-budget', 'human'])
        if (values[f] !== undefined) throw new UsageError(`--${f} applies to "graph evaluate" only`);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message);
    throw e;
  }
  try {
    return await (sub === 'validate' ? validate(values, io) : evaluate(values, io));
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message);
    return fail(io, 'graph', `internal error: ${(e as Error)?.stack ?? String(e)}`, EXIT.GRAPH_INTERNAL);
  }
}

const usage = (io: CliIo, message: string): number => reportUsage(io, 'graph', message, USAGE, EXIT.GRAPH_INVOCATION);

function print(io: CliIo, run: GraphRun): number {
  io.stdout(`${graphRunJson(run)}\n`);
  return run.status === 'refused' ? run.error.exit : EXIT.OK;
}

/** A refusal printed as the run it is (the output contract's refused object); its exit status. */
const refuse = (io: CliIo, error: GraphRefusal): number => print(io, { status: 'refused', error });

/** The config's project and the graph's exact bytes, or the refusal that prints for a file that cannot be read. */
async function readGraphFiles(
  values: Record<string, unknown>,
  evaluating: boolean,
): Promise<GraphRefusal | { readonly project: GraphProject; readonly graph: Uint8Array }> {
  const project = await readProject(values.config as string, values.graph as string);
  if (!project.ok) return project.error;
  const audit = project.loaded.config.audit;
  if (audit !== undefined && evaluating)
    // ADR 0430: the runtime would append this evaluation to audit.dir; Docket's record of an evaluation is its
    // ledger entry, so the member is refused where it would take effect rather than silently ignored.
    return configRefusal({
      code: 'config-audit',
      member: '/audit',
      message: `jpack.json /audit: Docket does not append evaluation records to ${JSON.stringify(audit.dir)}; it records evaluations in its ledger (submit the graph request to a deployment: docket submit --graph), so "graph evaluate" refuses a project that asks for an audit directory`,
    });
  const graph = await readFileOr(values.graph as string);
  if (!graph.ok)
    return refusal('load', 'JPS-GRAPH-READ', EXIT.GRAPH_IO, `cannot read ${values.graph as string}: ${graph.message}`);
  return { project: project.project, graph: graph.bytes };
}

async function validate(values: Record<string, unknown>, io: CliIo): Promise<number> {
  const read = await readGraphFiles(values, false);
  if ('code' in read) return refuse(io, read);
  const { project, graph } = read;
  const v = validateGraph(graph, project);
  io.stdout(`${graphValidationJson(v)}\n`);
  return v.exit;
}

async function evaluate(values: Record<string, unknown>, io: CliIo): Promise<number> {
  const wb = values['work-budget'] as string | undefined;
  const workBudget = wb === undefined ? undefined : parsePositiveInteger(wb, '--work-budget');
  const read = await readGraphFiles(values, true);
  if ('code' in read) return refuse(io, read);
  const { project, graph } = read;
  let inputs: Uint8Array | undefined;
  if (values.inputs !== undefined) {
    const f = await readFileOr(values.inputs as string);
    if (!f.ok)
      return refuse(
        io,
        refusal(
          'invocation',
          'JPS-GRAPH-INPUTS-READ',
          EXIT.GRAPH_IO,
          `cannot read ${values.inputs as string}: ${f.message}`,
        ),
      );
    inputs = f.bytes;
  }
  const run = evaluateGraph({
    graph,
    project,
    ...(inputs !== undefined ? { inputs } : {}),
    supportedExtensions: new Set((values['supported-extension'] as string[] | undefined) ?? []),
    ...(workBudget !== undefined ? { workBudget } : {}),
  });
  if (values.human === true) io.stderr(human(run));
  return print(io, run);
}

/** A short human-readable view on stderr beside the JSON object (--human). */
function human(run: GraphRun): string {
  // Ids, paths and messages come from the graph and its packs: terminal text.
  if (run.status === 'refused')
    return terminalLines([
      `refused (${run.error.layer}): ${run.error.code}${run.error.node === null ? '' : ` at ${run.error.node}`}: ${run.error.message}`,
    ]);
  return terminalLines([
    `${run.graphId} ${run.graphVersion}: ${run.resultNode} → ${canonicalDisposition(run.disposition)}`,
    ...run.nodes.map((n) => `  ${n.instancePath}: ${canonicalDisposition(n.disposition)}`),
    `  work ${run.work.used}/${run.work.budget}`,
  ]);
}
