/**
 * The graph suite (conformance/graph/manifest.json, docs/graphs.md): each row runs a graph through core/graph the way
 * `docket graph` does — the project's jpack.json read with every file it names — and compares the answer with the
 * expectation written by hand from graph-semantics.md: the exit status, the status, the refusal's layer, code,
 * diagnostic, class, phase and node, validate's diagnostics, and for evaluated runs the result disposition, the
 * headline, the handoffs (targets verbatim), the node order and chosen nodes' dispositions.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import canonicalize from 'canonicalize';
import { evaluateGraph, graphRunJson, validateGraph, type GraphProject, type SourceFile } from '../core/graph/index.js';
import { parseJpackConfig } from '../core/project/index.js';
import type { CaseResult } from './case-result.js';

interface GraphCase {
  id: string;
  description: string;
  command: 'evaluate' | 'validate';
  config?: string;
  graph: string;
  inputs?: string;
  supportedExtensions?: string[];
  workBudget?: number;
  expectedExit: number;
  expectedStatus: string;
  expectedError?: Record<string, unknown>;
  expectedDiagnostics?: [string, string][];
  expectedDisposition?: unknown;
  expectedHeadline?: unknown;
  expectedHandoffTarget?: unknown;
  expectedHandoffs?: unknown[];
  expectedNodeOrder?: string[];
  expectedNodes?: Record<string, unknown>;
  expectedLeafCount?: number;
}

interface GraphManifest {
  suiteVersion: string;
  defaults: { config: string };
  cases: GraphCase[];
}

const source = (path: string): SourceFile => {
  try {
    const b = readFileSync(path);
    return { ok: true, bytes: new Uint8Array(b.buffer, b.byteOffset, b.byteLength) };
  } catch (e) {
    return { ok: false, message: (e as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
};

/**
 * The suite's committed configurations, read by the one jpack.json shape reader (core/project, ADR 0430); the suite
 * is synchronous, so its files are read here rather than through the CLI's asynchronous edge.
 */
function project(configPath: string, graphPath: string): GraphProject {
  const cfg = parseJpackConfig(new Uint8Array(readFileSync(configPath)));
  if (!cfg.ok) throw new Error(cfg.error.message);
  const base = dirname(configPath);
  const table = (t: ReadonlyMap<string, { readonly path: string }>) =>
    new Map([...t].map(([k, v]) => [k, source(resolve(base, v.path))] as const));
  const rootName = [...cfg.value.graphs].find(([, v]) => resolve(base, v.path) === resolve(graphPath))?.[0];
  return {
    packs: table(cfg.value.packs),
    graphs: table(cfg.value.graphs),
    ...(rootName !== undefined ? { rootName } : {}),
  };
}

const same = (a: unknown, b: unknown): boolean => canonicalize(a) === canonicalize(b);

export function graphSuiteVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'conformance', 'graph', 'manifest.json'), 'utf8')) as GraphManifest)
    .suiteVersion;
}

export function runGraphCases(root: string, wanted: (id: string) => boolean): CaseResult[] {
  const dir = join(root, 'conformance', 'graph');
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as GraphManifest;
  return m.cases.filter((c) => wanted(c.id)).map((c) => runGraphCase(dir, m.defaults.config, c));
}

function runGraphCase(dir: string, defaultConfig: string, c: GraphCase): CaseResult {
  const expected = `exit ${c.expectedExit}, ${c.expectedStatus}${c.expectedError ? ` ${JSON.stringify(c.expectedError)}` : ''}`;
  try {
    const graphPath = join(dir, c.graph);
    const proj = project(join(dir, c.config ?? defaultConfig), graphPath);
    const graph = source(graphPath);
    if (!graph.ok) throw new Error(`cannot read ${c.graph}`);
    let exit: number;
    let out: Record<string, unknown>;
    if (c.command === 'validate') {
      const v = validateGraph(graph.bytes, proj);
      exit = v.exit;
      out = { status: v.status, diagnostics: v.diagnostics };
    } else {
      const inputs = c.inputs === undefined ? undefined : source(join(dir, c.inputs));
      if (inputs !== undefined && !inputs.ok) throw new Error(`cannot read ${c.inputs}`);
      const r = evaluateGraph({
        graph: graph.bytes,
        project: proj,
        ...(inputs?.ok === true ? { inputs: inputs.bytes } : {}),
        supportedExtensions: new Set(c.supportedExtensions ?? []),
        ...(c.workBudget !== undefined ? { workBudget: c.workBudget } : {}),
      });
      exit = r.status === 'refused' ? r.error.exit : 0;
      out = JSON.parse(graphRunJson(r)) as Record<string, unknown>;
    }
    const problems = compare(c, exit, out);
    const actual = `exit ${exit}, ${String(out.status)}${out.error ? ` ${JSON.stringify(out.error)}` : ''}`;
    return {
      suite: 'graph',
      id: c.id,
      description: c.description,
      passed: problems.length === 0,
      expected,
      actual: problems.length ? `${actual} [${problems.join('; ')}]` : actual,
    };
  } catch (e) {
    return {
      suite: 'graph',
      id: c.id,
      description: c.description,
      passed: false,
      expected,
      actual: `threw ${String(e)}`,
    };
  }
}

function compare(c: GraphCase, exit: number, out: Record<string, unknown>): string[] {
  const p: string[] = [];
  if (exit !== c.expectedExit) p.push(`exit=${exit}`);
  if (out.status !== c.expectedStatus) p.push(`status=${String(out.status)}`);
  if (c.expectedError !== undefined) {
    const e = (out.error ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(c.expectedError)) if (e[k] !== v) p.push(`error.${k}=${JSON.stringify(e[k])}`);
  }
  if (c.expectedDiagnostics !== undefined) {
    const d = ((out.diagnostics ?? []) as { code: string; path: string }[]).map((x) => [x.code, x.path]);
    if (!same(d, c.expectedDiagnostics)) p.push(`diagnostics=${JSON.stringify(d)}`);
  }
  if (c.expectedDisposition !== undefined && !same(out.disposition, c.expectedDisposition))
    p.push(`disposition=${JSON.stringify(out.disposition)}`);
  if (c.expectedHeadline !== undefined && !same(out.headline, c.expectedHeadline))
    p.push(`headline=${JSON.stringify(out.headline)}`);
  if (c.expectedHandoffTarget !== undefined && !same(out.handoffTarget, c.expectedHandoffTarget))
    p.push(`handoffTarget=${JSON.stringify(out.handoffTarget)}`);
  if (c.expectedHandoffs !== undefined && !same(out.handoffs, c.expectedHandoffs))
    p.push(`handoffs=${JSON.stringify(out.handoffs)}`);
  const nodes = (out.nodes ?? []) as { instancePath: string; disposition: unknown }[];
  if (
    c.expectedNodeOrder !== undefined &&
    !same(
      nodes.map((n) => n.instancePath),
      c.expectedNodeOrder,
    )
  )
    p.push(`nodes=${JSON.stringify(nodes.map((n) => n.instancePath))}`);
  for (const [path, d] of Object.entries(c.expectedNodes ?? {})) {
    const n = nodes.find((x) => x.instancePath === path);
    if (n === undefined || !same(n.disposition, d)) p.push(`${path}=${JSON.stringify(n?.disposition)}`);
  }
  if (c.expectedLeafCount !== undefined && nodes.length !== c.expectedLeafCount) p.push(`leaves=${nodes.length}`);
  return p;
}
