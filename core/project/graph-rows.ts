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
import { bytesDigest, evaluateGraph, jsonBytes, type GraphProject, type GraphRun } from '../graph/index.js';
import { firstDifference, type CaseOutcome, type SuiteReport } from './case-report.js';
import * as matrixDoc from './matrix-document.js';

const CASE_MEMBERS = [
  'id',
  'inputs',
  'expectedDisposition',
  'expectedNodes',
  'expectedErrorClass',
  'expectedErrorPhase',
] as const;

function checkCase(o: JsonObject, i: number): void {
  const where = `case ${i} (${JSON.stringify(matrixDoc.caseId(o))})`;
  matrixDoc.closed(o, where, CASE_MEMBERS);
  matrixDoc.object(o.members.get('inputs'), `${where}: "inputs"`);
  const kind = matrixDoc.expectation(o, where);
  if (o.members.has('expectedNodes')) {
    if (kind !== 'disposition')
      throw new matrixDoc.MatrixError('matrix-shape', `${where}: "expectedNodes" goes with "expectedDisposition"`);
    for (const [node, d] of matrixDoc.object(o.members.get('expectedNodes'), `${where}: "expectedNodes"`).members)
      matrixDoc.object(d, `${where}: "expectedNodes" ${JSON.stringify(node)}`);
  }
}

function outcome(o: JsonObject, run: GraphRun): CaseOutcome {
  const d = matrixDoc.headlineDifference(o, run.status === 'refused' ? { error: run.error } : run);
  const nodes = o.members.get('expectedNodes');
  // expectedNodes goes with expectedDisposition (checkCase), so it is compared only once that matched.
  if (d === undefined && run.status === 'evaluated' && nodes?.kind === 'object')
    for (const [node, expectedNode] of nodes.members) {
      const leaf = run.nodes.find((n) => n.instancePath === node);
      const nd = firstDifference(`nodes/${node}`, toPlain(expectedNode), leaf?.disposition);
      if (nd !== undefined) return matrixDoc.caseOutcome(o, nd);
    }
  return matrixDoc.caseOutcome(o, d);
}

/** Runs every case of `rows` against the graph; rows that are not a graph matrix are reported with no case run. */
export function runGraphRows(
  name: string,
  file: string,
  rows: Uint8Array,
  graph: Uint8Array,
  project: GraphProject,
): SuiteReport {
  return matrixDoc.runSuite(
    { kind: 'graph', name, file, digest: bytesDigest(rows) },
    () => {
      const { cases } = matrixDoc.matrixRoot(rows, 'graphMatrixVersion', ['1']);
      cases.forEach((c, i) => checkCase(c, i));
      return cases;
    },
    (o) =>
      outcome(
        o,
        evaluateGraph({ graph, project, inputs: jsonBytes(o.members.get('inputs')!), supportedExtensions: new Set() }),
      ),
  );
}
