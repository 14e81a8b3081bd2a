/**
 * `graph validate` (A8): every static finding in order — load (A1), structure and references (A8, B5) — then the
 * validate-only semantic checks that read the packs (A8 `Semantic`): JPS-GRAPH-NODE-PACK-READ for a node some
 * feed gives evidence to whose pack cannot be read (nodes sorted), JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED for an evidence feed naming a requirement
 * its target pack does not declare (feeds by position). Root first, then instances depth first.
 */
import { EXIT, type GraphExit } from '../exit-codes.js';
import { prefixed, type GraphDiagnostic } from './diagnostic.js';
import { CALLER } from './document.js';
import { loadGraph } from './load.js';
import { packState } from './packs.js';
import type { GraphProject } from './project.js';
import { resolveAll, type Instance } from './references.js';

export interface GraphValidation {
  readonly status: 'valid' | 'invalid';
  readonly diagnostics: readonly GraphDiagnostic[];
  /** 0 valid, 1 invalid; a load refusal keeps its own status (A1). */
  readonly exit: GraphExit;
}

export function validateGraph(graph: Uint8Array, project: GraphProject): GraphValidation {
  const loaded = loadGraph(graph);
  if (!loaded.ok)
    return {
      status: 'invalid',
      diagnostics: [{ code: loaded.error.code, path: '', message: loaded.error.message }],
      exit: loaded.error.exit,
    };
  const { diagnostics, root } = resolveAll(loaded.value, project);
  const all = [...diagnostics];
  semantic(root, project, new Map(), all);
  return all.length === 0
    ? { status: 'valid', diagnostics: all, exit: EXIT.OK }
    : { status: 'invalid', diagnostics: all, exit: EXIT.GRAPH_INVALID };
}

/** Declared evidence requirement ids of a pack, 'unreadable', or undefined when the engine would refuse the pack. */
type PackEvidence = ReadonlySet<string> | 'unreadable' | undefined;

function packEvidence(project: GraphProject, pack: string, cache: Map<string, PackEvidence>): PackEvidence {
  if (cache.has(pack)) return cache.get(pack);
  const file = project.packs.get(pack);
  // The packs a run compiles, from the same memo (packs.ts); a pack not in jpack.json is JPS-GRAPH-NODE-PACK's.
  const state = file === undefined ? undefined : packState(file).state;
  let answer: PackEvidence;
  if (state?.kind === 'ok') answer = new Set(state.compiled.evidenceIds);
  else if (state?.kind === 'unreadable') answer = 'unreadable';
  cache.set(pack, answer);
  return answer;
}

function semantic(
  inst: Instance,
  project: GraphProject,
  cache: Map<string, PackEvidence>,
  out: GraphDiagnostic[],
): void {
  const { doc } = inst;
  const add = (d: GraphDiagnostic): void => {
    out.push(prefixed(inst.path, d));
  };
  // A8 `Semantic`: the packs read are those of nodes some feed gives evidence to (nodes sorted), whatever the feed's
  // other endpoint; then the evidence feeds by position.
  const evidenceFed = new Set<string>();
  for (const e of doc.edges)
    if (e.evidence !== undefined && !(e.from === CALLER && doc.formatVersion === '1')) evidenceFed.add(e.to);
  for (const m of doc.inputEvidence) evidenceFed.add(m.node);
  for (const id of [...doc.nodes.keys()].sort()) {
    const node = doc.nodes.get(id)!;
    if (!evidenceFed.has(id)) continue;
    if (node.kind === 'pack' && packEvidence(project, node.pack, cache) === 'unreadable')
      add({
        code: 'JPS-GRAPH-NODE-PACK-READ',
        path: `/nodes/${id}/pack`,
        message: `pack ${JSON.stringify(node.pack)} cannot be read (A8)`,
      });
  }
  const declared = (node: string): ReadonlySet<string> | undefined => {
    const n = doc.nodes.get(node);
    if (n?.kind !== 'pack') return undefined;
    const e = packEvidence(project, n.pack, cache);
    return typeof e === 'object' ? e : undefined;
  };
  const check = (node: string, requirement: string, path: string): void => {
    const ids = declared(node);
    if (ids !== undefined && !ids.has(requirement))
      add({
        code: 'JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED',
        path,
        message: `${JSON.stringify(node)}'s pack declares no evidence requirement ${JSON.stringify(requirement)} (A8)`,
      });
  };
  for (const e of doc.edges) {
    if (e.evidence === undefined || (e.from === CALLER && doc.formatVersion === '1')) continue;
    check(e.to, e.evidence, `/edges/${e.index}`);
  }
  for (const m of doc.inputEvidence) check(m.node, m.requirementId, `/inputs/evidence/${m.key}/requirementId`);
  for (const id of [...inst.children.keys()].sort()) semantic(inst.children.get(id)!, project, cache, out);
}
