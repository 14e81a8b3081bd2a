/**
 * Semantic conformance (§3.3) of a structurally conforming document (plain projection; ids are strings, so the
 * projection is exact for everything checked here). Every bullet of §3.3:
 *   - identifiers unique within each collection (outcomes, rules, evidence requirements, sources, exceptions);
 *   - every local reference resolves exactly once, to an object of the right kind: rule outcome, fallback outcome,
 *     rule evidence refs, rule source refs, evidence-present anywhere in any condition, exception targetRule,
 *     exception outcome, exception source refs;
 *   - §9: every metadata.requiredExtensions name is a key of at least one Core `extensions` object.
 * Choices where the text is silent: docs/adr/0025-semantic-reference-diagnostics.md.
 */
import type { Diagnostic } from './types.js';
import { PackCodes } from './codes.js';
import { conditionRoots, walkCondition } from './conditions.js';
import { childPointer } from './pointer.js';

type Kind = 'outcome' | 'rule' | 'evidence requirement' | 'source' | 'exception';

const COLLECTIONS: readonly [Kind, string][] = [
  ['outcome', 'outcomes'],
  ['rule', 'rules'],
  ['evidence requirement', 'evidenceRequirements'],
  ['source', 'sources'],
  ['exception', 'exceptions'],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Plain = any;

export function checkSemantics(pack: Plain): Diagnostic[] {
  const out: Diagnostic[] = [];
  /** kind → id → pointers of the declaring objects' id members */
  const index = new Map<Kind, Map<string, string[]>>();
  for (const [kind, member] of COLLECTIONS) {
    const ids = new Map<string, string[]>();
    index.set(kind, ids);
    (pack[member] ?? []).forEach((item: { id: string }, i: number) => {
      const at = `/${member}/${i}/id`;
      const seen = ids.get(item.id);
      if (seen === undefined) {
        ids.set(item.id, [at]);
      } else {
        seen.push(at);
        out.push({
          code: PackCodes.DUPLICATE_ID,
          severity: 'error',
          pointer: at,
          message: `${kind} id "${item.id}" is already declared at ${seen[0]}; ids are unique within their collection (§3.3)`,
          id: item.id,
          firstPointer: seen[0],
        });
      }
    });
  }

  const ref = (pointer: string, id: string, expected: Kind): void => {
    const report = (code: string, message: string, more: Record<string, unknown> = {}): void => {
      out.push({ code, severity: 'error', pointer, message, id, expectedKind: expected, ...more });
    };
    const found = index.get(expected)!.get(id);
    if (found !== undefined && found.length === 1) return;
    if (found !== undefined)
      return report(
        PackCodes.AMBIGUOUS_REFERENCE,
        `"${id}" names ${found.length} ${expected}s; a reference must resolve exactly once (§3.3)`,
        { candidates: [...found] },
      );
    const other = COLLECTIONS.map(([k]) => k).find((k) => k !== expected && index.get(k)!.has(id));
    if (other !== undefined)
      return report(
        PackCodes.WRONG_KIND_REFERENCE,
        `"${id}" names a ${other}, but a ${expected} is required here (§3.3)`,
        { foundKind: other },
      );
    report(PackCodes.UNRESOLVED_REFERENCE, `"${id}" does not name a declared ${expected} (§3.3)`);
  };

  (pack.rules ?? []).forEach((rule: Plain, i: number) => {
    ref(`/rules/${i}/outcome`, rule.outcome, 'outcome');
    (rule.evidenceRequirementRefs ?? []).forEach((id: string, j: number) =>
      ref(`/rules/${i}/evidenceRequirementRefs/${j}`, id, 'evidence requirement'),
    );
    (rule.sourceRefs ?? []).forEach((id: string, j: number) => ref(`/rules/${i}/sourceRefs/${j}`, id, 'source'));
  });
  if (pack.fallbackOutcome !== undefined) ref('/fallbackOutcome', pack.fallbackOutcome, 'outcome');
  (pack.exceptions ?? []).forEach((x: Plain, i: number) => {
    if (x.targetRule !== undefined) ref(`/exceptions/${i}/targetRule`, x.targetRule, 'rule');
    if (x.outcome !== undefined) ref(`/exceptions/${i}/outcome`, x.outcome, 'outcome');
    (x.sourceRefs ?? []).forEach((id: string, j: number) => ref(`/exceptions/${i}/sourceRefs/${j}`, id, 'source'));
  });
  // Document order: applicability, rules, exceptions (the walk order within each root is pre-order).
  for (const root of conditionRoots(pack)) {
    for (const { node, pointer } of walkCondition(root)) {
      if (node.op === 'evidence-present') {
        ref(childPointer(pointer, 'evidenceRequirement'), node.evidenceRequirement, 'evidence requirement');
      }
    }
  }
  out.push(...checkRequiredExtensions(pack));
  return out;
}

/** §9: every required extension name appears as a key in at least one Core extensions object of the document. */
function checkRequiredExtensions(pack: Plain): Diagnostic[] {
  const required: string[] = pack.metadata?.requiredExtensions ?? [];
  if (required.length === 0) return [];
  const keys = new Set<string>();
  for (const ext of extensionObjects(pack)) for (const k of Object.keys(ext)) keys.add(k);
  const out: Diagnostic[] = [];
  required.forEach((name, i) => {
    if (!keys.has(name)) {
      out.push({
        code: PackCodes.REQUIRED_EXTENSION_UNDECLARED,
        severity: 'error',
        pointer: `/metadata/requiredExtensions/${i}`,
        message: `required extension "${name}" has no value: it must appear as a key of an extensions object (§9)`,
        extension: name,
      });
    }
  });
  return out;
}

/**
 * The Core objects that carry `extensions` (the schema's positions): root, decision, each evidence requirement,
 * source, outcome, rule and exception, escalation, metadata. Objects nested inside an extension's own value are
 * that extension's data, not Core extensions objects (§9: "Values may be any JSON value").
 */
function extensionObjects(pack: Plain): object[] {
  const holders: Plain[] = [pack, pack.decision, pack.escalation, pack.metadata];
  for (const member of ['evidenceRequirements', 'sources', 'outcomes', 'rules', 'exceptions'])
    holders.push(...(pack[member] ?? []));
  return holders.filter((h) => h !== undefined && h.extensions !== undefined).map((h) => h.extensions as object);
}
