import { isDecimalString, readPointer, utf8ByteLength as utf8Length } from '../carrier/index.js';
import type { JsonArray, JsonObject, JsonValue } from '../carrier/json-value.js';
import type { ValidatedPack } from '../pack/index.js';
import {
  CMP_EQ,
  CMP_GE,
  CMP_GT,
  CMP_IN,
  CMP_LE,
  CMP_LT,
  CMP_NE,
  OP_ALL,
  OP_ANY,
  OP_EVERY,
  OP_EVIDENCE,
  OP_EXISTS,
  OP_FACT,
  OP_LITERAL,
  OP_NOT,
  OP_UNIFORM,
  UNKNOWN,
  type CompiledCondition,
  type CompiledEscalation,
  type CompiledException,
  type CompiledPack,
  type CompiledPointer,
  type CompiledRoute,
  type CompiledRule,
  type CompiledTree,
} from './compiled-pack.js';
import type { HandoffTarget, TriggerReason } from './types.js';

/** A validated pack that does not have the shape validation promised: a bug upstream, never an input condition. */
export class CompileInvariantError extends Error {
  override readonly name = 'CompileInvariantError';
  readonly code = 'compile-invariant';
}

const bad = (what: string): never => {
  throw new CompileInvariantError(`validated pack lacks the expected shape: ${what}`);
};

const member = (o: JsonObject, name: string): JsonValue | undefined => o.members.get(name);
function obj(v: JsonValue | undefined, what: string): JsonObject {
  return v?.kind === 'object' ? v : bad(`${what} is an object`);
}
function arr(v: JsonValue | undefined, what: string): JsonArray {
  return v?.kind === 'array' ? v : bad(`${what} is an array`);
}
function str(v: JsonValue | undefined, what: string): string {
  return v?.kind === 'string' ? v.value : bad(`${what} is a string`);
}
function optArr(o: JsonObject, name: string): readonly JsonValue[] {
  const v = member(o, name);
  return v === undefined ? [] : arr(v, name).items;
}

const OPERATORS: ReadonlyMap<string, number> = new Map([
  ['equals', CMP_EQ],
  ['not-equals', CMP_NE],
  ['greater-than', CMP_GT],
  ['greater-than-or-equal', CMP_GE],
  ['less-than', CMP_LT],
  ['less-than-or-equal', CMP_LE],
  ['in', CMP_IN],
]);

/** Compile-time state: pointer interning and slot numbering. */
class Builder {
  readonly pointers: CompiledPointer[] = [];
  private readonly pointerIndex = new Map<string, number>();
  slots = 0;
  constructor(readonly evidenceIndex: ReadonlyMap<string, number>) {}

  /** RFC 0008: "distinct authored pointer" = distinct pointer text; all its uses share one compile charge. */
  pointer(text: string): number {
    const known = this.pointerIndex.get(text);
    if (known !== undefined) return known;
    const parsed = readPointer(text);
    if (!parsed.ok) return bad(`pointer ${JSON.stringify(text)} is an RFC 6901 pointer`);
    const tokens = parsed.value;
    // Resolution: one unit per reference token (empty ones included) plus the decoded tokens' bytes (ADR 0031).
    let resolveCost = tokens.length;
    for (const t of tokens) resolveCost += utf8Length(t);
    const p: CompiledPointer = { text, tokens, compileCost: utf8Length(text), resolveCost: Math.max(1, resolveCost) };
    this.pointers.push(p);
    this.pointerIndex.set(text, this.pointers.length - 1);
    return this.pointers.length - 1;
  }
}

interface TreeAcc {
  charge: number;
  facts: CompiledCondition[];
  aggregates: CompiledCondition[];
  /** Inside a where (RFC 0008): pointers resolve against the element at evaluation time. */
  readonly scoped: boolean;
}

const node = (partial: Partial<CompiledCondition> & { op: number }): CompiledCondition => ({
  children: [],
  literal: false,
  pointer: -1,
  cmp: -1,
  operand: undefined,
  decimal: '',
  candidates: 0,
  slot: -1,
  evidence: -1,
  where: undefined,
  at: -1,
  scoped: false,
  ...partial,
});

