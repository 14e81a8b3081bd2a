import { describe, expect, it } from 'vitest';
import { DEFAULT_WORK_BUDGET, MAX_WORK_BUDGET } from '../../core/evaluate/limits.js';
import type { EvaluationResult } from '../../core/evaluate/types.js';
import { all, compile, ev, exception, fact, lit, not, pack, rule, run } from './helpers.js';

/** Charges below are computed by hand from RFC 0008 "Limit accounting"; each comment shows the sum. */

const work = (r: EvaluationResult): number => r.work;
const isDisposition = (r: EvaluationResult) => r.kind === 'disposition';
const exhausted = (r: EvaluationResult) =>
  r.kind === 'error' &&
  r.error.class === 'resource-exhaustion' &&
  r.error.phase === 'evaluation' &&
  r.error.code === 'work-budget-exceeded';

/** Asserts the exact charge, and that the charge is the admission boundary: budget = charge answers, charge − 1 refuses. */
function expectCharge(p: Record<string, unknown>, facts: unknown, charge: number, evidence?: unknown): void {
  const c = compile(p);
  const atBudget = run(c, facts, { workBudget: charge, ...(evidence === undefined ? {} : { evidence }) });
  expect(isDisposition(atBudget), 'a charge exactly equal to the budget answers').toBe(true);
  expect(work(atBudget)).toBe(charge);
  const below = run(c, facts, { workBudget: charge - 1, ...(evidence === undefined ? {} : { evidence }) });
  expect(exhausted(below), 'one unit below the charge refuses').toBe(true);
}

const oneRule = (when: unknown, extra: Record<string, unknown> = {}) =>
  pack({ rules: [rule('r', when, 'yes')], ...extra });

describe('RFC 0008 charges for Core condition nodes', () => {
  it('a fact equals costs node + pointer compile + resolution + V(operand) + V(selected)', () => {
    // 1 node + 2 compile "/x" + (1 token + 1 byte) + V("ab") 5 + V("ab") 5 = 15
    expectCharge(oneRule(fact('/x', 'equals', 'ab')), { x: 'ab' }, 15);
  });
  it('in charges V(selected) once per candidate plus V(candidate array)', () => {
    // 1 + 2 + 2 + V(["a","b"]) (1 + 2 + 4 + 4 = 11) + 2 × V("b") 4 = 24
    expectCharge(oneRule(fact('/x', 'in', ['a', 'b'])), { x: 'b' }, 24);
  });
  it('every branch of all/not is charged even when all short-circuits, and evidence-present costs its id bytes', () => {
    // all 1 + fact (1 + 2 + 2 + V(1) 2 + V(10) 3) + not 1 + literal 1 + evidence-present (1 + 4 "form") = 18
    const p = oneRule(all(fact('/x', 'equals', 1), not(lit(true)), ev('form')), {
      evidenceRequirements: [{ id: 'form', description: 'A form.', required: false }],
    });
    expectCharge(p, { x: 10 }, 18);
  });
  it('a pointer is compiled once per evaluation however many conditions use it', () => {
    // rule a 15 (as above) + rule b: 1 + resolve 2 + V("cd") 5 + V("ab") 5 = 13, no second compile → 28
    expectCharge(
      pack({ rules: [rule('a', fact('/x', 'equals', 'ab'), 'yes'), rule('b', fact('/x', 'not-equals', 'cd'), 'yes')] }),
      { x: 'ab' },
      28,
    );
  });
  it('an unresolved pointer still costs its compile and its whole lookup, and no selected value', () => {
    // 1 + compile "/y/z" 4 + (2 tokens + 2 bytes) + V(true) 5 = 14
    expectCharge(oneRule(fact('/y/z', 'equals', true)), {}, 14);
  });
  it('the empty pointer compiles for nothing and resolves for the one step that selects the root', () => {
    // 1 + 0 + 1 + V(null) 5 + V({}) 1 = 8
    expectCharge(oneRule(fact('', 'equals', null)), {}, 8);
  });
  it('empty reference tokens each cost a step: /a////b resolves for seven', () => {
    // 1 + compile 7 + (5 tokens + 2 bytes) 7 + V(0) 2 = 17
    expectCharge(oneRule(fact('/a////b', 'equals', 0)), {}, 17);
  });
  it('an escaped token is charged by its decoded bytes when resolved, by its written bytes when compiled', () => {
    // 1 + compile "/a~1b" 5 + (1 token + 3 bytes "a/b") 4 + V(0) 2 + V(0) 2 = 14
    expectCharge(oneRule(fact('/a~1b', 'equals', 0)), { 'a/b': 0 }, 14);
  });
  it('V of a selected value follows its exact source token: escapes and padded numbers cost what is written', () => {
    // 1 + 2 + 2 + V("a") 4 + V("\u0061") (1 + 8) = 18
    expectCharge(oneRule(fact('/x', 'equals', 'a')), '{"x":"\\u0061"}', 18);
    // 1 + 2 + 2 + V(1) 2 + V(1.000) 6 = 13
    expectCharge(oneRule(fact('/x', 'equals', 1)), '{"x":1.000}', 13);
  });
  it('V of a composite selected value charges structure: containers, separators and member names', () => {
    // V({"ab":[1,true]}) = 1 + 1 + (2 + V([1,true]) = 1 + 2 + 2 + 5 = 10) = 14; total 1 + 2 + 2 + V(null) 5 + 14 = 24
    expectCharge(oneRule(fact('/x', 'equals', null)), { x: { ab: [1, true] } }, 24);
  });
  it('non-ASCII pointers and values are charged by their UTF-8 bytes', () => {
    // 1 + compile "/é" 3 + (1 token + 2 bytes) 3 + V("é") (1 + 4) 5 + V("é") 5 = 17
    expectCharge(oneRule(fact('/é', 'equals', 'é')), { é: 'é' }, 17);
  });
  it('a long evidence-requirement id costs its bytes (RFC 0008 "long evidence id")', () => {
    const id = `e${'x'.repeat(999)}`; // 1,000 bytes
    // evidence-present: 1 node + 1,000 id bytes = 1,001
    expectCharge(oneRule(ev(id), { evidenceRequirements: [{ id, description: 'Long.', required: false }] }), {}, 1001);
  });
  it('a long authored operand costs its bytes even when the pointer does not resolve (RFC 0008 "long operand")', () => {
    // 1 + compile "/v" 2 + resolve 2 + V(1,000-byte string token "…") (1 + 1,002) = 1,008
    expectCharge(oneRule(fact('/v', 'equals', 'a'.repeat(1000))), {}, 1008);
  });
  it('the work of a whole §8 path adds up across applicability, exceptions and rules', () => {
    // applicability literal 1 + exception literal 1 + rule 15 = 17
    expectCharge(
      pack({
        applicability: lit(true),
        exceptions: [exception('x', lit(false), { effect: 'escalate' })],
        rules: [rule('r', fact('/x', 'equals', 'ab'), 'yes')],
      }),
      { x: 'ab' },
      17,
    );
  });
});

