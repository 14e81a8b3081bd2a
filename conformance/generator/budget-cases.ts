/**
 * Budget boundaries (Core §10, RFC 0008 "Limit accounting", adopted by this project). Each charge below is computed
 * by hand from RFC 0008's text, never from our evaluator:
 *   1 per condition node visited; compiling an authored pointer costs its byte length once per distinct pointer per
 *   evaluation; resolving costs 1 per reference token plus the tokens' bytes (never less than 1); a comparison
 *   charges V(authored operand) + V(selected value) (nothing selected when the path does not resolve); `in` charges
 *   V(candidate array) + V(selected) once per candidate; evidence-present costs its node plus the id's bytes;
 *   all/any/not cost their node plus every branch; only conditions §8 reaches are charged.
 *   V(scalar) = 1 + bytes of its exact source token; V(array) = 1 + n + ΣV; V(object) = 1 + n + Σ(name bytes + V).
 * Inline facts are serialized compactly (JSON.stringify), so their tokens are exactly as written in the comments.
 * Each charge T yields two rows: budget T answers, budget T − 1 is resource-exhaustion in the evaluation phase.
 */
import {
  all,
  any,
  escalateEx,
  ev,
  evReq,
  fact,
  FALSE,
  force,
  lit,
  not,
  notApplicable,
  outcome,
  pack,
  raw,
  requested,
  rule,
  suppress,
  unresolved,
  type Json,
  type Raw,
} from './builders.js';
import type { EvalCaseDef } from './case-types.js';

interface BudgetRow {
  readonly id: string;
  readonly arithmetic: string;
  readonly total: number;
  readonly pack: Record<string, Json>;
  readonly facts: Json | Raw;
  readonly evidence?: Json;
  readonly expected: Record<string, Json>;
  /** false when T − 1 would be 0, which is not a valid budget. */
  readonly below?: boolean;
}

const p = (rules: Record<string, Json>[], more: Record<string, Json> = {}) =>
  pack({ rules, fallbackOutcome: 'no', ...more });
const YES = outcome('yes');

