/**
 * Reading a project configuration, the reference runtime's `jpack.json` shape (graph-semantics.md decision 13):
 * `{"configVersion": "2", "packs": {id: {path}}, "graphs": {name: {path}}}`, then every file it names, each read
 * once so all instances of one subgraph share one snapshot (B3). Paths are relative to the configuration's own
 * directory and may not leave it (ADR 0314): a project is one reviewable tree.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { readJson, type JsonValue } from '../../core/carrier/index.js';
import { refusal, type GraphProject, type GraphRefusal, type SourceFile } from '../../core/graph/index.js';
import { EXIT } from '../args.js';

export type ProjectRead =
  { readonly ok: true; readonly project: GraphProject } | { readonly ok: false; readonly error: GraphRefusal };

const configError = (message: string): ProjectRead => ({
  ok: false,
  error: refusal('invocation', 'JPS-GRAPH-CONFIG', EXIT.GRAPH_INVOCATION, message),
});

async function source(path: string): Promise<SourceFile> {
  try {
    return { ok: true, bytes: new Uint8Array(await readFile(path)) };
  } catch (e) {
    return { ok: false, message: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
}

/** The `{id: {path}}` table under `member`, each path resolved inside `base`; a string when it is malformed. */
function table(root: JsonValue, member: string, base: string): Map<string, string> | string {
  if (root.kind !== 'object') return 'the configuration is not a JSON object';
  const t = root.members.get(member);
  const out = new Map<string, string>();
  if (t === undefined) return out;
  if (t.kind !== 'object') return `"${member}" is not an object`;
  for (const [name, entry] of t.members) {
    const p = entry.kind === 'object' ? entry.members.get('path') : undefined;
    if (entry.kind !== 'object' || p?.kind !== 'string' || p.value === '' || entry.members.size !== 1)
      return `"${member}" entry ${JSON.stringify(name)} must be {"path": "<relative path>"}`;
    const full = resolve(base, p.value);
    const rel = relative(base, full);
    if (isAbsolute(p.value) || rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
      return `"${member}" entry ${JSON.stringify(name)} names a path outside the configuration's directory (ADR 0314)`;
    out.set(name, full);
  }
  return out;
}

export async function readProject(configPath: string, graphPath: string): Promise<ProjectRead> {
  const bytes = await source(configPath);
  if (!bytes.ok)
    return {
      ok: false,
      error: refusal(
        'invocation',
        'JPS-GRAPH-CONFIG-READ',
        EXIT.GRAPH_IO,
        `cannot read ${configPath}: ${bytes.message}`,
      ),
    };
  const tree = readJson(bytes.bytes);
  if (!tree.ok) return configError(`the configuration is not a strict JSON text: ${tree.error.message}`);
  const root = tree.value;
  if (root.kind !== 'object') return configError('the configuration is not a JSON object');
  const version = root.members.get('configVersion');
  if (version?.kind !== 'string' || version.value !== '2')
    return configError('the configuration must declare "configVersion": "2" (the runtime\'s jpack.json shape)');
  for (const name of root.members.keys())
    if (!['configVersion', 'packs', 'graphs'].includes(name))
      return configError(`the configuration has an unknown member ${JSON.stringify(name)}`);
  const base = dirname(resolve(configPath));
  const packs = table(root, 'packs', base);
  if (typeof packs === 'string') return configError(packs);
  const graphs = table(root, 'graphs', base);
  if (typeof graphs === 'string') return configError(graphs);
  const read = async (t: Map<string, string>): Promise<Map<string, SourceFile>> =>
    new Map(await Promise.all([...t].map(async ([k, p]) => [k, await source(p)] as const)));
  const rootPath = resolve(graphPath);
  const rootName = [...graphs].find(([, p]) => p === rootPath)?.[0];
  return {
    ok: true,
    project: { packs: await read(packs), graphs: await read(graphs), ...(rootName !== undefined ? { rootName } : {}) },
  };
}

export async function readFileOr(path: string): Promise<SourceFile> {
  return source(path);
}