describe('only conditions §8 reaches are charged', () => {
  const costly = fact('/x', 'equals', 'ab'); // 15 units against {x:"ab"}
  it('rules after a false applicability are not charged', () => {
    const r = run(
      compile(pack({ applicability: lit(false), rules: [rule('r', costly, 'yes')] })),
      { x: 'ab' },
      { workBudget: 1 },
    );
    expect(r.kind === 'disposition' && r.disposition.kind).toBe('not-applicable');
    expect(work(r)).toBe(1);
  });
  it('rules after a forced outcome are not charged', () => {
    const c = compile(
      pack({
        rules: [rule('r', costly, 'yes')],
        exceptions: [exception('x', lit(true), { effect: 'force-outcome', outcome: 'no' })],
      }),
    );
    const r = run(c, { x: 'ab' }, { workBudget: 1 });
    expect(r.kind === 'disposition' && r.bytes).toContain('"outcomeId":"no"');
    expect(work(r)).toBe(1);
  });
  it('a suppressed rule is not charged', () => {
    const c = compile(
      pack({
        rules: [rule('r', costly, 'no'), rule('s', lit(true), 'yes')],
        exceptions: [exception('x', lit(true), { effect: 'suppress-rule', targetRule: 'r' })],
      }),
    );
    const r = run(c, { x: 'ab' }, { workBudget: 2 });
    expect(r.kind === 'disposition' && r.bytes).toContain('"outcomeId":"yes"');
    expect(work(r)).toBe(2);
  });
  it('rules blocked at step 5 are not charged', () => {
    const c = compile(
      pack({ rules: [rule('r', costly, 'yes')], exceptions: [exception('x', lit(true), { effect: 'escalate' })] }),
    );
    const r = run(c, { x: 'ab' }, { workBudget: 1 });
    expect(r.kind === 'disposition' && r.disposition.kind).toBe('unresolved');
    expect(work(r)).toBe(1);
  });
});

describe('exhaustion', () => {
  it('is resource-exhaustion in phase evaluation, never a disposition, reporting the work of the stages admitted before it (ADR 0032)', () => {
    const c = compile(pack({ applicability: lit(true), rules: [rule('r', fact('/x', 'equals', 'ab'), 'yes')] }));
    const r = run(c, { x: 'ab' }, { workBudget: 15 });
    expect(exhausted(r)).toBe(true);
    expect(r.kind === 'error' && 'disposition' in r).toBe(false);
    expect(work(r)).toBe(1);
    expect(work(run(c, { x: 'ab' }, { workBudget: 16 }))).toBe(16);
  });
  it('prices a long selected value by its source bytes: one unit short of them refuses', () => {
    const big = { x: 'y'.repeat(100_000) };
    const c = compile(oneRule(fact('/x', 'equals', 'ab')));
    // 1 + 2 + 2 + V("ab") 5 + V(the string) (1 + 100,002 bytes with its quotes) = 100,013
    expect(exhausted(run(c, big, { workBudget: 100_012 }))).toBe(true);
    expect(work(run(c, big, { workBudget: 100_013 }))).toBe(100_013);
  });
  it('the default budget applies when none is given, and MAX_WORK_BUDGET is accepted', () => {
    const c = compile(pack());
    expect(work(run(c, {}))).toBe(1);
    expect(isDisposition(run(c, {}, { workBudget: MAX_WORK_BUDGET }))).toBe(true);
    expect(DEFAULT_WORK_BUDGET).toBeGreaterThanOrEqual(100_000);
    expect(MAX_WORK_BUDGET).toBeGreaterThanOrEqual(DEFAULT_WORK_BUDGET);
  });
  it('a budget that is not an integer from 1 to MAX_WORK_BUDGET is refused as malformed-input in preflight (ADR 0033)', () => {
    const c = compile(pack());
    for (const b of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_WORK_BUDGET + 1]) {
      const r = run(c, {}, { workBudget: b });
      expect(r.kind === 'error' && `${r.error.class}/${r.error.phase}/${r.error.code}`, String(b)).toBe(
        'malformed-input/preflight/work-budget-invalid',
      );
      expect(work(r)).toBe(0);
    }
  });
  it('repeated evaluations of one compiled pack charge each pointer compile afresh', () => {
    const c = compile(oneRule(fact('/x', 'equals', 'ab')));
    expect([1, 2, 3].map(() => work(run(c, { x: 'ab' })))).toEqual([15, 15, 15]);
  });
});
