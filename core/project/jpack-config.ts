/**
 * The project configuration `jpack.json`, read exactly as the reference runtime's own schema defines it
 * (`../shared/reference/jpack-config.schema.json`, graph-semantics.md decision 13): `configVersion` "1"–"3", pack
 * entries `{path, matrix?, description?, expectedVersion?, facts?, evidence?}`, graph entries `{path, rows?,
 * description?}`, `audit: {dir}`, every object closed, with the schema's two version gates (`graphs` needs "2" or
 * "3", `audit` needs "3") and the lexical half of its containment rule (relativePath: not absolute, not escaping the
 * configuration's directory). The access-time half — symlinked components, regular files only — needs the file
 * system and is the caller's (cli/project/read-project.ts).
 *
 * Pure: bytes in, the configuration or the first refusal out. A refusal names the member as an RFC 6901 pointer
 * into jpack.json and carries a stable code (ADR 0430).
 */
import { escapeToken, readJson, type JsonObject, type JsonValue } from '../carrier/index.js';
import type { Result } from '../result.js';

export type ConfigCode =
  /** Not a strict JSON text (duplicate member names included), or its root is not an object. */
  | 'config-json'
  /** A member the schema does not define. */
  | 'config-unknown-member'
  /** A required member is missing. */
  | 'config-missing-member'
  /** A member of the wrong JSON type, an empty string or table, or a value outside its pattern. */
  | 'config-invalid-value'
  /** `configVersion` is not one this reader knows ("1", "2", "3"). */
  | 'config-version'
  /** `graphs` under "1", or `audit` under "1" or "2": the schema's version gates. */
  | 'config-version-gate'
  /** A path that is absolute or leaves the configuration's directory (lexically or through a symlink). */
  | 'config-path-outside'
  /** A declared file whose final component is a symlink, or that is not a regular file. */
  | 'config-path-not-file'
  /** A pack entry's `expectedVersion` differs from the pack document's own `version`. */
  | 'config-expected-version'
  /** `audit` on a command that would record an evaluation: Docket records evaluations in its ledger (ADR 0430). */
  | 'config-audit';

export interface ConfigError {
  readonly code: ConfigCode;
  /** RFC 6901 pointer into jpack.json naming the member ("" for the document itself). */
  readonly member: string;
  readonly message: string;
}

/** A NON-NORMATIVE agent hint (the schema's `hint`): at least one of its two members. */
export interface ConfigHint {
  readonly source?: string;
  readonly hint?: string;
}

export interface PackEntry {
  readonly path: string;
  readonly matrix?: string;
  readonly description?: string;
  readonly expectedVersion?: string;
  readonly facts?: ReadonlyMap<string, ConfigHint>;
  readonly evidence?: ReadonlyMap<string, ConfigHint>;
}

export interface GraphEntry {
  readonly path: string;
  readonly rows?: string;
  readonly description?: string;
}

export interface JpackConfig {
  readonly configVersion: '1' | '2' | '3';
  /** Decision id → entry, in document order. */
  readonly packs: ReadonlyMap<string, PackEntry>;
  readonly graphs: ReadonlyMap<string, GraphEntry>;
  readonly audit?: { readonly dir: string };
}

/** The schema's patterns, verbatim. */
const DECISION_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const SEMVER = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;
const JSON_POINTER = /^(?:\/(?:[^~/]|~0|~1)*)*$/;

class Refused extends Error {
  constructor(readonly error: ConfigError) {
    super(error.message);
  }
}

const fail = (code: ConfigCode, member: string, message: string): never => {
  throw new Refused({ code, member, message: `jpack.json ${member === '' ? '(the document)' : member}: ${message}` });
};

function object(v: JsonValue, at: string): JsonObject {
  return v.kind === 'object' ? v : fail('config-invalid-value', at, 'must be a JSON object');
}