function compileCondition(v: JsonValue, b: Builder, acc: TreeAcc): CompiledCondition {
  const o = obj(v, 'condition');
  const op = str(member(o, 'op'), 'condition.op');
  acc.charge += 1; // RFC 0008: 1 per condition node visited; every branch of all/any/not is charged.
  switch (op) {
    case 'literal': {
      const lit = member(o, 'value');
      return node({ op: OP_LITERAL, literal: lit?.kind === 'boolean' ? lit.value : bad('literal.value is a boolean') });
    }
    case 'all':
    case 'any': {
      const children = arr(member(o, 'conditions'), `${op}.conditions`).items.map((c) => compileCondition(c, b, acc));
      if (children.length === 0) bad(`${op}.conditions is non-empty`);
      return node({ op: op === 'all' ? OP_ALL : OP_ANY, children });
    }
    case 'not':
      return node({ op: OP_NOT, children: [compileCondition(member(o, 'condition') ?? bad('not.condition'), b, acc)] });
    case 'evidence-present': {
      const id = str(member(o, 'evidenceRequirement'), 'evidenceRequirement');
      const index = b.evidenceIndex.get(id);
      if (index === undefined) bad(`evidence requirement ${id} is declared`);
      acc.charge += utf8Length(id); // RFC 0008: the byte length of the requirement id it looks up.
      return node({ op: OP_EVIDENCE, evidence: index as number });
    }
    case 'fact': {
      const cmp = OPERATORS.get(str(member(o, 'operator'), 'fact.operator')) ?? bad('fact.operator is a §7.4 operator');
      const operand = member(o, 'value') ?? bad('fact.value');
      acc.charge += operand.v; // RFC 0008: V(authored operand), from its exact source tokens.
      const ordered = cmp === CMP_GT || cmp === CMP_GE || cmp === CMP_LT || cmp === CMP_LE;
      const decimal = ordered && operand.kind === 'string' && isDecimalString(operand.value) ? operand.value : '';
      const n = node({
        op: OP_FACT,
        cmp,
        operand,
        decimal,
        candidates: cmp === CMP_IN && operand.kind === 'array' ? operand.items.length : 1,
        pointer: b.pointer(str(member(o, 'path'), 'fact.path')),
        slot: acc.scoped ? -1 : b.slots++,
        scoped: acc.scoped,
      });
      acc.facts.push(n);
      return n;
    }
    case 'exists':
    case 'every':
    case 'uniform': {
      // RFC 0008 aggregates: the node unit is charged here; path, at and where are priced per evaluation.
      const uniform = op === 'uniform';
      const n = node({
        op: op === 'exists' ? OP_EXISTS : op === 'every' ? OP_EVERY : OP_UNIFORM,
        pointer: b.pointer(str(member(o, 'path'), `${op}.path`)),
        at: uniform ? b.pointer(str(member(o, 'at'), 'uniform.at')) : -1,
        where: uniform ? undefined : compileTree(member(o, 'where') ?? bad(`${op}.where`), b, true),
        slot: acc.scoped ? -1 : b.slots++,
        scoped: acc.scoped,
      });
      acc.aggregates.push(n);
      return n;
    }
    default:
      return bad(`condition op ${JSON.stringify(op)} is a Core op`);
  }
}

function compileTree(v: JsonValue, b: Builder, scoped = false): CompiledTree {
  const acc: TreeAcc = { charge: 0, facts: [], aggregates: [], scoped };
  const root = compileCondition(v, b, acc);
  return { root, staticCharge: acc.charge, facts: acc.facts, aggregates: acc.aggregates };
}

function target(v: JsonValue | undefined): HandoffTarget {
  const o = obj(v, 'target');
  const kind = str(member(o, 'kind'), 'target.kind');
  if (kind !== 'human-role' && kind !== 'queue' && kind !== 'system') return bad('target.kind');
  return Object.freeze({ kind, name: str(member(o, 'name'), 'target.name') });
}

function compileEscalation(v: JsonValue | undefined): CompiledEscalation | undefined {
  if (v === undefined) return undefined;
  const o = obj(v, 'escalation');
  const triggers = new Set(
    arr(member(o, 'triggers'), 'escalation.triggers').items.map((t) => str(t, 'trigger') as TriggerReason),
  );
  const routesValue = member(o, 'routes');
  const routes =
    routesValue === undefined
      ? undefined
      : arr(routesValue, 'escalation.routes').items.map((r): CompiledRoute => {
          const ro = obj(r, 'route');
          const rt = member(ro, 'triggers');
          return {
            target: target(member(ro, 'target')),
            triggers:
              rt === undefined
                ? undefined
                : arr(rt, 'route.triggers').items.map((t) => str(t, 'route trigger') as TriggerReason),
          };
        });
  if (routes === undefined && member(o, 'target') === undefined) bad('escalation declares target or routes');
  return { triggers, routes };
}

