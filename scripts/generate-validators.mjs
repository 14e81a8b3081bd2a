/**
 * Build step: writes core/pack/generated/pack-validators.ts, the pack schemas' validators (§3.2) as ajv standalone
 * code, so no process compiles a schema at start-up, as docs/adr/0330-precompiled-schema-validators.md decides (its
 * layout, its one ajv configuration, the test that keeps it in sync, scripts/ts-resolve-hooks.mjs to run it).
 *
 *   npm run generate        (part of `npm run build`, before tsc; the output is git-ignored and never hand-edited)
 */
import { existsSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import { build } from 'esbuild';
import { effectiveSchema, SCHEMA_KEYS, schemaKeyParts } from '../core/pack/effective-schema.js';
import { newPackAjv } from '../core/pack/schema-compiler.js';

const standaloneCode = standaloneCodeModule.default;
export const OUTPUT = fileURLToPath(new URL('../core/pack/generated/pack-validators.ts', import.meta.url));
/** The graph schemas' validators (core/graph/schemas.ts), so the evaluate bundle carries no ajv (ADR 0333, ADR 0363). */
export const GRAPH_OUTPUT = fileURLToPath(new URL('../core/graph/generated/graph-validators.ts', import.meta.url));
const GRAPH_SCHEMAS = [
  ['1', '../schema/runtime-graph-format-1.schema.json'],
  ['0.2.0-draft', '../schema/docket-graph-0.2.0-draft.schema.json'],
];

/** What the standalone code may `require`: ajv's and ajv-formats' runtime helpers, each an object like its exports. */
const RUNTIME = {
  'ajv/dist/runtime/ucs2length': '{ default: runtime.ucs2length }',
  'ajv/dist/runtime/equal': '{ default: runtime.equal }',
  'ajv-formats/dist/formats': '{ fullFormats: runtime.fullFormats }',
};

/**
 * Those helpers inlined (esbuild, one IIFE): the generated module then imports nothing at run time, so loading it
 * starts no CommonJS loader, and any bundler takes it as it is.
 */
async function runtimeHelpers() {
  const result = await build({
    stdin: {
      contents: [
        "export { default as ucs2length } from 'ajv/dist/runtime/ucs2length.js';",
        "export { default as equal } from 'ajv/dist/runtime/equal.js';",
        "export { fullFormats } from 'ajv-formats/dist/formats.js';",
      ].join('\n'),
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    globalName: 'runtime',
    platform: 'node',
    charset: 'ascii',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

function versionOf(pkg) {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;
}

/** A compiled schema as CommonJS standalone code, checked to name only the runtime helpers above. */
function standalone(ajv, schema, what) {
  const code = standaloneCode(ajv, ajv.compile(schema));
  for (const [, id] of code.matchAll(/require\((?:"|')([^"']+)(?:"|')\)/g))
    if (!(id in RUNTIME)) throw new Error(`${what}: the standalone code requires ${id}, not mapped`);
  return code;
}

/**
 * A generated module, as text: the header, the runtime helpers, then each validator in its own function scope, built
 * on first use, exported as `name` keyed as given.
 */
async function validatorsModule(header, doc, name, validators) {
  const out = [
    ...header,
    '// @ts-nocheck',
    '/* eslint-disable */',
    "import type { ValidateFunction } from 'ajv';",
    '',
    (await runtimeHelpers()).trim(),
    'const RUNTIME = {',
    ...Object.entries(RUNTIME).map(([id, value]) => `  ${JSON.stringify(id)}: ${value},`),
    '};',
    'const require = (id) => RUNTIME[id];',
    '',
  ];
  validators.forEach(([, code], i) =>
    out.push(
      `function load${i}() {`,
      '  const module = { exports: {} };',
      `  ${code}`,
      '  return module.exports;',
      '}',
    ),
  );
  out.push(
    '',
    `/** ${doc} */`,
    `export const ${name}: Readonly<Record<string, () => ValidateFunction>> = Object.freeze({`,
    ...validators.map(([key], i) => `  ${JSON.stringify(key)}: load${i},`),
    '});',
    '',
  );
  // All ASCII: a source with one non-ASCII character (the schemas' "§") is decoded by Node into a two-byte string,
  // which made loading this ~1 MB module several times slower. Escaped, the characters are the same in every string
  // and pattern (\uXXXX means the same UTF-16 unit in both).
  return out.join('\n').replace(/[^\t\n\r\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const OPTIONS = { code: { source: true, esm: false, lines: false, optimize: true } };

/** The pack validators' module: a pure function of the schemas and the ajv and ajv-formats versions. */
export function generateValidatorsModule() {
  const validators = SCHEMA_KEYS.map((key) => {
    const { specVersion, profile, quantifiers } = schemaKeyParts(key);
    const schema = effectiveSchema(specVersion, profile, true, quantifiers);
    return [key, standalone(newPackAjv(OPTIONS), schema, key)];
  });
  return validatorsModule(
    [
      '// GENERATED by scripts/generate-validators.mjs from schema/ and core/pack/effective-schema.ts: do not edit.',
      `// ajv ${versionOf('ajv')}, ajv-formats ${versionOf('ajv-formats')}, esbuild ${versionOf('esbuild')}. docs/adr/0330-precompiled-schema-validators.md.`,
    ],
    "Each SchemaKey's validator, built when first asked for.",
    'GENERATED_VALIDATORS',
    validators,
  );
}

/** The graph validators' module (core/graph/schemas.ts's ajv options): a pure function of the two graph schemas. */
export function generateGraphValidatorsModule() {
  const validators = GRAPH_SCHEMAS.map(([version, path]) => {
    const ajv = new Ajv2020Module.default({ allErrors: false, strict: false, ...OPTIONS });
    const schema = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
    return [version, standalone(ajv, schema, `graph ${version}`)];
  });
  return validatorsModule(
    [
      '// GENERATED by scripts/generate-validators.mjs from schema/*graph*.schema.json: do not edit.',
      `// ajv ${versionOf('ajv')}, esbuild ${versionOf('esbuild')}. docs/adr/0363-graph-validators-precompiled.md.`,
    ],
    "Each graph formatVersion's validator, built when first asked for.",
    'GENERATED_GRAPH_VALIDATORS',
    validators,
  );
}

/** Writes `text` to `file` unless it already holds it: an untouched file keeps its time, so `tsc -b` sees nothing new. */
function writeIfChanged(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  writeFileSync(file, text);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeIfChanged(OUTPUT, await generateValidatorsModule());
  writeIfChanged(GRAPH_OUTPUT, await generateGraphValidatorsModule());
}
