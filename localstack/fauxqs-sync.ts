/**
 * fauxqs 2 opens its SQLite database in WAL mode with SQLite's default `synchronous = FULL`: an fsync on every
 * commit, and it commits every queue mutation — 182 sends/s instead of 23,500 on this machine, far below the
 * pipeline's 300 requests/s. `synchronous = NORMAL` in WAL mode still writes every commit to the WAL before the
 * call returns, so a killed process (SIGKILL, a crash) loses nothing; only an OS crash or power loss may lose the
 * last commits — the guarantee dynalite's LevelDB gives the tables beside it (ADR 0111, ADR 0421). fauxqs has no option for
 * it, so its persistence class is patched once, before any stack starts: the connection's pragma is set when the
 * stored state is loaded, which startFauxqs does right after opening the database and before serving.
 */
import { fauxqsModule, patchOnce } from './fauxqs-module.js';

export class FauxqsSyncError extends Error {
  readonly code = 'fauxqs-persistence-unknown';
}

const PATCHED = Symbol.for('docket.fauxqs.synchronous-normal');
type Loader = (this: { db?: { exec(sql: string): void } }, ...args: unknown[]) => unknown;

export const useNormalSqliteSync = patchOnce(patch);

async function patch(): Promise<void> {
  const mod = await fauxqsModule<{ PersistenceManager?: { prototype: Record<string, unknown> } }>(
    'persistence.js',
    (m) => new FauxqsSyncError(m),
  );
  const proto = mod.PersistenceManager?.prototype;
  if (!proto || typeof proto.load !== 'function' || typeof proto.loadSqsAndSns !== 'function')
    throw new FauxqsSyncError('fauxqs PersistenceManager has changed shape; review localstack/fauxqs-sync.ts');
  if (proto[PATCHED as never]) return;
  for (const name of ['load', 'loadSqsAndSns'] as const) {
    const original = proto[name] as Loader;
    proto[name] = function (this: ThisParameterType<Loader>, ...args: unknown[]) {
      this.db?.exec('PRAGMA synchronous = NORMAL');
      return original.apply(this, args);
    } as Loader;
  }
  proto[PATCHED as never] = true as never;
}
