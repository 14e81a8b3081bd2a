/**
 * Running a project's expected results (`docket test`, and publishing's gate): every pack's `matrix` and every
 * graph's `rows` the selection names, each declared file read through the project reader's containment rule, each
 * case run by core/project. An entry that declares no matrix or rows is skipped and the report says so, as the
 * runtime's test walk does. Test runs record nothing (the schema's `audit`: a run of a matrix is no decision).
 */
import type { SourceFile } from '../../core/graph/index.js';
import {
  passedCount,
  runGraphRows,
  runPackMatrix,
  suitePassed,
  type ConfigError,
  type SuiteReport,
} from '../../core/project/index.js';
import { graphProjectOf } from '../graph/project-config.js';
import { isConfigError, readDeclared, type LoadedProject } from './read-project.js';
import { terminalText } from '../terminal-text.js';

export interface Selection {
  readonly packs: readonly string[];
  readonly graphs: readonly string[];
}

/** A suite as reported: its cases, or why it did not run (skipped: nothing declared; error: declared but unusable). */
export type SuiteResult = SuiteReport & { readonly skipped?: string };

export type TestsRun =
  { readonly ok: true; readonly suites: readonly SuiteResult[] } | { readonly ok: false; readonly error: ConfigError };

export const everything = (p: LoadedProject): Selection => ({
  packs: [...p.config.packs.keys()],
  graphs: [...p.config.graphs.keys()],
});

const unreadable = (kind: 'pack' | 'graph', name: string, file: string, what: string, f: SourceFile): SuiteResult => ({
  kind,
  name,
  file,
  cases: [],
  error: { code: 'matrix-read', message: `cannot read ${what} ${file}: ${f.ok ? '' : f.message}` },
});

export async function runProjectTests(p: LoadedProject, selection: Selection): Promise<TestsRun> {
  const suites: SuiteResult[] = [];
  for (const name of selection.packs) {
    const entry = p.config.packs.get(name)!;
    if (entry.matrix === undefined) {
      suites.push({ kind: 'pack', name, file: entry.path, cases: [], skipped: 'the pack declares no matrix' });
      continue;
    }
    const m = await readDeclared(p.dir, `/packs/${name}/matrix`, entry.matrix);
    if (isConfigError(m)) return { ok: false, error: m };
    const pack = p.packs.get(name)!;
    if (!m.ok) suites.push(unreadable('pack', name, entry.matrix, 'the matrix', m));
    else if (!pack.ok) suites.push(unreadable('pack', name, entry.matrix, 'the pack of', pack));
    else suites.push(runPackMatrix(name, entry.matrix, m.bytes, pack.bytes));
  }
  for (const name of selection.graphs) {
    const entry = p.config.graphs.get(name)!;
    if (entry.rows === undefined) {
      suites.push({ kind: 'graph', name, file: entry.path, cases: [], skipped: 'the graph declares no rows' });
      continue;
    }
    const r = await readDeclared(p.dir, `/graphs/${name}/rows`, entry.rows);
    if (isConfigError(r)) return { ok: false, error: r };
    const graph = p.graphs.get(name)!;
    if (!r.ok) suites.push(unreadable('graph', name, entry.rows, 'the rows', r));
    else if (!graph.ok) suites.push(unreadable('graph', name, entry.rows, 'the graph of', graph));
    else suites.push(runGraphRows(name, entry.rows, r.bytes, graph.bytes, graphProjectOf(p, name)));
  }
  return { ok: true, suites };
}

export const allPassed = (suites: readonly SuiteResult[]): boolean =>
  suites.every((s) => s.skipped !== undefined || suitePassed(s));

/** The JSON report `docket test` prints: per suite its status and cases, each case pass/fail with its first difference. */
export function testReport(suites: readonly SuiteResult[]): Record<string, unknown> {
  const cases = suites.flatMap((s) => s.cases);
  return {
    status: allPassed(suites) ? 'passed' : 'failed',
    passed: cases.filter((c) => c.passed).length,
    failed: cases.filter((c) => !c.passed).length,
    suites: suites.map((s) => ({
      kind: s.kind,
      name: s.name,
      file: s.file,
      status:
        s.skipped !== undefined ? 'skipped' : s.error !== undefined ? 'error' : suitePassed(s) ? 'passed' : 'failed',
      ...(s.digest !== undefined ? { digest: s.digest } : {}),
      ...(s.skipped !== undefined ? { reason: s.skipped } : {}),
      ...(s.error !== undefined ? { error: s.error } : {}),
      cases: s.cases,
    })),
  };
}

/** A short human summary: one line per suite, one per failing case with its first difference. */
export function testSummary(suites: readonly SuiteResult[]): string {
  const lines: string[] = [];
  for (const s of suites) {
    const label = `${s.kind} ${s.name} (${s.file})`;
    if (s.skipped !== undefined) lines.push(`${label}: skipped, ${s.skipped}`);
    else if (s.error !== undefined) lines.push(`${label}: not run, ${s.error.code}: ${s.error.message}`);
    else lines.push(`${label}: ${passedCount(s)}/${s.cases.length} passed`);
    for (const c of s.cases)
      if (!c.passed && c.difference !== undefined)
        lines.push(
          `  FAIL ${c.id}: ${c.difference.subject}${c.difference.pointer} expected ${JSON.stringify(c.difference.expected)}, got ${JSON.stringify(c.difference.actual) ?? 'nothing'}`,
        );
  }
  const cases = suites.flatMap((s) => s.cases);
  lines.push(`${cases.filter((c) => c.passed).length}/${cases.length} cases passed`);
  // Case ids, names and values come from the project's documents: escaped for the terminal (cli/terminal-text.ts).
  return `${lines.map(terminalText).join('\n')}\n`;
}
