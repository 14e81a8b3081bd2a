/**
 * The evaluator build digest recorded in every entry (docs/adr/0072-evaluator-build-digest.md): SHA-256 of the
 * deployed code, computed at cold start from the files actually loaded.
 *   - Lambda: the function is one esbuild bundle (index.mjs), so the digest is SHA-256 of that file's bytes — the
 *     same value `sha256sum` gives for the artifact and that a trust policy can allow-list.
 *   - Unbundled (the local stack runs dist/ from tsc): SHA-256 over the sorted relative paths and bytes of every
 *     .js file under dist/{core,functions,adapters}, so any change of evaluator code changes the digest.
 * DOCKET_BUILD_DIGEST overrides both (e.g. a digest pinned by the deploy pipeline); it must be 64 lowercase hex.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export function buildDigest(env: NodeJS.ProcessEnv, moduleUrl: string): string {
  const pinned = env.DOCKET_BUILD_DIGEST;
  if (pinned !== undefined && pinned !== '') {
    if (!/^[0-9a-f]{64}$/.test(pinned)) throw new Error('DOCKET_BUILD_DIGEST must be 64 lowercase hex digits');
    return pinned;
  }
  const file = fileURLToPath(moduleUrl);
  const functionsDir = dirname(file);
  const root = dirname(functionsDir);
  // Unbundled when this module sits in <root>/functions and <root>/core exists beside it.
  if (functionsDir.endsWith(`${sep}functions`) && exists(join(root, 'core')))
    return treeDigest(root, ['core', 'functions', 'adapters']);
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function exists(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** SHA-256 over "path\0length\0bytes" of every .js/.ts file under the given folders, in sorted path order. */
export function treeDigest(root: string, folders: readonly string[]): string {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(m?js|ts)$/.test(name) && !name.endsWith('.d.ts')) files.push(p);
    }
  };
  for (const f of folders) if (exists(join(root, f))) walk(join(root, f));
  const h = createHash('sha256');
  for (const p of files.map((f) => relative(root, f).split(sep).join('/')).sort()) {
    const bytes = readFileSync(join(root, p));
    h.update(`${p}\0${bytes.length}\0`).update(bytes);
  }
  return h.digest('hex');
}
