/**
 * `docket publish <pack>…` (USAGE below): validates each pack (Core §3; a non-conformant one is refused with its
 * diagnostics, exit 1) and stores its exact bytes by SHA-256 digest plus the alias `id@version` (ADR 0062, ADR 0081).
 * With --config, the project's declared tests gate it first (publish-gate.ts, ADR 0431); --graph publishes a judgment
 * graph's closed set (cli/graph/publish-graph.ts, ADR 0340).
 */
import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { EXIT, flagTable, parseCommandArgs, reportUsage, fail } from '../args.js';
import { readInput, type CliIo } from '../io.js';
import { validatePack } from '../../core/pack/index.js';
import { SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { onStack } from '../on-stack.js';
import { publishGraph } from '../graph/publish-graph.js';
import { loadErrorMessage, loadProject } from '../project/read-project.js';
import { publishGate } from './publish-gate.js';
import { terminalText } from '../terminal-text.js';

const USAGE = `docket publish <pack.json>… [--json] [stack options]\n       docket publish --config <jpack.json> [--skip-tests] <pack.json>… [--json] [stack options]\n       docket publish --config <jpack.json> --graph <graph.json> [--skip-tests] [--json] [stack options]\n${SETTINGS_HELP}`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...SETTING_FLAGS, ...flagTable(['config', 'graph'], ['json', 'skip-tests']) },
    USAGE,
    { min: 0, max: 1000 },
  );
  const graphMode = values.graph !== undefined;
  const usage = (message: string): number => reportUsage(io, 'publish', message, USAGE);
  if (graphMode && (values.config === undefined || positionals.length > 0))
    return usage('--graph goes with --config, without pack files');
  if (!graphMode && positionals.length === 0) return usage('name at least one pack file');
  if (values['skip-tests'] === true && values.config === undefined)
    return usage('--skip-tests goes with --config (without a project there is nothing declared to run)');
  const skipTests = values['skip-tests'] === true;
  if (!graphMode && values.config !== undefined) {
    const gate = await gatePacks(values.config as string, positionals, skipTests, io);
    if (gate !== undefined) return gate;
  }
  return onStack(io, 'publish', values, async (stack) => {
    let failed = false;
    if (graphMode)
      failed = !(await publishGraph(
        values.config as string,
        values.graph as string,
        stack,
        io,
        values.json === true,
        skipTests,
      ));
    for (const file of positionals) {
      const bytes = await readInput(file, io);
      const v = validatePack(bytes);
      if (!v.conformant || !v.pack) {
        failed = true;
        io.stderr(`docket publish: ${file} is not conformant (${v.class}); not published\n`);
        for (const d of v.diagnostics)
          io.stderr(
            `  ${terminalText(`${d.severity} ${d.code}${d.pointer !== undefined ? ` at ${d.pointer || '/'}` : ''}: ${d.message}`)}\n`,
          );
        if (values.json)
          io.stdout(`${JSON.stringify({ file, published: false, class: v.class, diagnostics: v.diagnostics })}\n`);
        continue;
      }
      const plain = v.pack.plain as { id: string; version: string };
      const out = await stack.registry.publish(String(plain.id), String(plain.version), bytes);
      if (!out.ok) {
        failed = true;
        io.stderr(`docket publish: ${terminalText(`${file}: ${out.code}: ${out.message}`)}\n`);
        if (values.json) io.stdout(`${JSON.stringify({ file, published: false, code: out.code })}\n`);
        continue;
      }
      for (const d of v.diagnostics) io.stderr(`  ${terminalText(`${d.severity} ${d.code}: ${d.message}`)}\n`);
      if (values.json)
        io.stdout(
          `${JSON.stringify({ file, published: true, digest: `sha256:${out.digest}`, alias: out.alias, created: out.created })}\n`,
        );
      else
        io.stdout(
          `${terminalText(`sha256:${out.digest}  ${out.alias}${out.created ? '' : '  (already published)'}`)}\n`,
        );
    }
    return failed ? EXIT.FAILED : EXIT.OK;
  });
}

/**
 * Packs published with --config: each file must be a pack the project declares, and the gate runs their matrices
 * before anything is stored. The exit status when publishing stops here, undefined when it goes on.
 */
async function gatePacks(
  configPath: string,
  files: readonly string[],
  skipTests: boolean,
  io: CliIo,
): Promise<number | undefined> {
  const load = await loadProject(configPath);
  if (!load.ok) return fail(io, 'publish', `${loadErrorMessage(load.error)}; nothing published`, EXIT.FAILED);
  const project = load.project;
  const declared = new Map<string, string>();
  for (const [name, entry] of project.config.packs) declared.set(join(project.dir, entry.path), name);
  const names: string[] = [];
  for (const file of files) {
    const real = await realpath(file).catch(() => resolve(file));
    const name = declared.get(real);
    if (name === undefined)
      return reportUsage(io, 'publish', `${file} is not a pack ${configPath} declares; nothing published`, USAGE);
    names.push(name);
  }
  const gate = await publishGate(project, { packs: names, graphs: [] }, skipTests, io);
  if (gate.ok) return undefined;
  return fail(io, 'publish', terminalText(gate.message), EXIT.FAILED);
}
