/**
 * RFC 0008 "Nesting: a maximum aggregate depth of two", enforced by the schema through depth-indexed, non-recursive
 * condition definitions: `condition` (no aggregate above), `conditionInWhere1` (one aggregate above) and
 * `conditionInWhere2` (two above). An aggregate's `where` takes the next tier; the last tier has no aggregate branch;
 * all, any and not recurse within their own tier, so wrapping cannot launder depth and depth three is unrepresentable.
 * Only applied when the caller enabled the draft feature (docs/adr/0191-quantifier-schema-tiers.md).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = any;

export const CONDITION_TIERS = ['condition', 'conditionInWhere1', 'conditionInWhere2'] as const;

/** Same syntax and pattern as fact.path (RFC 0008 Specification: "same syntax and schema pattern as fact.path"). */
function pointerSchema(base: Schema): Schema {
  const fact = base.oneOf.find((b: Schema) => b.properties?.op?.const === 'fact');
  return structuredClone(fact.properties.path);
}

function retarget(x: Schema, to: string): Schema {
  if (Array.isArray(x)) return x.map((y) => retarget(y, to));
  if (typeof x !== 'object' || x === null) return x;
  const out: Schema = {};
  for (const [k, v] of Object.entries(x))
    out[k] = k === '$ref' && v === '#/$defs/condition' ? `#/$defs/${to}` : retarget(v, to);
  return out;
}

/** Rewrites `s.$defs` in place with the three tiers; returns the tier names (each is a `oneOf` of branches). */
export function withQuantifiers(s: Schema): readonly string[] {
  const base = s.$defs.condition;
  const pointer = pointerSchema(base);
  CONDITION_TIERS.forEach((tier, depth) => {
    const t = retarget(structuredClone(base), tier);
    const next = CONDITION_TIERS[depth + 1];
    if (next !== undefined) {
      t.oneOf.push(
        {
          type: 'object',
          additionalProperties: false,
          required: ['op', 'path', 'where'],
          properties: { op: { enum: ['exists', 'every'] }, path: pointer, where: { $ref: `#/$defs/${next}` } },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['op', 'path', 'at'],
          properties: { op: { const: 'uniform' }, path: pointer, at: pointer },
        },
      );
    }
    s.$defs[tier] = t;
  });
  return CONDITION_TIERS;
}
