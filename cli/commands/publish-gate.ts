/**
 * Publishing's gate (ADR 0431): before `docket publish --config …` stores anything, it runs the expected results the
 * project declares for what it publishes — each published pack's `matrix`, the graph's and each subgraph's `rows`
 * — and refuses on any failing case, naming it, so nothing is published. `--skip-tests` publishes without running
 * them and says so. A graph whose rows passed gets them noted in its closure record (`testedRows`), so an auditor
 * sees what the published graph was tested against. Not a command: publish.ts and cli/graph/publish-graph.ts call it.
 */
import type { TestedRows } from '../../core/graph-closure/index.js';
import { passedCount } from '../../core/project/index.js';
import type { CliIo } from '../io.js';
import { allPassed, runProjectTests, testSummary, type Selection } from '../project/project-tests.js';
import type { LoadedProject } from '../project/read-project.js';

export type Gate =
  | { readonly ok: true; readonly testedRows: ReadonlyMap<string, TestedRows> }
  | { readonly ok: false; readonly message: string };

/** The selection's suites run; ok with each graph's passed rows, or the failing cases named. */
export async function publishGate(
  project: LoadedProject,
  selection: Selection,
  skipTests: boolean,
  io: CliIo,
): Promise<Gate> {
  if (skipTests) {
    io.stderr(
      `docket publish: --skip-tests: publishing without running the project's matrices and rows (${describe(selection)}); no closure record notes tested rows\n`,
    );
    return { ok: true, testedRows: new Map() };
  }
  const ran = await runProjectTests(project, selection);
  if (!ran.ok) return { ok: false, message: `${ran.error.message} (${ran.error.code})` };
  if (!allPassed(ran.suites)) {
    io.stderr(testSummary(ran.suites));
    const failing = ran.suites.flatMap((s) =>
      s.error !== undefined
        ? [`${s.kind} ${s.name}: ${s.error.code}`]
        : s.cases.filter((c) => !c.passed).map((c) => `${s.kind} ${s.name} case ${c.id}`),
    );
    return { ok: false, message: `failing: ${failing.join(', ')}; nothing published (--skip-tests publishes anyway)` };
  }
  const testedRows = new Map<string, TestedRows>();
  for (const s of ran.suites)
    if (s.kind === 'graph' && s.digest !== undefined && s.skipped === undefined)
      testedRows.set(s.name, { digest: s.digest, cases: s.cases.length, passed: passedCount(s) });
  const cases = ran.suites.reduce((n, s) => n + s.cases.length, 0);
  if (cases > 0) io.stderr(`docket publish: ${cases} declared cases passed (${describe(selection)})\n`);
  return { ok: true, testedRows };
}

function describe(s: Selection): string {
  const names = [...s.packs.map((p) => `pack ${p}`), ...s.graphs.map((g) => `graph ${g}`)];
  return names.length === 0 ? 'nothing declared' : names.join(', ');
}
