/**
 * Builds Docket's publishable packages, every folder under packages/ into dist/packages/<folder>/ ready for `npm pack`,
 * with the layout and the refusals docs/adr/0440-packages-built-from-the-repository-folders.md decides. The template's
 * "docket" section names the entries ({ "entries": { "<entry>": "src/<entry>.ts" }, "platform": "node" | "neutral" })
 * and what scripts/package-extras.mjs adds ("prebuiltHandlers"; "layout": "repository" with "copy" and "exclude").
 *
 *   node scripts/build-packages.mjs [--pack] [--api-report] [folder ...]
 *
 * --pack writes dist/tarballs/<name>-<version>.tgz with `npm pack`; --api-report rewrites packages/<folder>/api.md
 * (on purpose: test/packages/api-report.test.ts fails whenever the built API differs from the committed report).
 */
import { execFileSync } from 'node:child_process';
import { isBuiltin } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';
import { apiReport } from './api-report.mjs';
import { compilerHostSharingInstalled } from './installed-declarations.mjs';
import { copyRepositoryLayout, writePrebuiltHandlers } from './package-extras.mjs';

export const ROOT = resolve(import.meta.dirname, '..');
export const PACKAGES_DIR = join(ROOT, 'packages');
export const OUT_DIR = join(ROOT, 'dist', 'packages');
export const TARBALL_DIR = join(ROOT, 'dist', 'tarballs');

/** Packages a bundle may contain only as a declared (external) dependency: the heavy or cloud-bound ones. */
const NEVER_BUNDLED = [
  /^aws-cdk-lib(\/|$)/,
  /^constructs(\/|$)/,
  /^@aws-sdk\//,
  /^@smithy\//,
  /^ajv\/dist\/(compile|core|ajv)/,
];

/** A package's build failed one of the rules: the message says which and where. */
export class PackageBuildError extends Error {
  constructor(folder, message) {
    super(`packages/${folder}: ${message}`);
    this.name = 'PackageBuildError';
  }
}

/** Every package folder (a folder under packages/ with a package.json), sorted. */
export function packageFolders(packagesDir = PACKAGES_DIR) {
  if (!existsSync(packagesDir)) return [];
  return readdirSync(packagesDir)
    .filter((f) => existsSync(join(packagesDir, f, 'package.json')))
    .sort();
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The template read and checked: name, version, entries, and every dependency range against the repository's. */
export function readTemplate(folder, packagesDir = PACKAGES_DIR) {
  const template = readJson(join(packagesDir, folder, 'package.json'));
  const fail = (m) => {
    throw new PackageBuildError(folder, m);
  };
  if (typeof template.name !== 'string' || !/^(@docket\/[a-z0-9-]+|docket)$/.test(template.name))
    fail(`name ${JSON.stringify(template.name)} is not @docket/<name> or docket`);
  if (typeof template.version !== 'string' || !SEMVER.test(template.version))
    fail(`version ${JSON.stringify(template.version)} is not a semantic version`);
  if (template.type !== 'module') fail('"type" must be "module" (the packages are ESM)');
  if (template.exports === undefined) fail('no "exports" map: only exported paths are importable');
  const cfg = template.docket;
  if (cfg?.layout === 'repository') {
    if (!Array.isArray(cfg.copy) || cfg.copy.length === 0) fail('a "repository" layout names no "copy" paths');
  } else if (cfg === undefined || typeof cfg.entries !== 'object' || Object.keys(cfg.entries).length === 0)
    fail('no "docket": { "entries": { … } } build section');
  if (cfg.platform !== undefined && cfg.platform !== 'node' && cfg.platform !== 'neutral')
    fail(`platform ${JSON.stringify(cfg.platform)} is neither "node" nor "neutral"`);
  const root = readJson(join(ROOT, 'package.json'));
  const rootRanges = { ...root.devDependencies, ...root.dependencies };
  const siblings = new Map(
    packageFolders(packagesDir).map((f) => [readJson(join(packagesDir, f, 'package.json')).name, f]),
  );
  for (const field of ['dependencies', 'peerDependencies']) {
    for (const [dep, range] of Object.entries(template[field] ?? {})) {
      const sibling = siblings.get(dep);
      const expected = sibling ? readJson(join(packagesDir, sibling, 'package.json')).version : rootRanges[dep];
      if (expected === undefined) fail(`${field} names ${dep}, which the repository does not use`);
      if (range !== expected && range !== `^${expected}`)
        fail(`${field}.${dep} is ${range}; the repository builds against ${expected}: keep one version`);
    }
  }
  return template;
}

/** The bare package name of a module specifier (`@a/b/c` → `@a/b`, `x/y` → `x`), or null for a relative one. */
function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** esbuild bundles of the entries, dependencies external; refuses a bundled NEVER_BUNDLED module. */
async function bundle(folder, template, outDir) {
  const cfg = template.docket;
  const declared = Object.keys({ ...template.dependencies, ...template.peerDependencies });
  const platform = cfg.platform ?? 'node';
  for (const [entry, source] of Object.entries(cfg.entries)) {
    const outfile = join(outDir, 'dist', `${entry}.js`);
    const result = await build({
      entryPoints: [join(PACKAGES_DIR, folder, source)],
      absWorkingDir: ROOT,
      bundle: true,
      format: 'esm',
      platform,
      target: platform === 'node' ? 'node22' : 'es2022',
      mainFields: ['module', 'main'],
      conditions: platform === 'neutral' ? ['browser', 'import'] : ['import'],
      external: declared.flatMap((d) => [d, `${d}/*`]),
      keepNames: true,
      metafile: true,
      outfile,
      logLevel: 'error',
      // CommonJS modules bundled into ESM may call require() for node built-ins (as the Lambda bundles do).
      ...(platform === 'node'
        ? {
            banner: {
              js: "import { createRequire as __docketRequire } from 'node:module'; const require = __docketRequire(import.meta.url);",
            },
          }
        : {}),
    });
    for (const input of Object.keys(result.metafile.inputs)) {
      const at = input.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const path = input.slice(at + 'node_modules/'.length);
      if (NEVER_BUNDLED.some((r) => r.test(path)))
        throw new PackageBuildError(
          folder,
          `${entry} bundles ${path}: declare its package as a dependency or do not import it`,
        );
    }
  }
}

/** The declaration files reachable from `roots` through relative imports and re-exports, among `texts` (by path). */
function reachableDeclarations(roots, texts) {
  const seen = new Set();
  const queue = roots.filter((r) => texts.has(r));
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of texts.get(file).matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)) {
      const base = resolve(dirname(file), m[1]);
      const candidates = [base.replace(/\.js$/, '.d.ts'), `${base}.d.ts`, join(base, 'index.d.ts')];
      const next = candidates.find((c) => c.endsWith('.d.ts') && texts.has(c));
      if (next !== undefined) queue.push(next);
    }
  }
  return seen;
}

