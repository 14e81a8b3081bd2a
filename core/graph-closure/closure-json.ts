/**
 * The one serializer and the one strict reader of a graph closure record (ADR 0340). The serializer validates, then
 * emits the RFC 8785 bytes (members sorted; the record holds only strings and, in `testedRows`, non-negative integers,
 * so JSON.stringify's escaping and number form are 8785's):
 * same closure, same bytes forever. The reader accepts exactly what the serializer emits and nothing else.
 */
import { readJson, type JsonValue } from '../carrier/index.js';
import type { Result } from '../result.js';
import type { GraphClosure, TestedRows } from './closure.js';
import { CLOSURE_FORMAT } from './closure-format.js';

export interface ClosureRecordError {
  readonly code: 'closure-record-invalid';
  readonly message: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const MEMBERS = ['format', 'graph', 'graphId', 'graphVersion', 'graphs', 'packs'] as const;
const TESTED_ROWS = 'testedRows';
const count = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;

function rowsProblem(t: TestedRows): string | undefined {
  if (!DIGEST.test(t.digest)) return 'testedRows.digest is not a sha256: digest';
  if (!count(t.cases) || t.cases === 0) return 'testedRows.cases must be a positive integer';
  if (!count(t.passed) || t.passed > t.cases) return 'testedRows.passed must be an integer from 0 to cases';
  return undefined;
}

function invalid(message: string): { ok: false; error: ClosureRecordError } {
  return { ok: false, error: { code: 'closure-record-invalid', message } };
}

function problem(c: GraphClosure): string | undefined {
  if (c.format !== CLOSURE_FORMAT) return `format must be ${CLOSURE_FORMAT}`;
  if (!DIGEST.test(c.graph)) return 'graph is not a sha256: digest';
  if (typeof c.graphId !== 'string' || c.graphId === '') return 'graphId must be a non-empty string';
  if (typeof c.graphVersion !== 'string' || c.graphVersion === '') return 'graphVersion must be a non-empty string';
  for (const [table, m] of [
    ['packs', c.packs],
    ['graphs', c.graphs],
  ] as const)
    for (const [name, digest] of Object.entries(m))
      if (name === '' || typeof digest !== 'string' || !DIGEST.test(digest))
        return `${table} entry ${JSON.stringify(name)} must pin a sha256: digest`;
  return c.testedRows === undefined ? undefined : rowsProblem(c.testedRows);
}

const sortedObject = (m: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]!]),
  );

export function serializeClosure(c: GraphClosure): Result<Uint8Array, ClosureRecordError> {
  const why = problem(c);
  if (why !== undefined) return invalid(why);
  const record = {
    format: c.format,
    graph: c.graph,
    graphId: c.graphId,
    graphVersion: c.graphVersion,
    graphs: sortedObject(c.graphs),
    packs: sortedObject(c.packs),
    ...(c.testedRows === undefined
      ? {}
      : { testedRows: { cases: c.testedRows.cases, digest: c.testedRows.digest, passed: c.testedRows.passed } }),
  };
  return { ok: true, value: new TextEncoder().encode(JSON.stringify(record)) };
}

function stringTable(v: JsonValue | undefined, name: string): Record<string, string> | string {
  if (v?.kind !== 'object') return `${name} must be an object`;
  const entries: [string, string][] = [];
  for (const [k, x] of v.members) {
    if (x.kind !== 'string') return `${name} entry ${JSON.stringify(k)} must be a string`;
    entries.push([k, x.value]);
  }
  // fromEntries defines own properties: a name such as "__proto__" stays a name, never a prototype.
  return Object.fromEntries(entries);
}

function readTestedRows(v: JsonValue | undefined): TestedRows | undefined | string {
  if (v === undefined) return undefined;
  if (v.kind !== 'object' || [...v.members.keys()].sort().join() !== 'cases,digest,passed')
    return 'testedRows must be exactly {cases, digest, passed}';
  const [cases, digest, passed] = [v.members.get('cases')!, v.members.get('digest')!, v.members.get('passed')!];
  if (digest.kind !== 'string' || cases.kind !== 'number' || passed.kind !== 'number')
    return 'testedRows holds a digest string and two integers';
  return { digest: digest.value, cases: Number(cases.lexeme), passed: Number(passed.lexeme) };
}

export function readClosure(bytes: Uint8Array): Result<GraphClosure, ClosureRecordError> {
  const tree = readJson(bytes);
  if (!tree.ok) return invalid(`not a strict JSON text: ${tree.error.message}`);
  const root = tree.value;
  if (root.kind !== 'object') return invalid('not a JSON object');
  const names = [...root.members.keys()].filter((n) => n !== TESTED_ROWS).sort();
  if (names.join() !== [...MEMBERS].join())
    return invalid(`members must be exactly ${MEMBERS.join(', ')} and optionally ${TESTED_ROWS}`);
  const testedRows = readTestedRows(root.members.get(TESTED_ROWS));
  if (typeof testedRows === 'string') return invalid(testedRows);
  const str = (n: string): string | undefined => {
    const v = root.members.get(n);
    return v?.kind === 'string' ? v.value : undefined;
  };
  const packs = stringTable(root.members.get('packs'), 'packs');
  const graphs = stringTable(root.members.get('graphs'), 'graphs');
  if (typeof packs === 'string') return invalid(packs);
  if (typeof graphs === 'string') return invalid(graphs);
  const c = {
    format: str('format'),
    graph: str('graph'),
    graphId: str('graphId'),
    graphVersion: str('graphVersion'),
    packs,
    graphs,
    ...(testedRows === undefined ? {} : { testedRows }),
  } as GraphClosure;
  const why = problem(c);
  if (why !== undefined) return invalid(why);
  // Only the serializer's own bytes are a record: anything else (spacing, order, escapes) is refused.
  const again = serializeClosure(c);
  if (!again.ok || !sameBytes(again.value, bytes)) return invalid('not in canonical form (RFC 8785)');
  return { ok: true, value: c };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
