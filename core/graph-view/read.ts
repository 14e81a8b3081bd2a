/**
 * Reading a graph run's result object (graph-semantics.md "Output contract", as core/graph's graphRunJson prints
 * it) for the console's graph view. The object comes from a file the auditor names, so it is untrusted: every
 * member the view uses is checked for its type, and anything else is a typed error, never a half-drawn graph.
 * Strings are kept verbatim (hostile ids stay data; the renderer sets them as text).
 */
import type { Result } from '../result.js';

export interface ViewFeed {
  readonly from: string;
  readonly output?: string;
  /** The fact pointer or the evidence requirement id. */
  readonly label: string;
  readonly evidence: boolean;
  readonly injected: boolean;
}

export interface ViewDisposition {
  readonly kind: string;
  readonly outcomeId?: string;
  readonly reasons: readonly string[];
  readonly handoffRequested: boolean;
  /** Pack rule ids, when the result carries them on the node (`rules`). */
  readonly rules: readonly string[];
  /** The disposition object as the result holds it, for the page's detail list. */
  readonly raw: unknown;
}

export interface ViewLeaf {
  readonly node: string;
  /** Path segments: a root-level leaf has one. */
  readonly path: readonly string[];
  readonly instancePath: string;
  readonly pack: string;
  readonly packRef: string;
  readonly feeds: readonly ViewFeed[];
  readonly disposition: ViewDisposition;
  readonly handoffTarget?: string;
}

export interface ViewInstance {
  readonly path: readonly string[];
  readonly instancePath: string;
  readonly subgraph: string;
  readonly digest: string;
  readonly feeds: readonly ViewFeed[];
}

export interface GraphRunView {
  readonly graphId: string;
  readonly graphVersion: string;
  readonly graphDigest: string;
  readonly headline: { readonly node: string; readonly kind: string };
  readonly leaves: readonly ViewLeaf[];
  readonly instances: readonly ViewInstance[];
}

export interface GraphViewError {
  readonly code: 'graph-result-invalid' | 'graph-run-refused';
  readonly message: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
class Bad extends Error {}
const bad = (m: string): never => {
  throw new Bad(m);
};
const str = (o: Obj, k: string, where: string): string =>
  typeof o[k] === 'string' ? o[k] : bad(`${where}.${k} must be a string`);
const optStr = (o: Obj, k: string, where: string): string | undefined =>
  o[k] === undefined ? undefined : str(o, k, where);
const arr = (o: Obj, k: string, where: string): unknown[] =>
  Array.isArray(o[k]) ? o[k] : bad(`${where}.${k} must be an array`);
const obj = (v: unknown, where: string): Obj => (isObj(v) ? v : bad(`${where} must be an object`));

/** "/a/b" → [a, b]; a root-level leaf's local id → [id] (B4, decision 3). */
function segments(instancePath: string, where: string): string[] {
  if (instancePath === '') return bad(`${where} is empty`);
  if (!instancePath.startsWith('/')) return [instancePath];
  const s = instancePath.slice(1).split('/');
  return s.some((x) => x === '') ? bad(`${where} has an empty segment`) : s;
}

/** Fact feeds, then evidence feeds (B2: an unbound caller or interface value leaves the requirement absent: nothing was injected). */
function feeds(o: Obj, where: string): ViewFeed[] {
  return (['factFeeds', 'evidenceFeeds'] as const).flatMap((member) =>
    arr(o, member, where).map((f, i): ViewFeed => {
      const w = `${where}.${member}[${i}]`;
      const x = obj(f, w);
      const evidence = member === 'evidenceFeeds';
      if (!evidence && typeof x.injected !== 'boolean') bad(`${w}.injected must be a boolean`);
      const output = optStr(x, 'output', w);
      return {
        from: str(x, 'from', w),
        ...(output === undefined ? {} : { output }),
        label: str(x, evidence ? 'requirement' : 'pointer', w),
        evidence,
        injected: evidence ? x.state !== undefined : (x.injected as boolean),
      };
    }),
  );
}

function disposition(v: unknown, rules: unknown, where: string): ViewDisposition {
  const d = obj(v, where);
  const reasons = arr(d, 'reasons', where).map((r, i) =>
    typeof r === 'string' ? r : bad(`${where}.reasons[${i}] must be a string`),
  );
  const handoff = obj(d.handoff, `${where}.handoff`);
  const outcomeId = optStr(d, 'outcomeId', where);
  const ruleIds =
    rules === undefined
      ? []
      : Array.isArray(rules)
        ? rules.map((r, i) => (typeof r === 'string' ? r : bad(`${where} rules[${i}] must be a string`)))
        : bad(`${where} rules must be an array`);
  return {
    kind: str(d, 'kind', where),
    ...(outcomeId === undefined ? {} : { outcomeId }),
    reasons,
    handoffRequested: handoff.state === 'requested',
    rules: ruleIds,
    raw: v,
  };
}

function leaf(v: unknown, i: number): ViewLeaf {
  const where = `nodes[${i}]`;
  const o = obj(v, where);
  const instancePath = str(o, 'instancePath', where);
  const target = o.handoffTarget === undefined ? undefined : obj(o.handoffTarget, `${where}.handoffTarget`);
  return {
    node: str(o, 'node', where),
    path: segments(instancePath, `${where}.instancePath`),
    instancePath,
    pack: str(o, 'pack', where),
    packRef: `${str(o, 'packId', where)}@${str(o, 'packVersion', where)}`,
    feeds: feeds(o, where),
    disposition: disposition(o.disposition, o.rules, `${where}.disposition`),
    ...(target === undefined ? {} : { handoffTarget: str(target, 'name', `${where}.handoffTarget`) }),
  };
}

function instance(v: unknown, i: number): ViewInstance {
  const where = `subgraphs[${i}]`;
  const o = obj(v, where);
  const instancePath = str(o, 'instancePath', where);
  if (!instancePath.startsWith('/')) bad(`${where}.instancePath must start with "/"`);
  return {
    path: segments(instancePath, `${where}.instancePath`),
    instancePath,
    subgraph: str(o, 'subgraph', where),
    digest: str(o, 'digest', where),
    feeds: feeds(o, where),
  };
}

export function readGraphRunView(value: unknown): Result<GraphRunView, GraphViewError> {
  try {
    const o = obj(value, 'the result');
    if (o.status === 'refused') {
      const e = isObj(o.error) ? o.error : {};
      const code = typeof e.code === 'string' ? e.code : 'unknown';
      const message = typeof e.message === 'string' ? e.message : '';
      return { ok: false, error: { code: 'graph-run-refused', message: `${code}: ${message}` } };
    }
    if (o.status !== 'evaluated') bad('status must be "evaluated" or "refused"');
    const leaves = arr(o, 'nodes', 'the result').map(leaf);
    const instances = o.subgraphs === undefined ? [] : arr(o, 'subgraphs', 'the result').map(instance);
    const head = o.headline === undefined ? undefined : obj(o.headline, 'headline');
    const resultDisposition = obj(head === undefined ? o.disposition : head.disposition, 'the result disposition');
    return {
      ok: true,
      value: {
        graphId: str(o, 'graphId', 'the result'),
        graphVersion: str(o, 'graphVersion', 'the result'),
        graphDigest: str(o, 'graphDigest', 'the result'),
        headline: {
          node: head === undefined ? str(o, 'resultNode', 'the result') : str(head, 'node', 'headline'),
          kind: str(resultDisposition, 'kind', 'the result disposition'),
        },
        leaves,
        instances,
      },
    };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, error: { code: 'graph-result-invalid', message: e.message } };
    throw e;
  }
}
