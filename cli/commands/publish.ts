/**
 * `docket publish --config <jpack.json> --graph <g.json>` publishes a judgment graph's closed set and then the graph
 * (cli/graph/publish-graph.ts, ADR 0340).
 * `docket publish <pack>…`: validates each pack (Core §3; a non-conformant pack is refused with its diagnostics,
 * exit 1) and stores its exact bytes by SHA-256 digest plus the alias `id@version` → digest (ADR 0062, ADR 0081).
 * Prints one line per pack: "sha256:<digest>  <id>@<version>".
 */
import { EXIT, parseCommandArgs } from '../args.js';
import { readInput, type CliIo } from '../io.js';
import { validatePack } from '../../core/pack/index.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { explainStackError, openStack } from '../../stack/clients.js';
import { publishGraph } from '../graph/publish-graph.js';
import { terminalText } from '../terminal-text.js';

const USAGE = `docket publish <pack.json>… [--json] [stack options]\n       docket publish --config <jpack.json> --graph <graph.json> [--json] [stack options]\n${SETTINGS_HELP}`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...SETTING_FLAGS,
      json: { type: 'boolean' },
      help: { type: 'boolean' },
      config: { type: 'string' },
      graph: { type: 'string' },
    },
    { min: 0, max: 1000 },
  );
  if (values.help) {
    io.stdout(`usage: ${USAGE}\n`);
    return EXIT.OK;
  }
  const graphMode = values.config !== undefined || values.graph !== undefined;
  if (graphMode && (values.config === undefined || values.graph === undefined || positionals.length > 0)) {
    io.stderr(`docket publish: --config and --graph go together, without pack files\nusage: ${USAGE}\n`);
    return EXIT.USAGE;
  }
  if (!graphMode && positionals.length === 0) {
    io.stderr(`docket publish: name at least one pack file\nusage: ${USAGE}\n`);
    return EXIT.USAGE;
  }
  const settings = resolveSettings(values as never, process.env);
  const stack = openStack(settings);
  let failed = false;
  try {
    if (graphMode)
      failed = !(await publishGraph(values.config as string, values.graph as string, stack, io, values.json === true));
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
  } catch (e) {
    io.stderr(`docket publish: ${explainStackError(e, settings)}\n`);
    return EXIT.FAILED;
  } finally {
    stack.close();
  }
  return failed ? EXIT.FAILED : EXIT.OK;
}
