/**
 * The structural validators (§3.2): the pack schemas of core/pack/effective-schema.ts, Draft 2020-12 with `format`
 * as an assertion (uri, date, date-time), precompiled at build time by ajv's standalone code into
 * core/pack/generated/pack-validators.ts (docs/adr/0330-precompiled-schema-validators.md). Compiling them at
 * start-up cost every CLI run ~0.15 s and loaded all of ajv; the generated code is the same validators, checked
 * against runtime-compiled ones by test/pack/generated-validators.test.ts. Each is built once per process on first use.
 */
import type { ValidateFunction } from 'ajv';
import { GENERATED_VALIDATORS } from './generated/pack-validators.js';
import { schemaKey, type SchemaKey } from './effective-schema.js';
import type { Profile, SpecVersion } from './types.js';

export { ROUTE_CEILINGS, effectiveSchema } from './effective-schema.js';

/** A lookup of precompiled validators that builds each once per process, on first use. */
export function lazyValidators<K extends string>(
  generated: Partial<Record<K, () => ValidateFunction>>,
  what: string,
): (key: K) => ValidateFunction {
  const built = new Map<K, ValidateFunction>();
  return (key) => {
    let v = built.get(key);
    if (v === undefined) {
      const load = generated[key];
      // Only a generated module older than the keys can lack one: `npm run build` writes them all.
      if (load === undefined) throw new Error(`no generated ${what} for ${key}: run "npm run build"`);
      built.set(key, (v = load()));
    }
    return v;
  };
}

const packValidator = lazyValidators<SchemaKey>(GENERATED_VALIDATORS, 'validator');

export const validatorFor = (specVersion: SpecVersion, profile: Profile, quantifiers = false): ValidateFunction =>
  packValidator(schemaKey(specVersion, profile, quantifiers));