/** A closed object: every member is one of `allowed`, every `required` one is present. */
function closed(o: JsonObject, at: string, allowed: readonly string[], required: readonly string[]): void {
  for (const name of o.members.keys())
    if (!allowed.includes(name))
      fail('config-unknown-member', `${at}/${escapeToken(name)}`, `is not a member the runtime's jpack.json defines`);
  for (const name of required) if (!o.members.has(name)) fail('config-missing-member', `${at}/${name}`, 'is required');
}

function string(v: JsonValue, at: string, pattern?: RegExp, what?: string): string {
  if (v.kind !== 'string') return fail('config-invalid-value', at, 'must be a string');
  if (v.value === '') return fail('config-invalid-value', at, 'must not be empty');
  if (pattern !== undefined && !pattern.test(v.value))
    return fail('config-invalid-value', at, `${JSON.stringify(v.value)} is not ${what}`);
  return v.value;
}

/**
 * The relativePath rule's lexical check: a path relative to the configuration's directory that resolves inside
 * it. "/" and "\\" both separate (a Windows runtime reads either), a drive letter or leading separator is
 * absolute, and "." / ".." components are walked so `a/../../x` is refused while `a/../x` is not. The directory
 * itself is inside (an audit dir of "."); as a declared file it is refused at access time, not a regular file.
 */
export function lexicallyInside(path: string): boolean {
  if (/^[/\\]/.test(path) || /^[A-Za-z]:/.test(path)) return false;
  let depth = 0;
  for (const part of path.split(/[/\\]/)) {
    if (part === '' || part === '.') continue;
    depth += part === '..' ? -1 : 1;
    if (depth < 0) return false;
  }
  return true;
}

function relativePath(v: JsonValue, at: string): string {
  const p = string(v, at);
  if (!lexicallyInside(p))
    fail('config-path-outside', at, `${JSON.stringify(p)} must be a relative path inside the project's directory`);
  return p;
}

function hints(v: JsonValue, at: string, key: RegExp, what: string): Map<string, ConfigHint> {
  const o = object(v, at);
  const out = new Map<string, ConfigHint>();
  for (const [name, h] of o.members) {
    const hat = `${at}/${escapeToken(name)}`;
    if (!key.test(name)) fail('config-invalid-value', hat, `the name is not ${what}`);
    const ho = object(h, hat);
    closed(ho, hat, ['source', 'hint'], []);
    if (ho.members.size === 0) fail('config-invalid-value', hat, 'a hint needs "source" or "hint"');
    const source = ho.members.get('source');
    const text = ho.members.get('hint');
    out.set(name, {
      ...(source !== undefined ? { source: string(source, `${hat}/source`) } : {}),
      ...(text !== undefined ? { hint: string(text, `${hat}/hint`) } : {}),
    });
  }
  return out;
}

/** A non-empty table keyed by decision ids. */
function table<T>(v: JsonValue, at: string, entry: (e: JsonValue, at: string) => T): Map<string, T> {
  const o = object(v, at);
  if (o.members.size === 0) fail('config-invalid-value', at, 'must declare at least one entry');
  const out = new Map<string, T>();
  for (const [name, e] of o.members) {
    const eat = `${at}/${escapeToken(name)}`;
    if (!DECISION_ID.test(name)) fail('config-invalid-value', eat, 'the name is not a decision id');
    out.set(name, entry(e, eat));
  }
  return out;
}

function packEntry(v: JsonValue, at: string): PackEntry {
  const o = object(v, at);
  closed(o, at, ['path', 'matrix', 'description', 'expectedVersion', 'facts', 'evidence'], ['path']);
  const m = (n: string): JsonValue | undefined => o.members.get(n);
  const matrix = m('matrix');
  const description = m('description');
  const expectedVersion = m('expectedVersion');
  const facts = m('facts');
  const evidence = m('evidence');
  return {
    path: relativePath(m('path')!, `${at}/path`),
    ...(matrix !== undefined ? { matrix: relativePath(matrix, `${at}/matrix`) } : {}),
    ...(description !== undefined ? { description: string(description, `${at}/description`) } : {}),
    ...(expectedVersion !== undefined
      ? { expectedVersion: string(expectedVersion, `${at}/expectedVersion`, SEMVER, 'a semantic version') }
      : {}),
    ...(facts !== undefined ? { facts: hints(facts, `${at}/facts`, JSON_POINTER, 'a JSON Pointer') } : {}),
    ...(evidence !== undefined ? { evidence: hints(evidence, `${at}/evidence`, DECISION_ID, 'a decision id') } : {}),
  };
}

