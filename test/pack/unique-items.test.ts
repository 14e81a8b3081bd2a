/** Unique items of the pack's object collections, by a set of canonical texts (ADR 0154). */
import { describe, expect, it } from 'vitest';
import { checkUniqueItems, OBJECT_COLLECTIONS } from '../../core/pack/unique-items.js';
import { effectiveSchema } from '../../core/pack/schemas.js';
import schema030 from '../../schema/judgment-pack-core.schema.json' with { type: 'json' };

const A = { id: 'a', when: { op: 'fact', path: '/x', operator: 'equals', value: 1 } };
const B = { id: 'b', when: { op: 'fact', path: '/y', operator: 'equals', value: 2 } };

describe('checkUniqueItems', () => {
  it('reports the pair ajv reports: the last item with an equal earlier one, and the nearest such earlier one', () => {
    expect(checkUniqueItems({ rules: [A, B, A, B] })).toEqual([
      expect.objectContaining({ code: 'JPS-SCHEMA-DUPLICATE-ITEMS', pointer: '/rules/3', duplicateOf: '/rules/1' }),
    ]);
    expect(checkUniqueItems({ rules: [A, A, A, B] })).toEqual([
      expect.objectContaining({ pointer: '/rules/2', duplicateOf: '/rules/1' }),
    ]);
  });

  it('treats objects with the same members in another order as equal, and different values as different', () => {
    const reordered = { when: { value: 1, operator: 'equals', path: '/x', op: 'fact' }, id: 'a' };
    expect(checkUniqueItems({ outcomes: [A, reordered] })).toHaveLength(1);
    expect(checkUniqueItems({ outcomes: [A, { ...A, id: 'a2' }] })).toEqual([]);
  });

  it('reports one finding per collection', () => {
    expect(checkUniqueItems({ rules: [A, A], sources: [B, B], exceptions: [A] }).map((d) => d.pointer)).toEqual([
      '/sources/1',
      '/rules/1',
    ]);
  });

  it('scales linearly: 20,000 distinct items are checked without pairwise comparison', () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => ({ ...A, id: `r${i}` }));
    expect(checkUniqueItems({ rules })).toEqual([]);
  });

  it('is the compiled schema’s only change to uniqueItems on those collections; the published schema keeps it', () => {
    const published = schema030 as { properties: Record<string, { uniqueItems?: boolean }> };
    const compiled = effectiveSchema('0.3.0', 'base') as { properties: Record<string, { uniqueItems?: boolean }> };
    for (const m of OBJECT_COLLECTIONS) {
      expect(published.properties[m]?.uniqueItems).toBe(true);
      expect(compiled.properties[m]?.uniqueItems).toBeUndefined();
    }
  });
});
