/**
 * The precompiled graph validators (ADR 0363) are the validators ajv compiles at run time from the same graph
 * schemas and options (core/graph/schemas.ts before ADR 0363): same verdict and same first error, for both formats,
 * over every graph document in the repository (conformance/, examples/) and mutants of each; and the generated module
 * is exactly what the generator writes from today's schemas.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { graphSchemaValidator } from '../../core/graph/schemas.js';
import { generateGraphValidatorsModule, GRAPH_OUTPUT } from '../../scripts/generate-validators.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const SCHEMAS = {
  '1': 'schema/runtime-graph-format-1.schema.json',
  '0.2.0-draft': 'schema/docket-graph-0.2.0-draft.schema.json',
} as const;

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

/** Every JSON document with a formatVersion of a graph format, anywhere in conformance/ and examples/. */
const GRAPHS = ['conformance', 'examples'].flatMap((dir) =>
  jsonFiles(join(ROOT, dir)).flatMap((path) => {
    try {
      const doc = JSON.parse(readFileSync(path, 'utf8')) as { formatVersion?: unknown };
      return doc.formatVersion === '1' || doc.formatVersion === '0.2.0-draft'
        ? [{ name: path.slice(ROOT.length + 1), doc, version: doc.formatVersion }]
        : [];
    } catch {
      return [];
    }
  }),
);

/** Each top-level member removed, and each replaced by a number: a small family of invalid documents. */
function mutants(doc: Record<string, unknown>): unknown[] {
  return Object.keys(doc).flatMap((k) => {
    const { [k]: _drop, ...rest } = doc;
    return [rest, { ...doc, [k]: 7 }, { ...doc, stray: true }];
  });
}

describe('precompiled graph validators', () => {
  test('the repository holds graph documents of both formats to compare on', () => {
    expect(new Set(GRAPHS.map((g) => g.version))).toEqual(new Set(['1', '0.2.0-draft']));
  });

  test.each(Object.entries(SCHEMAS))(
    'format %s: same verdicts and first errors as ajv compiling at run time',
    (v, p) => {
      const runtime = new Ajv2020Module.default({ allErrors: false, strict: false }).compile(
        JSON.parse(readFileSync(join(ROOT, p), 'utf8')) as object,
      );
      const generated = graphSchemaValidator(v as '1' | '0.2.0-draft');
      const docs = GRAPHS.flatMap((g) => [g.doc, ...mutants(g.doc as Record<string, unknown>)]);
      let invalid = 0;
      for (const doc of docs) {
        const a = runtime(doc);
        const b = generated(doc);
        expect(b).toBe(a);
        if (!a) invalid += 1;
        expect(generated.errors?.[0] ?? null).toEqual(runtime.errors?.[0] ?? null);
      }
      expect(invalid).toBeGreaterThan(0);
    },
  );

  test('the generated module is what the generator writes from today’s schemas', async () => {
    expect(readFileSync(GRAPH_OUTPUT, 'utf8')).toBe(await generateGraphValidatorsModule());
  });
});
