/**
 * `docket publish --config <jpack.json> --graph <g.json>` (ADR 0340): validates the graph with core/graph (A8, B5),
 * then publishes its closed set bottom-up — every pack it names at any depth (by exact-bytes digest, alias
 * `id@version`, each validated as `docket publish <pack>` does), every subgraph (children before parents, each a
 * published graph of its own), and last the graph itself, which the registry refuses unless every member it pins
 * is stored and hashes to its pin. One line per published document; the graph's own line is the last. Before
 * anything is stored, the matrices and rows the project declares for the closed set run (cli/commands/publish-gate.ts,
 * ADR 0431); a graph's passed rows are noted in its closure record.
 */
import { validatePack } from '../../core/pack/index.js';
import { validateGraph, type GraphProject } from '../../core/graph/index.js';
import { closureOf, type TestedRows } from '../../core/graph-closure/index.js';
import { publishGate } from '../commands/publish-gate.js';
import type { StackClients } from '../../stack/clients.js';
import type { CliIo } from '../io.js';
import { readFileOr, readProject } from './project-config.js';
import { terminalText } from '../terminal-text.js';

interface Printer {
  ok(kind: 'pack' | 'graph', name: string, digest: string, alias: string, created: boolean): void;
  /** Reports a document not published; false, what the publishing step returns then. */
  fail(kind: 'pack' | 'graph' | 'config', name: string, code: string, message: string, detail?: unknown): false;
}

function printer(io: CliIo, json: boolean): Printer {
  return {
    ok(kind, name, digest, alias, created) {
      if (json)
        io.stdout(`${JSON.stringify({ kind, name, published: true, digest: `sha256:${digest}`, alias, created })}\n`);
      else
        io.stdout(
          `${terminalText(`sha256:${digest}  ${alias}  (${kind} ${name}${created ? '' : ', already published'})`)}\n`,
        );
    },
    fail(kind, name, code, message, detail) {
      io.stderr(`docket publish: ${terminalText(`${kind} ${name}: ${code}: ${message}`)}\n`);
      if (json)
        io.stdout(
          `${JSON.stringify({ kind, name, published: false, code, ...(detail === undefined ? {} : { detail }) })}\n`,
        );
      return false;
    },
  };
}

/** true when everything was published. */
export async function publishGraph(
  configPath: string,
  graphPath: string,
  stack: StackClients,
  io: CliIo,
  json: boolean,
  skipTests = false,
): Promise<boolean> {
  const p = printer(io, json);
  const read = await readProject(configPath, graphPath);
  if (!read.ok) return p.fail('config', configPath, read.error.code, read.error.message);
  const graph = await readFileOr(graphPath);
  if (!graph.ok) return p.fail('graph', graphPath, 'JPS-GRAPH-READ', `cannot read ${graphPath}: ${graph.message}`);
  const project = read.project;
  const v = validateGraph(graph.bytes, project);
  if (v.status !== 'valid') {
    for (const d of v.diagnostics)
      io.stderr(`  ${terminalText(`${d.code}${d.path ? ` at ${d.path}` : ''}: ${d.message}`)}\n`);
    return p.fail('graph', graphPath, 'graph-invalid', 'the graph is not valid; nothing published', v.diagnostics);
  }
  const closure = closureOf(graph.bytes, project);
  if (!closure.ok)
    return p.fail('graph', graphPath, 'graph-not-closed', closure.findings.map((f) => f.message).join('; '));
  const gate = await publishGate(
    read.loaded,
    {
      packs: Object.keys(closure.closure.packs),
      graphs: [...(project.rootName !== undefined ? [project.rootName] : []), ...Object.keys(closure.closure.graphs)],
    },
    skipTests,
    io,
  );
  if (!gate.ok) return p.fail('graph', graphPath, 'tests-failed', gate.message);
  const rows = gate.testedRows;
  let failed = false;
  for (const name of Object.keys(closure.closure.packs))
    if (!(await publishPack(name, project, stack, p))) failed = true;
  const done = new Map<string, boolean>();
  for (const name of Object.keys(closure.closure.graphs))
    if (!(await publishSubgraph(name, project, stack, p, done, rows))) failed = true;
  // A member that failed would be missing: the registry's closed-set check refuses the graph all the same.
  const own = project.rootName === undefined ? undefined : rows.get(project.rootName);
  return (await publishOne(graphPath, graph.bytes, project, stack, p, own)) && !failed;
}

async function publishPack(name: string, project: GraphProject, stack: StackClients, p: Printer): Promise<boolean> {
  const file = project.packs.get(name);
  if (!file?.ok) return p.fail('pack', name, 'pack-missing', 'not readable');
  const v = validatePack(file.bytes);
  if (!v.conformant || !v.pack)
    return p.fail('pack', name, 'pack-not-conformant', `not conformant (${v.class}); not published`, v.diagnostics);
  const plain = v.pack.plain as { id: string; version: string };
  const out = await stack.registry.publish(String(plain.id), String(plain.version), file.bytes);
  if (!out.ok) return p.fail('pack', name, out.code, out.message);
  p.ok('pack', name, out.digest, out.alias, out.created);
  return true;
}

/** A subgraph after its own subgraphs (its closure lists them all), each once. */
async function publishSubgraph(
  name: string,
  project: GraphProject,
  stack: StackClients,
  p: Printer,
  done: Map<string, boolean>,
  rows: ReadonlyMap<string, TestedRows>,
): Promise<boolean> {
  const seen = done.get(name);
  if (seen !== undefined) return seen;
  done.set(name, false); // a cycle was refused by validation; this only guards the walk
  const file = project.graphs.get(name)!;
  if (!file.ok) return false;
  const own = closureOf(file.bytes, project);
  let ok = own.ok;
  if (own.ok)
    for (const child of Object.keys(own.closure.graphs))
      if (!(await publishSubgraph(child, project, stack, p, done, rows))) ok = false;
  ok = (await publishOne(name, file.bytes, project, stack, p, rows.get(name))) && ok;
  done.set(name, ok);
  return ok;
}

async function publishOne(
  name: string,
  bytes: Uint8Array,
  project: GraphProject,
  stack: StackClients,
  p: Printer,
  testedRows: TestedRows | undefined,
): Promise<boolean> {
  const closure = closureOf(bytes, project);
  if (!closure.ok) return p.fail('graph', name, 'graph-not-closed', closure.findings.map((f) => f.message).join('; '));
  const out = await stack.graphs.publishGraph(
    bytes,
    testedRows === undefined ? closure.closure : { ...closure.closure, testedRows },
  );
  if (!out.ok)
    return p.fail('graph', name, out.code, out.message, out.code === 'graph-not-closed' ? out.findings : undefined);
  p.ok('graph', name, out.digest, out.alias, out.created);
  return true;
}
