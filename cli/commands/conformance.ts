import { runCorpus, type CaseResult, type Suite } from '../../conformance/runner.js';
import { EXIT, flagTable, parseCommandArgs, readCommandLine, UsageError } from '../args.js';
import type { CliIo } from '../io.js';

const SUITES: readonly Suite[] = ['document', 'evaluation', 'rfc0008-document', 'rfc0008-evaluation', 'graph'];

const USAGE =
  'docket conformance [--strict] [--suite document|evaluation|graph] [--only <text>] [--quiet] [--rfc0008-quantifiers]';

/**
 * `docket conformance`: runs our corpus (conformance/), prints one line per case and the totals, and ends with the
 * line "N passed, M failed" on its own. Exit 0 iff every case passed.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(io, 'conformance', USAGE, () => {
    const { values } = parseCommandArgs(
      argv,
      { ...flagTable(['suite', 'only'], ['strict', 'rfc0008-quantifiers']), quiet: { type: 'boolean', short: 'q' } },
      USAGE,
    );
    if (values.suite !== undefined && !['document', 'evaluation', 'graph'].includes(values.suite as string))
      throw new UsageError(`--suite must be document, evaluation or graph, got ${JSON.stringify(values.suite)}`);
    return values;
  });
  if (!line.ok) return line.exit;
  const values = line.args;
  const report = runCorpus({
    strict: values.strict === true,
    ...(values.suite !== undefined ? { suite: values.suite as 'document' | 'evaluation' | 'graph' } : {}),
    // The draft corpus (conformance/rfc0008/) runs only under the explicit opt-in (docs/adr/0193-draft-corpus.md).
    ...(values['rfc0008-quantifiers'] === true ? { draftFeatures: ['rfc0008-quantifiers'] as const } : {}),
    ...(values.only !== undefined ? { only: values.only as string } : {}),
  });
  const lines: string[] = [];
  for (const r of report.results) {
    if (r.passed && values.quiet === true) continue;
    lines.push(caseLine(r));
  }
  for (const suite of SUITES) {
    const rs = report.results.filter((r) => r.suite === suite);
    if (rs.length === 0) continue;
    const ok = rs.filter((r) => r.passed).length;
    lines.push(
      `${suite} suite ${report.suiteVersions[suite]}${values.strict === true && suite.endsWith('document') ? ' (strict)' : ''}: ${ok}/${rs.length} passed`,
    );
  }
  lines.push(`${report.passed} passed, ${report.failed} failed`);
  io.stdout(`${lines.join('\n')}\n`);
  return report.failed === 0 && report.results.length > 0 ? EXIT.OK : EXIT.FAILED;
}

function caseLine(r: CaseResult): string {
  if (r.passed) return `ok    ${r.suite}/${r.id}`;
  return `FAIL  ${r.suite}/${r.id}\n        ${r.description}\n        expected: ${r.expected}\n        actual:   ${r.actual}`;
}
