import { validatePack, type Diagnostic, type PackValidation } from '../../core/pack/index.js';
import { EXIT, parseCommandArgs, readCommandLine, reportUsage } from '../args.js';
import { readInput, type CliIo } from '../io.js';
import { terminalLines } from '../terminal-text.js';

const USAGE = 'docket validate <pack-file|-> [--strict] [--json] [--rfc0008-quantifiers]';

/**
 * `docket validate`: document conformance (Core §3.1–§3.3; §3.3.1 overlap warnings, errors under --strict).
 * Exit 0 when conformant, 1 when not. With --json, one JSON object:
 * {"conformant", "class": "valid"|"carrier"|"structural"|"semantic", "diagnostics": [{"code", "pointer"?, "message", …}]}.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(io, 'validate', USAGE, () =>
    parseCommandArgs(
      argv,
      { strict: { type: 'boolean' }, json: { type: 'boolean' }, 'rfc0008-quantifiers': { type: 'boolean' } },
      USAGE,
      { min: 0, max: 1 },
    ),
  );
  if (!line.ok) return line.exit;
  const args = line.args;
  const file = args.positionals[0];
  if (file === undefined) return reportUsage(io, 'validate', 'missing <pack-file> (use - for stdin)', USAGE);
  const bytes = await readInput(file, io);
  const quantifiers = args.values['rfc0008-quantifiers'] === true;
  const result = validatePack(bytes, {
    strict: args.values.strict === true,
    // The explicit opt-in to RFC 0008's draft grammar and its authoring advisory (ADRs 0190, 0195).
    ...(quantifiers ? { draftFeatures: ['rfc0008-quantifiers'] as const } : {}),
  });
  const diagnostics = result.diagnostics.map(diagnosticView);
  if (args.values.json === true)
    io.stdout(`${JSON.stringify({ conformant: result.conformant, class: result.class, diagnostics })}\n`);
  else io.stdout(readable(file, result));
  return result.conformant ? EXIT.OK : EXIT.FAILED;
}

/** The contract's member order first (code, pointer, message), then every other member the validator reported
 * (severity, and the §3.3.1 members of JPS-RULES-OVERLAP), so nothing the validator knows is lost (ADR 0041). */
function diagnosticView(d: Diagnostic): Record<string, unknown> {
  const view: Record<string, unknown> = { code: d.code };
  if (d.pointer !== undefined) view.pointer = d.pointer;
  view.message = d.message;
  for (const [k, v] of Object.entries(d)) if (!(k in view)) view[k] = v;
  return view;
}

function readable(file: string, result: PackValidation): string {
  const name = file === '-' ? '<stdin>' : file;
  const ds = result.diagnostics;
  const head = result.conformant
    ? `${name}: conformant (specVersion ${result.pack?.specVersion ?? '?'}, profile ${result.pack?.profile ?? 'base'})`
    : `${name}: not conformant (fails the ${result.class} layer)`;
  const lines = ds.map(
    (d) =>
      `  ${d.severity.padEnd(7)} ${d.code}${d.pointer !== undefined ? ` at ${d.pointer === '' ? '(root)' : d.pointer}` : ''}: ${d.message}`,
  );
  const counts = `${ds.filter((d) => d.severity === 'error').length} error(s), ${ds.filter((d) => d.severity === 'warning').length} warning(s)`;
  // Pointers and messages quote the pack: terminal text.
  return terminalLines([head, ...lines, counts]);
}