const rows: BudgetRow[] = [
  {
    id: 'equals-string',
    total: 13,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes')]),
    facts: { x: 'a' },
    expected: YES,
    arithmetic: 'r1: node 1 + compile "/x" 2 + resolve (1 token + 1 byte) 2 + V("a") 1+3=4 + V(selected "a") 4 = 13',
  },
  {
    id: 'unresolved-path',
    total: 9,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes')]),
    facts: { y: 'a' },
    expected: FALSE,
    arithmetic:
      'r1: node 1 + compile 2 + failed lookup 2 + V("a") 4, no selected value = 9; unknown/ignore → fallback no',
  },
  {
    id: 'pointer-compiled-once',
    total: 24,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes'), rule('r2', fact('/x', 'equals', 'b'), 'no')]),
    facts: { x: 'a' },
    expected: YES,
    arithmetic: 'r1 13; r2 reuses the compiled "/x": node 1 + resolve 2 + V("b") 4 + V(selected "a") 4 = 11; total 24',
  },
  {
    id: 'in-per-candidate',
    total: 24,
    pack: p([rule('r1', fact('/x', 'in', ['a', 'b']), 'yes')]),
    facts: { x: 'b' },
    expected: YES,
    arithmetic:
      'node 1 + compile 2 + resolve 2 + V(["a","b"]) = 1+2+4+4 = 11 + V(selected "b") 4 × 2 candidates = 8; total 24',
  },
  {
    id: 'in-composite-selected',
    total: 39,
    pack: p([rule('r1', fact('/x', 'in', ['a', 'b', 'c']), 'yes')]),
    facts: { x: ['q'] },
    expected: FALSE,
    arithmetic:
      'node 1 + compile 2 + resolve 2 + V(["a","b","c"]) = 1+3+12 = 16 + V(["q"]) = 1+1+4 = 6 × 3 candidates = 18; total 39; no match → fallback no',
  },
  {
    id: 'in-selected-array',
    total: 54,
    pack: p([rule('r1', fact('/x', 'in', ['a', 'b', 'c']), 'yes')]),
    facts: { x: ['q', 'r'] },
    expected: FALSE,
    arithmetic:
      'node 1 + compile 2 + resolve 2 + V(["a","b","c"]) 16 + V(["q","r"]) = 1+2+4+4 = 11 × 3 candidates = 33; total 54',
  },
  {
    id: 'in-selected-array-permuted',
    total: 54,
    pack: p([rule('r1', fact('/x', 'in', ['a', 'b', 'c']), 'yes')]),
    facts: { x: ['r', 'q'] },
    expected: FALSE,
    arithmetic: 'RFC 0008 order-independence: the permuted array ["r","q"] carries the same charge as ["q","r"]: 54',
  },
  {
    id: 'in-unresolved',
    total: 16,
    pack: p([rule('r1', fact('/x', 'in', ['a', 'b']), 'yes')]),
    facts: {},
    expected: FALSE,
    arithmetic:
      'node 1 + compile 2 + failed lookup 2 + V(["a","b"]) 11, nothing selected = 16; unknown/ignore → fallback no',
  },
  {
    id: 'evidence-present',
    total: 4,
    pack: p([rule('r1', ev('doc'), 'yes')], { evidenceRequirements: [evReq('doc', false)] }),
    facts: {},
    evidence: { doc: 'present' },
    expected: YES,
    arithmetic: 'evidence-present: node 1 + id "doc" 3 bytes = 4',
  },
  {
    id: 'evidence-present-each-node',
    total: 9,
    pack: p([rule('r1', all(ev('doc'), ev('doc')), 'yes')], { evidenceRequirements: [evReq('doc', false)] }),
    facts: {},
    evidence: { doc: 'present' },
    expected: YES,
    arithmetic: 'all node 1 + two evidence-present nodes (1 + 3 each) = 9',
  },
  {
    id: 'all-two-facts',
    total: 27,
    pack: p([rule('r1', all(fact('/a', 'equals', '1'), fact('/b', 'equals', '2')), 'yes')]),
    facts: { a: '1', b: '2' },
    expected: YES,
    arithmetic: 'all node 1 + fact /a (1+2+2+4+4 = 13) + fact /b (13) = 27',
  },
  {
    id: 'any-every-branch',
    total: 23,
    pack: p([rule('r1', any(fact('/a', 'equals', '1'), fact('/z', 'equals', 'q')), 'yes')]),
    facts: { a: '1' },
    expected: YES,
    arithmetic:
      'any node 1 + /a (13) + /z charged although the first branch is true: 1+2+2+V("q") 4 = 9, unresolved; total 23',
  },
  {
    id: 'not-node',
    total: 14,
    pack: p([rule('r1', not(fact('/x', 'equals', 'a')), 'yes')]),
    facts: { x: 'b' },
    expected: YES,
    arithmetic: 'not node 1 + fact 13 = 14',
  },
  {
    id: 'padded-number-lexeme',
    total: 16,
    pack: p([rule('r1', fact('/n', 'equals', 1), 'yes')]),
    facts: raw('{"n":1.000000}'),
    expected: YES,
    arithmetic:
      'node 1 + compile 2 + resolve 2 + V(1) = 1+1 = 2 + V(1.000000) = 1+8 = 9 (the token, not the value) = 16',
  },
  {
    id: 'padded-exponent-lexeme',
    total: 21,
    pack: p([rule('r1', fact('/x', 'equals', 10), 'yes')]),
    facts: raw('{"x":1e0000000001}'),
    expected: YES,
    arithmetic: 'node 1 + compile 2 + resolve 2 + V(10) 3 + V(1e0000000001) = 1+12 = 13; total 21; 1e1 equals 10',
  },
  {
    id: 'escaped-string-token',
    total: 18,
    pack: p([rule('r1', fact('/s', 'equals', 'a'), 'yes')]),
    facts: raw('{"s":"\\u0061"}'),
    expected: YES,
    arithmetic: 'node 1 + compile 2 + resolve 2 + V("a") 4 + V("\\u0061") = 1 + 8 bytes as written = 9; total 18',
  },
  {
    id: 'whitespace-not-charged',
    total: 13,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes')]),
    facts: raw('{ "x" :\n   "a" }\n'),
    expected: YES,
    arithmetic: 'same as equals-string: whitespace is not part of any token; 13',
  },
  {
    id: 'multibyte-string',
    total: 15,
    pack: p([rule('r1', fact('/x', 'equals', 'é'), 'yes')]),
    facts: { x: 'é' },
    expected: YES,
    arithmetic: 'node 1 + compile 2 + resolve 2 + V("é") = 1 + 4 UTF-8 bytes = 5, twice; total 15',
  },
  {
    id: 'object-value',
    total: 19,
    pack: p([rule('r1', fact('/o', 'equals', { k: 'v' }), 'yes')]),
    facts: { o: { k: 'v' } },
    expected: YES,
    arithmetic: 'V({"k":"v"}) = 1 + 1 member + (1 name byte + V("v") 4) = 7, twice; 1+2+2+7+7 = 19',
  },
  {
    id: 'object-multibyte-member-name',
    total: 33,
    pack: p([rule('r1', fact('/o', 'equals', { ключ: 'v' }), 'yes')]),
    facts: { o: { ключ: 'v' } },
    expected: YES,
    arithmetic: 'V({"ключ":"v"}) = 1 + 1 + (8 name bytes unquoted + 4) = 14, twice; 1+2+2+14+14 = 33',
  },
  {
    id: 'array-value',
    total: 19,
    pack: p([rule('r1', fact('/a', 'equals', [1, 2]), 'yes')]),
    facts: { a: [1, 2] },
    expected: YES,
    arithmetic: 'V([1,2]) = 1 + 2 + (2 + 2) = 7, twice; 1+2+2+7+7 = 19',
  },
  {
    id: 'root-pointer',
    total: 10,
    pack: p([rule('r1', fact('', 'equals', 'x'), 'yes')]),
    facts: 'x',
    expected: YES,
    arithmetic: 'node 1 + compile "" 0 + resolve with no tokens 1 + V("x") 4 + V(selected "x") 4 = 10',
  },
  {
    id: 'deep-path',
    total: 21,
    pack: p([rule('r1', fact('/a/b/c', 'equals', 'z'), 'yes')]),
    facts: { a: { b: { c: 'z' } } },
    expected: YES,
    arithmetic: 'node 1 + compile "/a/b/c" 6 + resolve 3 tokens + 3 bytes = 6 + 4 + 4 = 21',
  },
  {
    id: 'empty-tokens-pointer',
    total: 23,
    pack: p([rule('r1', fact('/a////b', 'equals', 'v'), 'yes')]),
    facts: { a: { '': { '': { '': { b: 'v' } } } } },
    expected: YES,
    arithmetic:
      'RFC 0008 example: compile "/a////b" 7 bytes; resolve 5 tokens + 2 bytes = 7; node 1 + 7 + 7 + 4 + 4 = 23',
  },
  {
    id: 'unresolved-number-operand',
    total: 11,
    pack: p([rule('r1', fact('/x', 'equals', 12345), 'yes')]),
    facts: {},
    expected: FALSE,
    arithmetic: 'node 1 + compile 2 + failed lookup 2 + V(12345) = 6, nothing selected = 11; fallback no',
  },
  {
    id: 'suppressed-rule-not-charged',
    total: 28,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes'), rule('r2', fact('/y', 'equals', 'b'), 'no')], {
      exceptions: [suppress('x1', fact('/s', 'equals', true), 'r2')],
    }),
    facts: { s: true, x: 'a', y: 'b' },
    expected: YES,
    arithmetic:
      'exception x1: 1 + 2 + 2 + V(true) 5 + V(true) 5 = 15; r1 13; suppressed r2 is never reached and costs nothing; total 28',
  },
  {
    id: 'forced-outcome-skips-rules',
    total: 15,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes')], {
      exceptions: [force('x1', fact('/f', 'equals', true), 'no')],
    }),
    facts: { f: true, x: 'a' },
    expected: outcome('no'),
    arithmetic: 'exception x1 15; the forced outcome ends §8 at step 6 so r1 is not charged; total 15',
  },
  {
    id: 'not-applicable-skips-rules',
    total: 13,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes')], { applicability: fact('/t', 'equals', 'x') }),
    facts: { t: 'y', x: 'a' },
    expected: notApplicable(),
    arithmetic: 'applicability: 1 + 2 + 2 + V("x") 4 + V("y") 4 = 13; not-applicable stops before exceptions and rules',
  },
  {
    id: 'exceptions-all-charged',
    total: 31,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes')], {
      exceptions: [escalateEx('x1', fact('/e', 'equals', true)), force('x2', fact('/f', 'equals', true), 'no')],
    }),
    facts: { e: true, f: false },
    expected: unresolved(['exception-escalation'], requested(['exception-escalation'])),
    arithmetic:
      'x1: 1+2+2+5+5 = 15; x2: 1+2+2+V(true) 5+V(false) 6 = 16; every exception is evaluated at step 3; rules not reached; total 31',
  },
  {
    id: 'literal-node',
    total: 1,
    below: false,
    pack: p([rule('r1', lit(true), 'yes')]),
    facts: {},
    expected: YES,
    arithmetic: 'literal: 1 node unit (a literal is not a comparison, so no operand V); budget 1 answers',
  },
  {
    id: 'blocked-at-step-2-costs-nothing',
    total: 1,
    below: false,
    pack: p([rule('r1', fact('/x', 'equals', 'a'), 'yes')], { evidenceRequirements: [evReq('form', true)] }),
    facts: { x: 'a' },
    evidence: { form: 'absent' },
    expected: unresolved(['missing-required-evidence']),
    arithmetic:
      'step 2 inspects the evidence document, not a condition node; step 5 then skips the rules; charge 0, so budget 1 answers',
  },
];

export function budgetCases(): EvalCaseDef[] {
  const out: EvalCaseDef[] = [];
  for (const r of rows) {
    const packRef = { name: `budget-${r.id}`, doc: r.pack };
    const common = { pack: packRef, facts: r.facts, ...(r.evidence !== undefined ? { evidence: r.evidence } : {}) };
    out.push({
      id: `budget-${r.id}-at-budget`,
      description: `RFC 0008 charge ${r.total}: ${r.arithmetic}. Budget ${r.total} answers.`,
      ...common,
      workBudget: r.total,
      expect: { disposition: r.expected },
    });
    if (r.below !== false) {
      out.push({
        id: `budget-${r.id}-one-below`,
        description: `RFC 0008 charge ${r.total}: ${r.arithmetic}. Budget ${r.total - 1} is one unit short: resource-exhaustion in the evaluation phase.`,
        ...common,
        workBudget: r.total - 1,
        expect: { errorClass: 'resource-exhaustion', errorPhase: 'evaluation' },
      });
    }
  }
  return out;
}
