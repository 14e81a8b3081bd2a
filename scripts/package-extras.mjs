/**
 * What two packages need beyond an entry's bundle and declarations (scripts/build-packages.mjs calls these when the
 * template's "docket" section asks):
 *
 *   "prebuiltHandlers": true   handlers/<variant>/<name>/index.mjs, the four Lambda bundles DocketFunction builds
 *                              (@docket/cdk; docs/adr/0447-cdk-package-ships-prebuilt-handlers.md)
 *   "layout": "repository"     the built repository's files at their own paths ("copy", minus "exclude"): the CLI,
 *                              whose commands find their files by those paths (docket;
 *                              docs/adr/0448-cli-package-keeps-the-repository-layout.md). Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, globSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Runs infra/prebuild-handlers.ts on Node's own TypeScript support, so that DocketFunction stays the one definition of
 * how a handler is bundled.
 */
export function writePrebuiltHandlers(outDir) {
  execFileSync(
    process.execPath,
    [
      '--experimental-transform-types',
      '--no-warnings',
      '--import',
      pathToFileURL(join(ROOT, 'scripts', 'ts-resolve-hooks.mjs')).href,
      join(ROOT, 'infra', 'prebuild-handlers.ts'),
      outDir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/** The template's `copy` paths (files, folders or globs) from the repository, at the same paths, minus `exclude`. */
export function copyRepositoryLayout(template, outDir) {
  const exclude = new Set(template.docket.exclude ?? []);
  for (const pattern of template.docket.copy) {
    const matches = globSync(pattern, { cwd: ROOT });
    if (matches.length === 0) throw new Error(`${pattern} matches nothing in the repository: run npm run build first`);
    for (const rel of matches) {
      if (pattern.includes('*') && statSync(join(ROOT, rel)).isDirectory()) continue;
      mkdirSync(dirname(join(outDir, rel)), { recursive: true });
      cpSync(join(ROOT, rel), join(outDir, rel), {
        recursive: true,
        filter: (src) => !exclude.has(relative(ROOT, src).split('\\').join('/')),
      });
    }
  }
}
