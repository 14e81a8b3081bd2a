/**
 * Second tests for two carrier boundaries that one test each used to guard: duplicate member names on both sides of
 * the switch from a linear scan to a Map index (LINEAR_LIMIT, docs/adr/0014-compact-member-maps.md), and the depth
 * limit at exactly the limit and one past it, for every small limit and both container kinds.
 */
import { describe, expect, it } from 'vitest';
import { LINEAR_LIMIT } from '../../core/carrier/member-map.js';
import { accept, refuse } from './helpers.js';

const objectOf = (names: readonly string[]): string => `{${names.map((n, i) => `"${n}":${i}`).join(',')}}`;

describe('duplicate member names around the member-index switch', () => {
  it('refuses every duplicate in objects of 1 to 3×LINEAR_LIMIT members, whichever earlier name it repeats', () => {
    for (let size = 1; size <= 3 * LINEAR_LIMIT; size++) {
      const names = Array.from({ length: size }, (_, i) => `m${i}`);
      expect(accept(objectOf(names)).kind).toBe('object');
      for (let repeated = 0; repeated < size; repeated++) {
        const text = objectOf([...names, names[repeated] as string]);
        expect(refuse(text).code, `${size} members, repeating m${repeated}`).toBe('duplicate-member');
      }
    }
  });

  it('refuses a duplicate between two names that both come after the switch', () => {
    const names = Array.from({ length: LINEAR_LIMIT + 3 }, (_, i) => `n${i}`);
    expect(refuse(objectOf([...names, `n${LINEAR_LIMIT + 1}`])).code).toBe('duplicate-member');
    expect(refuse(objectOf([...names, `n${LINEAR_LIMIT}`])).code).toBe('duplicate-member');
  });
});

describe('the depth limit at the boundary', () => {
  it('accepts nesting exactly at every limit from 1 to 10 and refuses one level more, arrays and objects', () => {
    for (let limit = 1; limit <= 10; limit++) {
      const arrays = (d: number) => '['.repeat(d) + ']'.repeat(d);
      const objects = (d: number) => '{"a":'.repeat(d - 1) + '{}' + '}'.repeat(d - 1);
      expect(accept(arrays(limit), { limits: { depth: limit } }).kind).toBe('array');
      expect(refuse(arrays(limit + 1), { limits: { depth: limit } }).code).toBe('limit-depth');
      expect(accept(objects(limit), { limits: { depth: limit } }).kind).toBe('object');
      expect(refuse(objects(limit + 1), { limits: { depth: limit } }).code).toBe('limit-depth');
    }
  });
});
