/**
 * A pack's instance matrix (a jpack.json pack entry's `matrix`), read and run by the runtime's rules
 * (../shared/reference/README.md "Pack matrix"): root `{matrixVersion?, cases}`, `matrixVersion` "1" or "2"; a case
 * has only the members `id`, `origin`, `facts`, `evidenceAvailability`, `supportedExtensions`,
 * `expectedDisposition`, `expectedHandoffTarget` (needs "2"; null asserts no target), `expectedErrorClass`,
 * `expectedErrorPhase`, `focus`, `specSection`, and expects a disposition (Core §8.3) or an error class (§8.4),
 * never both. Each case is one evaluation through the one evaluator (`evaluateDocuments`), as `docket evaluate`.
 */
import { toPlain, type JsonObject } from '../carrier/index.js';
import { evaluateDocuments, type EvaluationResult } from '../evaluate/index.js';
import { bytesDigest, jsonBytes } from '../graph/index.js';
import { validatePack } from '../pack/index.js';
import { firstDifference, type CaseOutcome, type SuiteReport } from './case-report.js';
import * as matrixDoc from './matrix-document.js';

const CASE_MEMBERS = [
  'id',
  'origin',
  'facts',
  'evidenceAvailability',
  'supportedExtensions',
  'expectedDisposition',
  'expectedHandoffTarget',
  'expectedErrorClass',
  'expectedErrorPhase',
  'focus',
  'specSection',
] as const;

const EMPTY_OBJECT: JsonObject = { kind: 'object', members: new Map(), v: 1 };

function checkCase(o: JsonObject, version: string, i: number): void {
  const where = `case ${i} (${JSON.stringify(matrixDoc.caseId(o))})`;
  matrixDoc.closed(o, where, CASE_MEMBERS);
  if (o.members.has('expectedHandoffTarget') && version !== '2')
    throw new matrixDoc.MatrixError('matrix-version', `${where}: "expectedHandoffTarget" needs "matrixVersion": "2"`);
  const t = o.members.get('expectedHandoffTarget');
  if (t !== undefined && t.kind !== 'null') matrixDoc.object(t, `${where}: "expectedHandoffTarget"`);
  if (o.members.has('evidenceAvailability'))
    matrixDoc.object(o.members.get('evidenceAvailability'), `${where}: "evidenceAvailability"`);
  const ext = o.members.get('supportedExtensions');
  if (ext !== undefined && (ext.kind !== 'array' || ext.items.some((x) => x.kind !== 'string')))
    throw new matrixDoc.MatrixError('matrix-shape', `${where}: "supportedExtensions" must be an array of strings`);
  for (const m of ['origin', 'focus', 'specSection'] as const) {
    const v = o.members.get(m);
    if (v !== undefined && v.kind !== 'string')
      throw new matrixDoc.MatrixError('matrix-shape', `${where}: "${m}" must be a string`);
  }
  matrixDoc.expectation(o, where);
}

/** The pack's declared escalation target (§6.7), verbatim, or undefined. */
function declaredTarget(pack: Uint8Array): unknown {
  const v = validatePack(pack, { overlapCheck: false });
  return (v.pack?.plain as { escalation?: { target?: unknown } } | undefined)?.escalation?.target;
}

function outcome(o: JsonObject, r: EvaluationResult, target: unknown): CaseOutcome {
  const d = matrixDoc.headlineDifference(o, r);
  const t = o.members.get('expectedHandoffTarget');
  if (d !== undefined || t === undefined || r.kind === 'error') return matrixDoc.caseOutcome(o, d);
  const actual = r.disposition.handoff.state === 'requested' && target !== undefined ? target : null;
  return matrixDoc.caseOutcome(o, firstDifference('handoffTarget', toPlain(t), actual));
}

/** Runs every case of `matrix` against `pack`; a matrix that is not one is reported with no case run. */
export function runPackMatrix(name: string, file: string, matrix: Uint8Array, pack: Uint8Array): SuiteReport {
  const target = declaredTarget(pack);
  return matrixDoc.runSuite(
    { kind: 'pack', name, file, digest: bytesDigest(matrix) },
    () => {
      const root = matrixDoc.matrixRoot(matrix, 'matrixVersion', ['1', '2']);
      root.cases.forEach((c, i) => checkCase(c, root.version, i));
      return root.cases;
    },
    (o) => {
      const facts = o.members.get('facts');
      const evidence = o.members.get('evidenceAvailability');
      const ext = o.members.get('supportedExtensions');
      const r = evaluateDocuments({
        pack,
        facts: jsonBytes(facts ?? EMPTY_OBJECT),
        ...(evidence !== undefined ? { evidence: jsonBytes(evidence) } : {}),
        supportedExtensions: new Set(ext?.kind === 'array' ? ext.items.map((x) => (x as { value: string }).value) : []),
      });
      return outcome(o, r, target);
    },
  );
}
