/**
 * Builds and packs the two packages whose contents are more than an entry's bundle
 * (docs/adr/0448-cli-package-keeps-the-repository-layout.md, docs/adr/0447-cdk-package-ships-prebuilt-handlers.md):
 *
 *   packages/cdk → dist/packages/cdk/   dist/index.js (esbuild ESM bundle of src/index.ts, aws-cdk-lib and constructs
 *                                       external), types/ (tsc declarations) with dist/index.d.ts pointing into them,
 *                                       and handlers/<variant>/<name>/index.mjs, the four Lambda bundles
 *                                       DocketFunction builds (infra/prebuild-handlers.ts)
 *   packages/cli → dist/packages/cli/   the `docket` command as the repository runs it: bin/docket.js, the compiled
 *                                       dist/ folders, the conformance corpus, examples/ and the built console, at
 *                                       their repository paths (the commands find their files by those paths);
 *                                       needs `npm run build` first
 *
 * Each gets its manifest (the template without its "docket" build section), README.md and CHANGELOG.md; `--pack`
 * runs `npm pack` into dist/tarballs/. The manifest's layout follows the package folders' convention
 * (docs/adr/0440-packages-built-from-the-repository-folders.md).
 *
 *   node scripts/pack-cdk-cli.mjs [--pack] [cdk|cli ...]
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  globSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const OUT_DIR = join(ROOT, 'dist', 'packages');
export const TARBALL_DIR = join(ROOT, 'dist', 'tarballs');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The manifest, README and CHANGELOG of a package folder, written into its output directory. */
function writeManifest(folder, template, outDir) {
  const { docket: _build, ...manifest } = template;
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const doc of ['README.md', 'CHANGELOG.md']) copyFileSync(join(ROOT, 'packages', folder, doc), join(outDir, doc));
  return manifest;
}

/** esbuild bundle of each entry; the declared (peer) dependencies stay external. */
async function bundleEntries(folder, template, outDir) {
  const declared = Object.keys({ ...template.dependencies, ...template.peerDependencies });
  for (const [entry, source] of Object.entries(template.docket.entries)) {
    await build({
      entryPoints: [join(ROOT, 'packages', folder, source)],
      absWorkingDir: ROOT,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      mainFields: ['module', 'main'],
      external: declared.flatMap((d) => [d, `${d}/*`]),
      keepNames: true,
      outfile: join(outDir, 'dist', `${entry}.js`),
      logLevel: 'error',
      banner: {
        js: "import { createRequire as __docketRequire } from 'node:module'; const require = __docketRequire(import.meta.url);",
      },
    });
  }
}

/** tsc's declarations of the entries under types/, and dist/<entry>.d.ts re-exporting each. */
function emitTypes(folder, template, outDir) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  const entries = Object.values(template.docket.entries).map((s) => join(ROOT, 'packages', folder, s));
  const program = ts.createProgram(entries, {
    ...config.options,
    declaration: true,
    emitDeclarationOnly: true,
    noEmit: false,
    outDir: join(outDir, 'types'),
    rootDir: ROOT,
    incremental: false,
    tsBuildInfoFile: undefined,
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  if (diagnostics.length > 0)
    throw new Error(
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      }),
    );
  for (const [entry, source] of Object.entries(template.docket.entries)) {
    const target = join(outDir, 'types', 'packages', folder, source.replace(/\.ts$/, '.js'));
    const stub = join(outDir, 'dist', `${entry}.d.ts`);
    writeFileSync(stub, `export * from '${relative(dirname(stub), target).split('\\').join('/')}';\n`);
  }
}

/**
 * handlers/<variant>/<name>/index.mjs, bundled by DocketFunction itself (infra/prebuild-handlers.ts, run by Node's
 * own TypeScript support so that no second definition of the bundle exists).
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
      if (statSync(join(ROOT, rel)).isDirectory() && pattern.includes('*')) continue;
      mkdirSync(dirname(join(outDir, rel)), { recursive: true });
      cpSync(join(ROOT, rel), join(outDir, rel), {
        recursive: true,
        filter: (src) => !exclude.has(relative(ROOT, src).split('\\').join('/')),
      });
    }
  }
}

/** Builds packages/<folder> into dist/packages/<folder>/; returns its manifest and directory. */
export async function buildPackage(folder) {
  const template = readJson(join(ROOT, 'packages', folder, 'package.json'));
  const outDir = join(OUT_DIR, folder);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'dist'), { recursive: true });
  if (template.docket.layout === 'repository') copyRepositoryLayout(template, outDir);
  else {
    await bundleEntries(folder, template, outDir);
    emitTypes(folder, template, outDir);
  }
  if (template.docket.prebuiltHandlers === true) writePrebuiltHandlers(outDir);
  const manifest = writeManifest(folder, template, outDir);
  return { manifest, dir: outDir };
}

/** `npm pack` of a built package into dist/tarballs/; returns the tarball's path. */
export function packPackage(dir) {
  mkdirSync(TARBALL_DIR, { recursive: true });
  const out = execFileSync('npm', ['pack', dir, '--pack-destination', TARBALL_DIR, '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return join(TARBALL_DIR, JSON.parse(out)[0].filename);
}

async function main(argv) {
  const pack = argv.includes('--pack');
  const named = argv.filter((a) => !a.startsWith('--'));
  for (const folder of named.length > 0 ? named : ['cdk', 'cli']) {
    if (!existsSync(join(ROOT, 'packages', folder, 'package.json'))) throw new Error(`no packages/${folder}`);
    const { manifest, dir } = await buildPackage(folder);
    process.stdout.write(
      `${manifest.name}@${manifest.version} → ${relative(ROOT, dir)}${pack ? `, ${relative(ROOT, packPackage(dir))}` : ''}\n`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`${e.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