function graphEntry(v: JsonValue, at: string): GraphEntry {
  const o = object(v, at);
  closed(o, at, ['path', 'rows', 'description'], ['path']);
  const rows = o.members.get('rows');
  const description = o.members.get('description');
  return {
    path: relativePath(o.members.get('path')!, `${at}/path`),
    ...(rows !== undefined ? { rows: relativePath(rows, `${at}/rows`) } : {}),
    ...(description !== undefined ? { description: string(description, `${at}/description`) } : {}),
  };
}

function config(root: JsonValue): JpackConfig {
  if (root.kind !== 'object') return fail('config-json', '', 'the configuration is not a JSON object');
  // The version first: a later shape is refused as unsupported, naming what this reader accepts, rather than
  // for a member a later version may define (the schema's configVersion description).
  const v = root.members.get('configVersion');
  if (v === undefined) fail('config-missing-member', '/configVersion', 'is required');
  if (v!.kind !== 'string' || !['1', '2', '3'].includes(v!.value))
    fail('config-version', '/configVersion', 'must be "1", "2" or "3" (the versions the runtime reads)');
  closed(root, '', ['configVersion', 'packs', 'graphs', 'audit'], ['configVersion', 'packs']);
  const version = (v as { value: '1' | '2' | '3' }).value;
  // The schema's allOf gates: the member to change is configVersion, so that is the member named.
  if (root.members.has('graphs') && version === '1')
    fail('config-version-gate', '/configVersion', '"graphs" needs configVersion "2" or "3"');
  if (root.members.has('audit') && version !== '3')
    fail('config-version-gate', '/configVersion', '"audit" needs configVersion "3"');
  const packs = table(root.members.get('packs')!, '/packs', packEntry);
  const g = root.members.get('graphs');
  const graphs = g === undefined ? new Map<string, GraphEntry>() : table(g, '/graphs', graphEntry);
  const a = root.members.get('audit');
  let audit: { dir: string } | undefined;
  if (a !== undefined) {
    const ao = object(a, '/audit');
    closed(ao, '/audit', ['dir'], ['dir']);
    audit = { dir: relativePath(ao.members.get('dir')!, '/audit/dir') };
  }
  return { configVersion: version, packs, graphs, ...(audit !== undefined ? { audit } : {}) };
}

/** jpack.json's exact bytes → the configuration, or the first refusal in document order. */
export function parseJpackConfig(bytes: Uint8Array): Result<JpackConfig, ConfigError> {
  try {
    const tree = readJson(bytes);
    if (!tree.ok) return fail('config-json', '', `not a strict JSON text: ${tree.error.message}`);
    return { ok: true, value: config(tree.value) };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, error: e.error };
    throw e;
  }
}

/**
 * The schema's `expectedVersion`: a validated reference, never a truth of its own — a pack document whose own
 * `version` member differs is refused naming the entry's member. A pack that cannot be read as JSON with a string
 * `version` is left to the layer that reads the pack.
 */
export function expectedVersionMismatch(name: string, entry: PackEntry, pack: Uint8Array): ConfigError | undefined {
  if (entry.expectedVersion === undefined) return undefined;
  const tree = readJson(pack);
  if (!tree.ok || tree.value.kind !== 'object') return undefined;
  const v = tree.value.members.get('version');
  if (v?.kind !== 'string' || v.value === entry.expectedVersion) return undefined;
  const member = `/packs/${escapeToken(name)}/expectedVersion`;
  return {
    code: 'config-expected-version',
    member,
    message: `jpack.json ${member}: the project expects ${entry.expectedVersion}, the pack document ${entry.path} is version ${v.value}`,
  };
}
