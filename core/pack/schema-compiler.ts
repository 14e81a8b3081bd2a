/**
 * The one ajv configuration for the pack schemas (§3.2): Draft 2020-12 with ajv-formats, so `format` is an
 * assertion (uri, date, date-time). Two users: the build step that writes the precompiled validators with ajv's
 * standalone code (scripts/generate-validators.mjs), and the tests that check those validators against ones
 * compiled here at run time (docs/adr/0330-precompiled-schema-validators.md). Nothing on a production path imports
 * this module: core/pack/schemas.ts serves the generated validators.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Options } from 'ajv';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/** The formats the pack schemas assert (§3.2). */
export const PACK_FORMATS = ['uri', 'date', 'date-time'] as const;

/** A new ajv instance configured for the pack schemas; `extra` adds the standalone-code options for the build step. */
export function newPackAjv(extra: Options = {}): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    // The published 0.2.0-draft schema puts `properties`/`required` in if/then subschemas without a `type`, which
    // ajv's strictTypes/strictRequired flag; those subschemas are correct JSON Schema, so those two checks are off.
    strictTypes: false,
    strictRequired: false,
    useDefaults: false, // §4.1: never insert the default profile
    ...extra,
  });
  addFormats(ajv, [...PACK_FORMATS]);
  return ajv;
}
