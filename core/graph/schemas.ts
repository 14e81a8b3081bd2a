/**
 * The graph schemas (A1 step 6, B1), precompiled at build time by ajv's standalone code into
 * core/graph/generated/graph-validators.ts as the pack schemas are (ADR 0330, ADR 0363), so the evaluate bundle
 * carries no ajv; each is built once per process on first use:
 *   - "1": the reference runtime's schema, verbatim (schema/runtime-graph-format-1.schema.json);
 *   - "0.2.0-draft": Docket's RFC 0022 schema (schema/docket-graph-0.2.0-draft.schema.json, ADR 0310).
 * test/graph/generated-validators.test.ts checks them against runtime-compiled ones.
 */
import type { ValidateFunction } from 'ajv';
import { GENERATED_GRAPH_VALIDATORS } from './generated/graph-validators.js';
import type { FormatVersion } from './document.js';

const built = new Map<FormatVersion, ValidateFunction>();

export function graphSchemaValidator(version: FormatVersion): ValidateFunction {
  let v = built.get(version);
  if (v === undefined) {
    const load = GENERATED_GRAPH_VALIDATORS[version];
    if (load === undefined) throw new Error(`no generated graph validator for ${version}: run "npm run build"`);
    v = load();
    built.set(version, v);
  }
  return v;
}