/**
 * tsc's declarations for the entries of every package in `folders` (the repository's compiler options, declarations
 * only), from ONE program: the packages share most of core/, and a program per package parsed and checked it once
 * each. A declaration file's text does not depend on the other roots, so each package gets the same tree it would
 * from a program of its own. Returns each emitted file's text by its path relative to the repository. Fails on a type
 * error in any of the packages (the message names the file).
 */
export function emitDeclarations(folders) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const entries = folders.flatMap((folder) =>
    Object.values(readTemplate(folder).docket.entries).map((s) => join(PACKAGES_DIR, folder, s)),
  );
  const outDir = join(ROOT, '.declarations');
  const options = {
    ...config.options,
    declaration: true,
    emitDeclarationOnly: true,
    noEmit: false,
    outDir,
    rootDir: ROOT,
    incremental: false,
    tsBuildInfoFile: undefined,
  };
  // The API reports of the same process reuse what this program parsed of the installed declarations.
  const program = ts.createProgram(entries, options, compilerHostSharingInstalled(options));
  const emitted = new Map();
  const diagnostics = [
    ...ts.getPreEmitDiagnostics(program),
    ...program.emit(undefined, (file, text) => emitted.set(relative(outDir, file), text)).diagnostics,
  ];
  if (diagnostics.length > 0)
    throw new PackageBuildError(
      folders.join(', packages/'),
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      }),
    );
  return emitted;
}

/**
 * A package's declaration tree under `<outDir>/types` from `declarations` (emitDeclarations), and one
 * `dist/<entry>.d.ts` per entry pointing into it. Fails on a declaration that names a package the users would not
 * have installed.
 */
