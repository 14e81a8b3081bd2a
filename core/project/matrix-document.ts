/**
 * The reading rules the runtime's two matrices share (../shared/reference/README.md "The runtime's matrices"):
 * a closed JSON document read by the strict carrier (no duplicate member names), exact member spellings, unknown
 * members refused, a version the reader knows, at least one case, unique case ids.
 */
import { readJson, toPlain, type JsonObject, type JsonValue } from '../carrier/index.js';
import { firstDifference, type CaseOutcome, type Difference, type SuiteReport } from './case-report.js';

export class MatrixError extends Error {
  override readonly name = 'MatrixError';
  constructor(
    readonly code: 'matrix-json' | 'matrix-shape' | 'matrix-version',
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string): never => {
  throw new MatrixError('matrix-shape', message);
};

/** The root object, its version member (absent = "1") checked against `versions`, and its non-empty cases. */
export function matrixRoot(
  bytes: Uint8Array,
  versionMember: string,
  versions: readonly string[],
): { readonly version: string; readonly cases: readonly JsonObject[] } {
  const tree = readJson(bytes);
  if (!tree.ok) throw new MatrixError('matrix-json', `not a strict JSON text: ${tree.error.message}`);
  const root = object(tree.value, 'the document');
  closed(root, 'the document', [versionMember, 'cases']);
  const v = root.members.get(versionMember);
  const version = v === undefined ? '1' : v.kind === 'string' ? v.value : '';
  if (!versions.includes(version))
    throw new MatrixError('matrix-version', `"${versionMember}" must be ${versions.map((x) => `"${x}"`).join(' or ')}`);
  const c = root.members.get('cases');
  if (c?.kind !== 'array' || c.items.length === 0) return bad('"cases" must be a non-empty array');
  const ids = new Set<string>();
  const cases = c.items.map((item, i) => {
    const o = object(item, `case ${i}`);
    const id = o.members.get('id');
    if (id?.kind !== 'string' || id.value === '') bad(`case ${i}: "id" must be a non-empty string`);
    const name = (id as { value: string }).value;
    if (ids.has(name)) bad(`case ${i}: the id ${JSON.stringify(name)} is not unique`);
    ids.add(name);
    return o;
  });
  return { version, cases };
}

export function object(v: JsonValue | undefined, where: string): JsonObject {
  return v?.kind === 'object' ? v : bad(`${where} must be a JSON object`);
}

export function closed(o: JsonObject, where: string, allowed: readonly string[]): void {
  for (const name of o.members.keys())
    if (!allowed.includes(name)) bad(`${where}: unknown member ${JSON.stringify(name)}`);
}

export function optionalString(o: JsonObject, member: string, where: string): string | undefined {
  const v = o.members.get(member);
  if (v === undefined) return undefined;
  return v.kind === 'string' && v.value !== '' ? v.value : bad(`${where}: "${member}" must be a non-empty string`);
}

/** A case's expectation (reference README): a disposition or an error class, never both, never neither. */
export function expectation(o: JsonObject, where: string): 'disposition' | 'error' {
  const d = o.members.has('expectedDisposition');
  const e = o.members.has('expectedErrorClass');
  if (d === e) bad(`${where}: expects exactly one of "expectedDisposition" and "expectedErrorClass"`);
  if (o.members.has('expectedErrorPhase') && !e) bad(`${where}: "expectedErrorPhase" goes with "expectedErrorClass"`);
  if (d) object(o.members.get('expectedDisposition'), `${where}: "expectedDisposition"`);
  else {
    optionalString(o, 'expectedErrorClass', where);
    const phase = optionalString(o, 'expectedErrorPhase', where);
    if (phase !== undefined && phase !== 'preflight' && phase !== 'evaluation')
      bad(`${where}: "expectedErrorPhase" must be "preflight" or "evaluation"`);
  }
  return d ? 'disposition' : 'error';
}

export const caseId = (o: JsonObject): string => (o.members.get('id') as { value: string }).value;

/**
 * The first difference in what every case asserts of its result, or undefined. A case expecting a §8.4 error is
 * compared on the class and, only when the case names one, the phase (a case may give the class alone,
 * docs/graphs.md "Testing a project"); a refusal without a class has class null and so matches no expectation. A
 * case expecting a disposition is compared on the disposition.
 */
export function headlineDifference(
  o: JsonObject,
  result: { readonly error: { readonly class: unknown; readonly phase: unknown } } | { readonly disposition: unknown },
): Difference | undefined {
  const expectedClass = o.members.get('expectedErrorClass');
  if (expectedClass !== undefined) {
    const phase = o.members.get('expectedErrorPhase');
    const expected = { class: toPlain(expectedClass), ...(phase !== undefined ? { phase: toPlain(phase) } : {}) };
    const actual =
      'error' in result
        ? { class: result.error.class, ...(phase !== undefined ? { phase: result.error.phase } : {}) }
        : { disposition: result.disposition };
    return firstDifference('error', expected, actual);
  }
  const expected = toPlain(o.members.get('expectedDisposition')!);
  if ('error' in result) return { subject: 'disposition', pointer: '', expected, actual: { error: result.error } };
  return firstDifference('disposition', expected, result.disposition);
}

export const caseOutcome = (o: JsonObject, difference: Difference | undefined): CaseOutcome =>
  difference === undefined ? { id: caseId(o), passed: true } : { id: caseId(o), passed: false, difference };

/** The suite of a matrix file: its cases run by `run`, or, when the file is not such a matrix, no case run. */
export function runSuite(
  head: Omit<SuiteReport, 'cases' | 'error'>,
  read: () => readonly JsonObject[],
  run: (o: JsonObject) => CaseOutcome,
): SuiteReport {
  let cases: readonly JsonObject[];
  try {
    cases = read();
  } catch (e) {
    if (e instanceof MatrixError) return { ...head, cases: [], error: { code: e.code, message: e.message } };
    throw e;
  }
  return { ...head, cases: cases.map(run) };
}
