/**
 * The precompiled validators (docs/adr/0330-precompiled-schema-validators.md) are the validators ajv compiles at run
 * time from the same schemas and options: same verdict and same errors, for every SchemaKey, over every JSON document
 * in the repository's pack corpus (conformance/, examples/, test/pack/fixtures) and a mutant of each rich pack per
 * leaf. And the generated module is exactly what the generator writes from today's schemas, so a schema edit without
 * `npm run build` fails here rather than shipping stale validators.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { effectiveSchema, SCHEMA_KEYS, schemaKeyParts } from '../../core/pack/effective-schema.js';
import { newPackAjv } from '../../core/pack/schema-compiler.js';
import type { Profile, SpecVersion } from '../../core/pack/types.js';
import { validatorFor } from '../../core/pack/schemas.js';
import { generateValidatorsModule, OUTPUT } from '../../scripts/generate-validators.mjs';
import { load, type Pack } from './fixtures/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A validator compiled now, at run time: the reference the generated validators are checked against. */
const runtimeValidatorFor = (specVersion: SpecVersion, profile: Profile, quantifiers: boolean) =>
  newPackAjv().compile(effectiveSchema(specVersion, profile, true, quantifiers));

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

const CORPUS: { name: string; doc: unknown }[] = ['conformance', 'examples', 'test/pack/fixtures'].flatMap((dir) =>
  jsonFiles(join(ROOT, dir)).flatMap((path) => {
    try {
      return [{ name: path.slice(ROOT.length + 1), doc: JSON.parse(readFileSync(path, 'utf8')) as unknown }];
    } catch {
      return []; // a deliberately malformed carrier file: not a schema instance
    }
  }),
);

/** Every leaf of `doc` replaced, one at a time, by a value of another type (and every object given a stray member). */
function mutants(doc: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (node: unknown, replace: (v: unknown) => unknown): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, (r) => replace(node.map((x, j) => (j === i ? r : x)))));
      out.push(replace([...node, node[0] ?? null]));
    } else if (node !== null && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      for (const k of Object.keys(o)) walk(o[k], (r) => replace({ ...o, [k]: r }));
      out.push(replace({ ...o, 'not-in-the-schema': true }));
    } else {
      out.push(replace(typeof node === 'string' ? 7 : typeof node === 'number' ? 'seven' : null));
      if (typeof node === 'string') out.push(replace(`${node}:not a date or uri`), replace(''));
    }
  };
  walk(doc, (r) => r);
  return out;
}

const MUTANTS = (['rich-0.3.0', 'rich-0.2.0-draft', 'extended-16-routes-0.3.0'] as const).flatMap((name) =>
  mutants(load(name) as Pack).map((doc, i) => ({ name: `${name} mutant #${i}`, doc })),
);

describe('the generated pack validators', () => {
  test('are what scripts/generate-validators.mjs writes from today\'s schemas (else run "npm run build")', async () => {
    expect(readFileSync(OUTPUT, 'utf8') === (await generateValidatorsModule())).toBe(true);
  }, 60_000);

  test("the corpus is the repository's packs and their mutants, not an empty list", () => {
    expect(CORPUS.length).toBeGreaterThan(500);
    expect(MUTANTS.length).toBeGreaterThan(500);
  });

  for (const key of SCHEMA_KEYS) {
    test(`${key}: give the verdict and the errors ajv gives when compiling at run time, for every document`, () => {
      const { specVersion, profile, quantifiers } = schemaKeyParts(key);
      const generated = validatorFor(specVersion, profile, quantifiers);
      const runtime = runtimeValidatorFor(specVersion, profile, quantifiers);
      let accepted = 0;
      let rejected = 0;
      for (const { name, doc } of [...CORPUS, ...MUTANTS]) {
        const verdict = generated(doc);
        expect(verdict, name).toBe(runtime(doc));
        expect(generated.errors ?? null, name).toEqual(runtime.errors ?? null);
        if (verdict) accepted++;
        else rejected++;
      }
      // Both outcomes occur, so the comparison above is not of one constant answer.
      expect(accepted).toBeGreaterThan(0);
      expect(rejected).toBeGreaterThan(0);
    }, 120_000);
  }
});
