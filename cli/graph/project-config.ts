/**
 * A project as the graph layer takes it (core/graph's GraphProject), from the one project reader
 * (cli/project/read-project.ts): the configuration refused is `JPS-GRAPH-CONFIG` (exit 3) with the member and the
 * reader's stable code in its message, an unreadable configuration `JPS-GRAPH-CONFIG-READ` (exit 4).
 */
import { readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { refusal, type GraphProject, type GraphRefusal, type SourceFile } from '../../core/graph/index.js';
import { EXIT } from '../args.js';
import type { ConfigError } from '../../core/project/index.js';
import { loadProject, type LoadedProject } from '../project/read-project.js';

export type ProjectRead =
  | { readonly ok: true; readonly project: GraphProject; readonly loaded: LoadedProject }
  | { readonly ok: false; readonly error: GraphRefusal };

export const configRefusal = (e: ConfigError): GraphRefusal =>
  refusal('invocation', 'JPS-GRAPH-CONFIG', EXIT.GRAPH_INVOCATION, `${e.message} (${e.code})`);

/** The project's files as the graph layer reads them, the root graph named when the configuration declares it. */
export async function readProject(configPath: string, graphPath: string): Promise<ProjectRead> {
  const load = await loadProject(configPath);
  if (!load.ok)
    return {
      ok: false,
      error:
        load.error.kind === 'read'
          ? refusal('invocation', 'JPS-GRAPH-CONFIG-READ', EXIT.GRAPH_IO, load.error.message)
          : configRefusal(load.error.error),
    };
  const loaded = load.project;
  return { ok: true, project: graphProjectOf(loaded, await rootNameOf(loaded, graphPath)), loaded };
}

/** The GraphProject of a loaded project, with the `graphs` name of the root document when it is one of them. */
export function graphProjectOf(loaded: LoadedProject, rootName?: string): GraphProject {
  return { packs: loaded.packs, graphs: loaded.graphs, ...(rootName !== undefined ? { rootName } : {}) };
}

async function rootNameOf(loaded: LoadedProject, graphPath: string): Promise<string | undefined> {
  const real = await realpath(graphPath).catch(() => resolve(graphPath));
  return [...loaded.config.graphs].find(([, g]) => join(loaded.dir, g.path) === real)?.[0];
}

export async function readFileOr(path: string): Promise<SourceFile> {
  try {
    return { ok: true, bytes: new Uint8Array(await readFile(path)) };
  } catch (e) {
    return { ok: false, message: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
}