export function emitTypes(folder, template, outDir, declarations) {
  const typesDir = join(outDir, 'types');
  const texts = new Map([...declarations].map(([path, text]) => [join(typesDir, path), text]));
  // Only what the entries' declarations reach is shipped and checked: tsc also emits a declaration for every module
  // the implementation imports (e.g. generated validators behind a barrel), which no user's compiler ever reads.
  const roots = Object.values(template.docket.entries).map((src) =>
    join(typesDir, 'packages', folder, src.replace(/\.ts$/, '.d.ts')),
  );
  const declared = new Set(Object.keys({ ...template.dependencies, ...template.peerDependencies }));
  for (const file of reachableDeclarations(roots, texts)) {
    const text = texts.get(file);
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
      const pkg = packageOf(m[1]);
      if (pkg !== null && !isBuiltin(m[1]) && !declared.has(pkg))
        throw new PackageBuildError(
          folder,
          `${relative(outDir, file)} names ${m[1]}, which is not a dependency of ${template.name}`,
        );
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  for (const [entry, source] of Object.entries(template.docket.entries)) {
    const target = join(typesDir, 'packages', folder, source.replace(/\.ts$/, '.js'));
    const stub = join(outDir, 'dist', `${entry}.d.ts`);
    mkdirSync(dirname(stub), { recursive: true });
    const rel = relative(dirname(stub), target).split('\\').join('/');
    writeFileSync(stub, `export * from '${rel.startsWith('.') ? rel : `./${rel}`}';\n`);
  }
}

/** Every path the package.json promises ("exports", "types", "bin"), relative to the package. */
function promisedPaths(manifest) {
  const paths = [];
  const walk = (v) => {
    if (typeof v === 'string') paths.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(manifest.exports);
  walk(manifest.types);
  walk(manifest.bin);
  return paths;
}

/**
 * Builds package folders, each into `<outRoot>/<folder>/` (default dist/packages/; tests give their own directory
 * under it, so that builds running at once never delete each other's output); returns each one's manifest and
 * directory, in order. `assets: false` leaves out what the API needs not (the prebuilt handlers).
 */
export async function buildPackages(folders, { outRoot = OUT_DIR, assets = true } = {}) {
  const templates = folders.map((folder) => readTemplate(folder));
  const typed = folders.filter((_, i) => templates[i].docket.layout !== 'repository');
  const declarations = typed.length > 0 ? emitDeclarations(typed) : new Map();
  const built = [];
  for (const [i, folder] of folders.entries())
    built.push(await buildOne(folder, templates[i], outRoot, assets, declarations));
  return built;
}

/** Builds one package folder (buildPackages). */
export async function buildPackage(folder, options = {}) {
  const [built] = await buildPackages([folder], options);
  return built;
}

async function buildOne(folder, template, outRoot, assets, declarations) {
  const outDir = join(outRoot, folder);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'dist'), { recursive: true });
  if (template.docket.layout === 'repository') copyRepositoryLayout(template, outDir);
  else {
    await bundle(folder, template, outDir);
    emitTypes(folder, template, outDir, declarations);
  }
  if (assets && template.docket.prebuiltHandlers === true) writePrebuiltHandlers(outDir);
  const { docket: _build, ...manifest } = template;
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const doc of ['README.md', 'CHANGELOG.md']) {
    const from = join(PACKAGES_DIR, folder, doc);
    if (!existsSync(from)) throw new PackageBuildError(folder, `no ${doc}`);
    copyFileSync(from, join(outDir, doc));
  }
  for (const p of promisedPaths(manifest))
    if (!existsSync(join(outDir, p)))
      throw new PackageBuildError(folder, `package.json promises ${p}, which the build did not write`);
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

/** Whether a package has an API report: one of entries does; the CLI's interface is its commands (ADR 0448). */
export function hasApiReport(folder) {
  return readTemplate(folder).docket.layout !== 'repository';
}

/** The API report of a built package (its first entry's declarations), as committed in packages/<folder>/api.md. */
export function builtApiReport(folder, manifest, dir) {
  const entries = Object.keys(readTemplate(folder).docket.entries);
  return apiReport(
    manifest.name,
    entries.map((e) => ({ entry: e, file: join(dir, 'dist', `${e}.d.ts`) })),
  );
}

async function main(argv) {
  const pack = argv.includes('--pack');
  const report = argv.includes('--api-report');
  const named = argv.filter((a) => !a.startsWith('--'));
  const folders = named.length > 0 ? named : packageFolders();
  // The report needs declarations only: the prebuilt handlers are built when the package is (packed).
  const built = await buildPackages(folders, { assets: pack || !report });
  for (const [i, folder] of folders.entries()) {
    const { manifest, dir } = built[i];
    let line = `${manifest.name}@${manifest.version} → ${relative(ROOT, dir)}`;
    if (report && hasApiReport(folder)) {
      writeFileSync(join(PACKAGES_DIR, folder, 'api.md'), builtApiReport(folder, manifest, dir));
      line += `, api.md rewritten`;
    }
    if (pack) line += `, ${relative(ROOT, packPackage(dir))}`;
    process.stdout.write(`${line}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch(async (e) => {
    process.stderr.write(`${e instanceof PackageBuildError ? e.message : (e.stack ?? String(e))}\n`);
    // The one exit-code table, as bin/docket.js reads it: from the build this script packs (npm run build first).
    const { EXIT } = await import('../dist/core/exit-codes.js');
    process.exit(EXIT.FAILED);
  });
}
