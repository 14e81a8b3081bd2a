/**
 * Walks every condition node of a structurally valid pack, with its pointer: applicability, every rule's and every
 * exception's `when`, and all nested all/any/not children at any depth, and — for the RFC 0008 draft aggregates —
 * into every `where` (RFC 0008 Compatibility: each §3.3 condition-walking bullet recurses into where). Iterative:
 * depth is bounded by the carrier, but the walk needs no stack either way.
 */
import { childPointer } from './pointer.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PlainCondition = any;

export interface ConditionVisit {
  readonly node: PlainCondition;
  readonly pointer: string;
}

/** The roots: [pointer, condition] for applicability, rules[i].when and exceptions[i].when. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function conditionRoots(pack: any): ConditionVisit[] {
  const roots: ConditionVisit[] = [];
  if (pack.applicability !== undefined) roots.push({ node: pack.applicability, pointer: '/applicability' });
  (pack.rules ?? []).forEach((r: { when: PlainCondition }, i: number) =>
    roots.push({ node: r.when, pointer: `/rules/${i}/when` }),
  );
  (pack.exceptions ?? []).forEach((x: { when: PlainCondition }, i: number) =>
    roots.push({ node: x.when, pointer: `/exceptions/${i}/when` }),
  );
  return roots;
}

/** Every node under `root`, root first, children in document order. */
export function walkCondition(root: ConditionVisit): ConditionVisit[] {
  const out: ConditionVisit[] = [];
  const stack: ConditionVisit[] = [root];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    out.push(visit);
    const { node, pointer } = visit;
    if ((node.op === 'exists' || node.op === 'every') && node.where !== undefined) {
      stack.push({ node: node.where, pointer: childPointer(pointer, 'where') });
    } else if (node.op === 'not') {
      stack.push({ node: node.condition, pointer: childPointer(pointer, 'condition') });
    } else if (node.op === 'all' || node.op === 'any') {
      const base = childPointer(pointer, 'conditions');
      for (let i = node.conditions.length - 1; i >= 0; i--)
        stack.push({ node: node.conditions[i], pointer: childPointer(base, i) });
    }
  }
  return out;
}
