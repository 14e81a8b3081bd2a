/**
 * A module of fauxqs's own, for the local stack's patches of it (fauxqs-sync.ts, fauxqs-fifo-receive.ts,
 * fauxqs-dead-letter-source.ts): fauxqs exports only its entry point, so the module is found beside it — the file
 * app.js imports, so the same instance it serves with.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** fauxqs/dist/`rel`, or `fail`'s error (the patch's own typed one) when fauxqs has no such file. */
export async function fauxqsModule<T>(rel: string, fail: (message: string) => Error): Promise<T> {
  const dirs = createRequire(import.meta.url).resolve.paths('fauxqs') ?? [];
  const file = dirs.map((d) => join(d, 'fauxqs', 'dist', ...rel.split('/'))).find((f) => existsSync(f));
  if (!file) throw fail(`fauxqs/dist/${rel} not found`);
  return (await import(pathToFileURL(file).href)) as T;
}

/** A patch applied once per process, however many stacks start: every call shares the first call's promise. */
export function patchOnce(patch: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= patch());
}
