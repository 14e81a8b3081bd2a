/**
 * Hand-written graph projects for the core/graph tests: small conforming packs with known dispositions, and an
 * in-memory project (the bytes the CLI would read from jpack.json's paths).
 */
import {
  bytesDigest,
  evaluateGraph,
  graphRunJson,
  type GraphProject,
  type GraphRun,
  type SourceFile,
} from '../../core/graph/index.js';
import { type GraphEvaluation } from '../../core/graph/graph-run.js';

const enc = new TextEncoder();
export const bytes = (x: unknown): Uint8Array => enc.encode(typeof x === 'string' ? x : JSON.stringify(x));

const base = (id: string, over: Record<string, unknown>): Record<string, unknown> => ({
  specVersion: '0.3.0',
  id: `https://packs.example.org/${id}`,
  version: '1.0.0',
  title: `Pack ${id}`,
  decision: { intent: 'Test graphs.', question: 'Which outcome?' },
  outcomes: [
    { id: 'pass', label: 'Pass' },
    { id: 'fail', label: 'Fail' },
  ],
  rules: [
    {
      id: 'r',
      description: 'Always pass.',
      when: { op: 'literal', value: true },
      outcome: 'pass',
      onUnknown: 'ignore',
    },
  ],
  ...over,
});

const factIs = (path: string, value: unknown) => ({ op: 'fact', path, operator: 'equals', value });

/** The packs every test project declares. */
export const PACKS: Record<string, Record<string, unknown>> = {
  /** Always the outcome "pass". */
  source: base('source', {}),
  /** "pass" when /upstream/verdict is "pass", "fail" when "fail", else unresolved no-match with a target. */
  gate: base('gate', {
    rules: [
      {
        id: 'r-pass',
        description: 'Pass.',
        when: factIs('/upstream/verdict', 'pass'),
        outcome: 'pass',
        onUnknown: 'ignore',
      },
      {
        id: 'r-fail',
        description: 'Fail.',
        when: factIs('/upstream/verdict', 'fail'),
        outcome: 'fail',
        onUnknown: 'ignore',
      },
    ],
    escalation: { triggers: ['no-match'], target: { kind: 'queue', name: 'Gate Queue / Tier 2' } },
  }),
  /** "pass" when /x is "y"; otherwise unresolved no-match, no handoff. */
  quiet: base('quiet', {
    rules: [{ id: 'r', description: 'x is y.', when: factIs('/x', 'y'), outcome: 'pass', onUnknown: 'ignore' }],
  }),
  /** Requires the evidence upstream-decision; always "pass" when it is present. */
  evidence: base('evidence', {
    evidenceRequirements: [
      { id: 'upstream-decision', description: 'The upstream decision.', required: true, kind: 'document' },
    ],
    escalation: {
      triggers: ['missing-required-evidence', 'unknown'],
      target: { kind: 'human-role', name: 'Reviewer' },
    },
  }),
  /** A direct exception escalation without an escalation object: requested, no target. */
  direct: base('direct', {
    exceptions: [
      {
        id: 'e',
        description: 'Always escalate.',
        when: { op: 'literal', value: true },
        effect: 'escalate',
        onUnknown: 'ignore',
      },
    ],
  }),
  /** Requires an extension capability nobody supports by default. */
  ext: base('ext', {
    decision: { intent: 'Test graphs.', question: 'Which outcome?', extensions: { 'com.example.needed': { v: 1 } } },
    metadata: { requiredExtensions: ['com.example.needed'] },
  }),
  /** Not conformant: no outcomes. */
  broken: { specVersion: '0.3.0', id: 'https://packs.example.org/broken', version: '1.0.0' },
};

export interface ProjectSpec {
  readonly packs?: Record<string, Record<string, unknown> | string | null>;
  /** Graph name → document (object, or exact text); null = unreadable. */
  readonly graphs?: Record<string, unknown>;
  readonly rootName?: string;
}

const source = (x: unknown): SourceFile =>
  x === null ? { ok: false, message: 'ENOENT' } : { ok: true, bytes: bytes(x) };

export function project(spec: ProjectSpec = {}): GraphProject {
  const packs = new Map(Object.entries({ ...PACKS, ...spec.packs }).map(([k, v]) => [k, source(v)] as const));
  const graphs = new Map(Object.entries(spec.graphs ?? {}).map(([k, v]) => [k, source(v)] as const));
  return { packs, graphs, ...(spec.rootName !== undefined ? { rootName: spec.rootName } : {}) };
}

export const digestOf = (doc: unknown): string => bytesDigest(bytes(doc));

/** A format "1" document. */
export const flat = (nodes: Record<string, string>, edges: unknown[], result: string, over: object = {}) => ({
  formatVersion: '1',
  id: 'test-graph',
  version: '1.0.0',
  nodes: Object.fromEntries(Object.entries(nodes).map(([id, pack]) => [id, { pack }])),
  edges,
  result,
  ...over,
});

/** A 0.2.0-draft document; `nodes` values are a pack id or a full node object. */
export const draft = (nodes: Record<string, string | object>, edges: unknown[], result: string, over: object = {}) => ({
  formatVersion: '0.2.0-draft',
  id: 'https://example.org/graphs/test',
  version: '1.0.0',
  nodes: Object.fromEntries(Object.entries(nodes).map(([id, n]) => [id, typeof n === 'string' ? { pack: n } : n])),
  edges,
  result,
  ...over,
});

/** A subgraph node pinned to `doc`'s exact JSON.stringify bytes. */
export const sub = (name: string, doc: unknown, over: object = {}) => ({
  subgraph: name,
  digest: digestOf(doc),
  ...over,
});

export function run(
  graph: unknown,
  spec: ProjectSpec = {},
  inputs?: unknown,
  more: { ext?: string[]; workBudget?: number } = {},
): GraphRun {
  return evaluateGraph({
    graph: bytes(graph),
    project: project(spec),
    ...(inputs !== undefined ? { inputs: bytes(inputs) } : {}),
    supportedExtensions: new Set(more.ext ?? []),
    ...(more.workBudget !== undefined ? { workBudget: more.workBudget } : {}),
  });
}

/** An evaluated run as the output contract prints it (feed values as plain JSON), typed as the core's result. */
export function evaluated(r: GraphRun): GraphEvaluation {
  if (r.status !== 'evaluated') throw new Error(`expected an evaluated run, got ${JSON.stringify(r.error)}`);
  return JSON.parse(graphRunJson(r)) as GraphEvaluation;
}
export function refusedWith(r: GraphRun) {
  if (r.status !== 'refused') throw new Error('expected a refused run');
  return r.error;
}
