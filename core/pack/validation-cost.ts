/**
 * The cost of validating a pack, known before the schema runs (docs/limits.md "Validation cost", ADR 0202): the
 * number of JSON values in the document — every object, array, string, number, true, false and null, member
 * names not counted separately. Structural validation visits each value a bounded number of times, so its time
 * grows with this count; the count is read off the carrier tree in one walk, deterministic and cheap.
 */
import type { JsonValue } from '../carrier/json-value.js';

/** The most JSON values a pack may hold: 2.5× a 10,000-rule pack of one-condition rules (ten values each). */
export const MAX_PACK_VALUES = 250_000;

/** The number of JSON values in `root`, counting stops once it passes `limit` (the answer is then limit + 1). */
export function countValues(root: JsonValue, limit: number): number {
  let count = 0;
  const stack: JsonValue[] = [root];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (++count > limit) return limit + 1;
    if (v.kind === 'array') for (const item of v.items) stack.push(item);
    else if (v.kind === 'object') for (const [, member] of v.members) stack.push(member);
  }
  return count;
}
