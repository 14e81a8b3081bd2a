/**
 * A graph's matrix (a jpack.json graph entry's `rows`), read and run by the runtime's rules
 * (../shared/reference/README.md "Graph matrix"): root `{graphMatrixVersion?, cases}`, version "1"; a case is `id`,
 * `inputs` (the graph inputs document, A2) and either `expectedDisposition` (the result node's) with optional
 * `expectedNodes` (node id or instance path → disposition; nodes not named are unchecked) or `expectedErrorClass`
 * with optional `expectedErrorPhase` (a §8.4 class of a node refusal). A refusal with no class — a graph-layer or
 * invocation refusal — matches no expectation: rows assert dispositions and §8.4 classes, never JPS-* codes.
 * Each case is one run of `evaluateGraph`, as `docket graph evaluate` (no extension supported, default budget).
 */
import { toPlain, type JsonObject } from '../carrier/index.js';
import { bytesDigest, evaluateGraph, jsonText, type GraphProject, type GraphRun } from '../graph/index.js';
import { firstDifference, type CaseOutcome, type SuiteReport } from './case-report.js';
import { caseId, closed, expectation, matrixRoot, MatrixError, object } from './matrix-document.js';

const CASE_MEMBERS = [
  'id',
  'inputs',
  'expectedDisposition',
  'expectedNodes',
  'expectedErrorClass',
  'expectedErrorPhase',
] as const;

const encoder = new TextEncoder();

function checkCase(o: JsonObject, i: number): void {
  const where = `case ${i} (${JSON.stringify(caseId(o))})`;
  closed(o, where, CASE_MEMBERS);
  object(o.members.get('inputs'), `${where}: "inputs"`);
  const kind = expectation(o, where);
  if (o.members.has('expectedNodes')) {
    if (kind !== 'disposition')
      throw new MatrixError('matrix-shape', `${where}: "expectedNodes" goes with "expectedDisposition"`);
    for (const [node, d] of object(o.members.get('expectedNodes'), `${where}: "expectedNodes"`).members)
      object(d, `${where}: "expectedNodes" ${JSON.stringify(node)}`);
  }
}

function outcome(o: JsonObject, run: GraphRun): CaseOutcome {
  const id = caseId(o);
  const expectedClass = o.members.get('expectedErrorClass');
  if (expectedClass !== undefined) {
    const expected: Record<string, unknown> = { class: toPlain(expectedClass) };
    const phase = o.members.get('expectedErrorPhase');
    if (phase !== undefined) expected.phase = toPlain(phase);
    const actual =
      run.status === 'refused'
        ? { class: run.error.class, phase: run.error.phase, code: run.error.code }
        : { disposition: run.disposition };
    const d = firstDifference('error', expected, actual);
    return d === undefined ? { id, passed: true } : { id, passed: false, difference: d };
  }
  if (run.status === 'refused')
    return {
      id,
      passed: false,
      difference: {
        subject: 'disposition',
        pointer: '',
        expected: toPlain(o.members.get('expectedDisposition')!),
        actual: { error: run.error },
      },
    };
  const d = firstDifference('disposition', toPlain(o.members.get('expectedDisposition')!), run.disposition);
  if (d !== undefined) return { id, passed: false, difference: d };
  const nodes = o.members.get('expectedNodes');
  if (nodes?.kind === 'object')
    for (const [node, expected] of nodes.members) {
      const leaf = run.nodes.find((n) => n.instancePath === node);
      const nd = firstDifference(`nodes/${node}`, toPlain(expected), leaf?.disposition);
      if (nd !== undefined) return { id, passed: false, difference: nd };
    }
  return { id, passed: true };
}

/** Runs every case of `rows` against the graph; rows that are not a graph matrix are reported with no case run. */
export function runGraphRows(
  name: string,
  file: string,
  rows: Uint8Array,
  graph: Uint8Array,
  project: GraphProject,
): SuiteReport {
  const head = { kind: 'graph' as const, name, file, digest: bytesDigest(rows) };
  let cases: readonly JsonObject[];
  try {
    cases = matrixRoot(rows, 'graphMatrixVersion', ['1']).cases;
    cases.forEach((c, i) => checkCase(c, i));
  } catch (e) {
    if (e instanceof MatrixError) return { ...head, cases: [], error: { code: e.code, message: e.message } };
    throw e;
  }
  return {
    ...head,
    cases: cases.map((o) =>
      outcome(
        o,
        evaluateGraph({
          graph,
          project,
          inputs: encoder.encode(jsonText(o.members.get('inputs')!)),
          supportedExtensions: new Set(),
        }),
      ),
    ),
  };
}