/** Compile a validated pack once; evaluate it many times with evaluateCompiled. */
export function compilePack(pack: ValidatedPack): CompiledPack {
  const doc = pack.document;
  const evidenceIds: string[] = [];
  const evidenceIndex = new Map<string, number>();
  const requiredEvidence: number[] = [];
  for (const e of optArr(doc, 'evidenceRequirements')) {
    const eo = obj(e, 'evidence requirement');
    const id = str(member(eo, 'id'), 'evidence requirement id');
    evidenceIndex.set(id, evidenceIds.length);
    const required = member(eo, 'required');
    if (required?.kind === 'boolean' && required.value) requiredEvidence.push(evidenceIds.length);
    evidenceIds.push(id);
  }
  const b = new Builder(evidenceIndex);
  const applicabilityValue = member(doc, 'applicability');
  const applicability = applicabilityValue === undefined ? undefined : compileTree(applicabilityValue, b);

  const ruleIndex = new Map<string, number>();
  const rules = arr(member(doc, 'rules'), 'rules').items.map((r, i): CompiledRule => {
    const ro = obj(r, 'rule');
    const id = str(member(ro, 'id'), 'rule.id');
    ruleIndex.set(id, i);
    return {
      id,
      when: compileTree(member(ro, 'when') ?? bad('rule.when'), b),
      outcome: str(member(ro, 'outcome'), 'rule.outcome'),
      escalateOnUnknown: str(member(ro, 'onUnknown'), 'rule.onUnknown') === 'escalate',
    };
  });
  const exceptions = optArr(doc, 'exceptions').map((x): CompiledException => {
    const xo = obj(x, 'exception');
    const effect = str(member(xo, 'effect'), 'exception.effect');
    if (effect !== 'suppress-rule' && effect !== 'force-outcome' && effect !== 'escalate')
      return bad('exception.effect');
    const tr = member(xo, 'targetRule');
    const oc = member(xo, 'outcome');
    const targetRule = tr === undefined ? -1 : (ruleIndex.get(str(tr, 'targetRule')) ?? bad('targetRule names a rule'));
    if (effect === 'suppress-rule' && targetRule < 0) bad('suppress-rule names targetRule');
    if (effect === 'force-outcome' && oc === undefined) bad('force-outcome names outcome');
    return {
      id: str(member(xo, 'id'), 'exception.id'),
      when: compileTree(member(xo, 'when') ?? bad('exception.when'), b),
      effect,
      targetRule,
      outcome: oc === undefined ? undefined : str(oc, 'exception.outcome'),
      escalateOnUnknown: str(member(xo, 'onUnknown'), 'exception.onUnknown') === 'escalate',
    };
  });
  const outcomeIds = new Set(
    arr(member(doc, 'outcomes'), 'outcomes').items.map((x) => str(member(obj(x, 'outcome'), 'id'), 'outcome.id')),
  );
  const fb = member(doc, 'fallbackOutcome');
  const escalation = compileEscalation(member(doc, 'escalation'));
  const metadata = member(doc, 'metadata');
  const requiredExtensions =
    metadata === undefined
      ? []
      : optArr(obj(metadata, 'metadata'), 'requiredExtensions').map((x) => str(x, 'required extension'));

  return {
    specVersion: pack.specVersion,
    draftFeatures: pack.draftFeatures ?? [],
    applicability,
    evidenceIds,
    evidenceIndex,
    requiredEvidence,
    exceptions,
    rules,
    fallbackOutcome: fb === undefined ? undefined : str(fb, 'fallbackOutcome'),
    escalation,
    requiredExtensions,
    pointers: b.pointers,
    context: {
      outcomeIds,
      triggers: escalation?.triggers,
      routeTargets: escalation?.routes?.map((r) => r.target),
    },
    scratch: {
      slots: new Array<JsonValue | undefined>(b.slots).fill(undefined),
      pointerEpoch: new Uint32Array(b.pointers.length),
      epoch: 0,
      evidence: new Uint8Array(evidenceIds.length).fill(UNKNOWN),
      ruleSuppressed: new Uint8Array(rules.length),
    },
  };
}
