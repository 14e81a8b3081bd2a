/**
 * The graph schemas (A1 step 6, B1), compiled once per process on first use, as core/pack/schemas.ts does for packs:
 *   - "1": the reference runtime's schema, verbatim (schema/runtime-graph-format-1.schema.json);
 *   - "0.2.0-draft": Docket's RFC 0022 schema (schema/docket-graph-0.2.0-draft.schema.json, ADR 0310).
 */
// The named export resolves the same under NodeNext (the build) and Bundler (the console page's type-check, which
// reaches this file through core/replay's types).
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import runtimeFormat1 from '../../schema/runtime-graph-format-1.schema.json' with { type: 'json' };
import draftFormat from '../../schema/docket-graph-0.2.0-draft.schema.json' with { type: 'json' };
import type { FormatVersion } from './document.js';

const compiled = new Map<FormatVersion, ValidateFunction>();

export function graphSchemaValidator(version: FormatVersion): ValidateFunction {
  let v = compiled.get(version);
  if (v === undefined) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    v = ajv.compile(structuredClone(version === '1' ? runtimeFormat1 : draftFormat));
    compiled.set(version, v);
  }
  return v;
}
