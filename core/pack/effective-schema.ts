/**
 * The schema documents behind the structural validators (§3.2), as data — no validator library here, so the CLI's
 * start path never loads one (docs/adr/0330-precompiled-schema-validators.md):
 *   - 0.2.0-draft: the published historical schema, verbatim (§11 keeps the older contract);
 *   - 0.3.0 base: schema/judgment-pack-core.schema.json;
 *   - 0.3.0 extended: the same schema with the §4.1/§6.7 extended ceiling (escalation.routes maxItems 16) and
 *     nothing else changed — applying the base schema alone does not validate an extended document (§4.1).
 *
 * For diagnostics only, the condition `oneOf` is compiled as the equivalent discriminated form (object, `op` in the
 * six names, then the branch selected by `op`): the branches' `op` constraints are disjoint, so "exactly one branch
 * matches" and "the branch named by op matches" accept the same instances, while errors then come from the one
 * branch the author meant instead of from all six. test/pack/schema-equivalence.test.ts checks the two forms agree.
 */
import { OBJECT_COLLECTIONS } from './unique-items.js';
import schema030 from '../../schema/judgment-pack-core.schema.json' with { type: 'json' };
import schema020 from '../../schema/judgment-pack-core-0.2.0-draft.schema.json' with { type: 'json' };
import type { Profile, SpecVersion } from './types.js';
import { withQuantifiers } from './quantifier-schema.js';

/** §6.7: base admits 1–8 routes; §4.1 extended raises the ceiling to 16. */
export const ROUTE_CEILINGS: Readonly<Record<Profile, number>> = Object.freeze({ base: 8, extended: 16 });

/**
 * One validator's name: the spec version and profile, and whether RFC 0008's draft grammar is on. RFC 0008 is a draft
 * against 0.3.0 only: the historical 0.2.0-draft contract never gains its grammar (ADR 0190), so it has no such key
 * (docs/adr/0403-no-quantifier-validator-for-0.2.0-draft.md).
 */
export type SchemaKey = '0.2.0-draft' | `${'0.3.0/base' | '0.3.0/extended'}${'' | '+rfc0008-quantifiers'}`;

/** Every validator Docket runs: each key above, in a fixed order (the generated module exports one per key). */
export const SCHEMA_KEYS: readonly SchemaKey[] = Object.freeze([
  '0.2.0-draft',
  ...(['0.3.0/base', '0.3.0/extended'] as const).flatMap((k) => [k, `${k}+rfc0008-quantifiers`] as const),
]);

/** The key of a validation; `quantifiers` is ignored for 0.2.0-draft, which never has RFC 0008's grammar. */
export function schemaKey(specVersion: SpecVersion, profile: Profile, quantifiers: boolean): SchemaKey {
  if (specVersion === '0.2.0-draft') return '0.2.0-draft';
  const base = `0.3.0/${profile}` as const;
  return quantifiers ? `${base}+rfc0008-quantifiers` : base;
}

/** The inverse of schemaKey. */
export function schemaKeyParts(key: SchemaKey): { specVersion: SpecVersion; profile: Profile; quantifiers: boolean } {
  const [name = '', flag] = key.split('+');
  const [specVersion, profile = 'base'] = name === '0.2.0-draft' ? ['0.2.0-draft', 'base'] : name.split('/');
  return { specVersion: specVersion as SpecVersion, profile: profile as Profile, quantifiers: flag !== undefined };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = any;

/** The schema actually compiled for a version and profile (see the module comment). */
export function effectiveSchema(
  specVersion: SpecVersion,
  profile: Profile,
  discriminatedConditions = true,
  quantifiers = false,
): Schema {
  const s = structuredClone<Schema>(specVersion === '0.3.0' ? schema030 : schema020);
  if (specVersion === '0.3.0') {
    s.$defs.escalation.properties.routes.maxItems = ROUTE_CEILINGS[profile];
    s.$id = String(s.$id).replace(/\.schema\.json$/, `.${profile}-profile.schema.json`);
  }
  // Checked by a set in core/pack/unique-items.ts: ajv's pairwise deep comparison is quadratic (ADR 0154).
  for (const member of OBJECT_COLLECTIONS)
    if (s.properties?.[member] !== undefined) delete s.properties[member].uniqueItems;
  // RFC 0008 draft grammar, only when the caller enabled it (docs/adr/0191-quantifier-schema-tiers.md).
  const tiers = quantifiers ? withQuantifiers(s) : ['condition'];
  if (discriminatedConditions) for (const t of tiers) s.$defs[t] = discriminate(s.$defs[t]);
  return s;
}

/** Rewrites `oneOf` of op-tagged branches into `op` enum + if/then per branch (equivalent; see module comment). */
function discriminate(condition: Schema): Schema {
  const branches: Schema[] = condition.oneOf;
  const ops: string[] = [];
  const allOf = branches.map((branch: Schema) => {
    const op = branch.properties.op;
    const names: string[] = op.const !== undefined ? [op.const] : op.enum;
    ops.push(...names);
    return { if: { properties: { op: { enum: names } }, required: ['op'] }, then: branch };
  });
  return { type: 'object', required: ['op'], properties: { op: { enum: ops } }, allOf };
}
