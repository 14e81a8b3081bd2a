/**
 * The one reader of a project (`jpack.json`) for every command that reads one — `graph validate|evaluate`,
 * `docket test`, `publish --config`, the `npm start -- --graphs` demo — and the one place the file system is asked
 * about it. core/project checks the configuration's shape and the lexical half of the runtime's containment rule;
 * this edge adds the access-time half the schema's `relativePath` describes: a declared file is opened only when
 * its real path (every symlinked component followed) stays inside the configuration's real directory, its final
 * component is not a symlink (O_NOFOLLOW) and it is a regular file. An `audit` directory need not exist; its
 * nearest existing ancestor must resolve inside (ADR 0430).
 */
import { constants } from 'node:fs';
import { open, readFile, realpath } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { SourceFile } from '../../core/graph/index.js';
import {
  expectedVersionMismatch,
  parseJpackConfig,
  type ConfigError,
  type JpackConfig,
} from '../../core/project/index.js';

/** Why a project did not load: its configuration could not be read (io), or the configuration is refused. */
export type ProjectLoadError =
  { readonly kind: 'read'; readonly message: string } | { readonly kind: 'config'; readonly error: ConfigError };

export interface LoadedProject {
  readonly configPath: string;
  /** The configuration's real directory: every declared path resolves inside it. */
  readonly dir: string;
  readonly config: JpackConfig;
  /** Every pack and graph the configuration names, each read once (B3 "one snapshot"). */
  readonly packs: ReadonlyMap<string, SourceFile>;
  readonly graphs: ReadonlyMap<string, SourceFile>;
}

export type ProjectLoad =
  { readonly ok: true; readonly project: LoadedProject } | { readonly ok: false; readonly error: ProjectLoadError };

/** A declared path refused: `code`, the member that declares it, and why. */
const pathRefusal = (code: ConfigError['code'], member: string, rel: string, why: string): ConfigError => ({
  code,
  member,
  message: `jpack.json ${member}: ${JSON.stringify(rel)} ${why}`,
});
const outside = (member: string, rel: string, why: string) => pathRefusal('config-path-outside', member, rel, why);

const errno = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

const inside = (dir: string, real: string): boolean => real.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

/**
 * One declared file under the containment rule: a ConfigError when it escapes or is not a regular file, otherwise
 * its bytes or why they could not be read (a missing file is left to the layer that needs it).
 */
export async function readDeclared(dir: string, member: string, rel: string): Promise<SourceFile | ConfigError> {
  const path = join(dir, rel);
  let real: string;
  try {
    real = await realpath(path);
  } catch (e) {
    return { ok: false, message: errno(e) };
  }
  if (!inside(dir, real)) return outside(member, rel, 'resolves outside the project directory through a symlink');
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ELOOP') return pathRefusal('config-path-not-file', member, rel, 'is a symlink');
    return { ok: false, message: errno(e) };
  }
  try {
    if (!(await handle.stat()).isFile())
      return pathRefusal('config-path-not-file', member, rel, 'is not a regular file');
    return { ok: true, bytes: new Uint8Array(await handle.readFile()) };
  } catch (e) {
    return { ok: false, message: errno(e) };
  } finally {
    await handle.close();
  }
}

/** The audit directory need not exist; the nearest existing ancestor of it must resolve inside the project. */
async function auditInside(dir: string, rel: string): Promise<ConfigError | undefined> {
  let at = join(dir, rel);
  for (;;) {
    try {
      const real = await realpath(at);
      return real === dir || inside(dir, real)
        ? undefined
        : outside('/audit/dir', rel, 'resolves outside the project directory through a symlink');
    } catch {
      const up = dirname(at);
      if (up === at) return undefined;
      at = up;
    }
  }
}

const isConfigError = (x: SourceFile | ConfigError): x is ConfigError => 'code' in x;

/** Reads jpack.json and every pack and graph it names; refuses the project at the first member that breaks a rule. */
export async function loadProject(configPath: string): Promise<ProjectLoad> {
  let bytes: Uint8Array;
  let dir: string;
  try {
    bytes = new Uint8Array(await readFile(configPath));
    dir = await realpath(dirname(resolve(configPath)));
  } catch (e) {
    return { ok: false, error: { kind: 'read', message: `cannot read ${configPath}: ${errno(e)}` } };
  }
  const parsed = parseJpackConfig(bytes);
  if (!parsed.ok) return { ok: false, error: { kind: 'config', error: parsed.error } };
  const config = parsed.value;
  const refuse = (error: ConfigError): ProjectLoad => ({ ok: false, error: { kind: 'config', error } });
  const packs = new Map<string, SourceFile>();
  for (const [name, entry] of config.packs) {
    const f = await readDeclared(dir, `/packs/${name}/path`, entry.path);
    if (isConfigError(f)) return refuse(f);
    const mismatch = f.ok ? expectedVersionMismatch(name, entry, f.bytes) : undefined;
    if (mismatch !== undefined) return refuse(mismatch);
    packs.set(name, f);
  }
  const graphs = new Map<string, SourceFile>();
  for (const [name, entry] of config.graphs) {
    const f = await readDeclared(dir, `/graphs/${name}/path`, entry.path);
    if (isConfigError(f)) return refuse(f);
    graphs.set(name, f);
  }
  if (config.audit !== undefined) {
    const bad = await auditInside(dir, config.audit.dir);
    if (bad !== undefined) return refuse(bad);
  }
  return { ok: true, project: { configPath, dir, config, packs, graphs } };
}

export { isConfigError };

/** A refused load in one line: the read failure, or the configuration's refusal with its member and stable code. */
export const loadErrorMessage = (e: ProjectLoadError): string =>
  e.kind === 'read' ? e.message : `${e.error.message} (${e.error.code})`;
