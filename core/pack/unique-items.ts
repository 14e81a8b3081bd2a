/**
 * `uniqueItems` for the pack's top-level collections of objects, checked with a set of canonical texts instead of
 * ajv's pairwise deep comparison (ADR 0154): same finding, linear instead of quadratic in the collection size.
 * The published schema keeps `uniqueItems`; the compiled one drops it for these members (core/pack/schemas.ts).
 */
import { PackCodes } from './codes.js';
import { childPointer } from './pointer.js';
import type { Diagnostic } from './types.js';

/** Members whose items are objects and whose schema says `uniqueItems: true` (Core schema, top level). */
export const OBJECT_COLLECTIONS = ['evidenceRequirements', 'sources', 'outcomes', 'rules', 'exceptions'] as const;

/**
 * The duplicate ajv would report for each collection: the highest index i with an equal earlier item, and the
 * nearest such j < i (ajv scans i downwards and j downwards from i − 1 and stops at the first equal pair).
 */
export function checkUniqueItems(instance: unknown): Diagnostic[] {
  if (typeof instance !== 'object' || instance === null || Array.isArray(instance)) return [];
  const out: Diagnostic[] = [];
  for (const member of OBJECT_COLLECTIONS) {
    const items = (instance as Record<string, unknown>)[member];
    if (!Array.isArray(items)) continue;
    const last = new Map<string, number>();
    let pair: [number, number] | undefined;
    items.forEach((item, i) => {
      const key = equalityKey(item);
      const j = last.get(key);
      if (j !== undefined) pair = [i, j];
      last.set(key, i);
    });
    if (pair === undefined) continue;
    const [i, j] = pair;
    const at = `/${member}`;
    out.push({
      code: PackCodes.SCHEMA_DUPLICATE_ITEMS,
      severity: 'error',
      pointer: childPointer(at, i),
      message: `items ${j} and ${i} are identical; the array must not repeat an item`,
      duplicateOf: childPointer(at, j),
    });
  }
  return out;
}

/**
 * Equal keys exactly for deep-equal JSON values: object members sorted, strings escaped by JSON.stringify (which,
 * unlike RFC 8785 canonicalization, accepts the lone surrogates a hostile pack may carry).
 */
function equalityKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(equalityKey).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${equalityKey(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}
