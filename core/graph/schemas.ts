/**
 * The graph schemas (A1 step 6, B1), precompiled at build time by ajv's standalone code into
 * core/graph/generated/graph-validators.ts as the pack schemas are (ADR 0330, ADR 0363), so the evaluate bundle
 * carries no ajv; each is built once per process on first use:
 *   - "1": the reference runtime's schema, verbatim (schema/runtime-graph-format-1.schema.json);
 *   - "0.2.0-draft": Docket's RFC 0022 schema (schema/docket-graph-0.2.0-draft.schema.json, ADR 0310).
 * test/graph/generated-validators.test.ts checks them against runtime-compiled ones.
 */
import { GENERATED_GRAPH_VALIDATORS } from './generated/graph-validators.js';
import type { FormatVersion } from './document.js';
import { lazyValidators } from '../pack/index.js';

export const graphSchemaValidator = lazyValidators<FormatVersion>(GENERATED_GRAPH_VALIDATORS, 'graph validator');
