/**
 * RFC 0008 "Security and privacy", vacuous truth: `every` over an empty array is true, so a rule whose only positive
 * condition is an `every` fires on a request with no elements. The advisory warns for such a rule and names the
 * non-vacuous idiom. Core has no notion of a "permissive" outcome, so every rule is checked and the message says
 * when it matters (docs/adr/0195-vacuous-every-advisory.md). Advisory only: never an error, not even under strict.
 */
import type { Diagnostic } from './types.js';
import { PackCodes } from './codes.js';
import { childPointer } from './pointer.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Plain = any;

interface Conjunct {
  readonly node: Plain;
  readonly pointer: string;
}

/** The positive conjuncts of a condition: `all` is flattened, `not` and literal true contribute nothing positive. */
function positiveConjuncts(node: Plain, pointer: string, out: Conjunct[]): void {
  if (node.op === 'all') {
    const base = childPointer(pointer, 'conditions');
    node.conditions.forEach((c: Plain, i: number) => positiveConjuncts(c, childPointer(base, i), out));
  } else if (node.op === 'not' || (node.op === 'literal' && node.value === true)) {
    return;
  } else out.push({ node, pointer });
}

export function checkVacuousEvery(pack: Plain): Diagnostic[] {
  const out: Diagnostic[] = [];
  (pack.rules ?? []).forEach((rule: Plain, i: number) => {
    const conjuncts: Conjunct[] = [];
    positiveConjuncts(rule.when, `/rules/${i}/when`, conjuncts);
    if (conjuncts.length === 0 || !conjuncts.every((c) => c.node.op === 'every')) return;
    for (const c of conjuncts) {
      out.push({
        code: PackCodes.VACUOUS_EVERY,
        severity: 'warning',
        pointer: c.pointer,
        message:
          `rule "${rule.id}" (outcome "${rule.outcome}") has no positive condition but an every, which is true over an ` +
          `empty array: if "${rule.outcome}" is permissive, a request with no elements at ${JSON.stringify(c.node.path)} ` +
          `is permitted (RFC 0008 vacuous truth). Non-vacuous idiom: {"op":"all","conditions":[{"op":"exists",` +
          `"path":${JSON.stringify(c.node.path)},"where":{"op":"literal","value":true}},{"op":"every",…}]}`,
        rule: rule.id,
        outcome: rule.outcome,
      });
    }
  });
  return out;
}
