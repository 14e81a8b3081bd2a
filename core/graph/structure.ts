/**
 * Static validation of one document (A8 "The structural gate", A7 static conflicts, B2 and B4 interface rules),
 * every finding in the documented order:
 *   1. nodes sorted by id: JPS-GRAPH-RESERVED-NODE-ID (B4, 0.2.0-draft), JPS-GRAPH-NODE-PACK;
 *   2. edges by position: CALLER-EDGE-IN-SUBGRAPH (B4), EDGE-ENDPOINT (from, then to), EDGE-SELF, EDGE-OUTPUT (B2),
 *      EDGE-DUPLICATE-FACT, FACT-POINTER-DEPTH, EDGE-FACT-OVERLAP, EDGE-DUPLICATE-EVIDENCE — the feed checks for
 *      every edge whose `to` is declared, whatever its `from` (A8);
 *   3. the `inputs` mappings (sorted keys): RESERVED-NODE-ID, INPUT-NODE, then the same fact and evidence checks,
 *      since a mapping feeds its internal node like an edge (0022:133);
 *   4. the `outputs` (sorted names): RESERVED-NODE-ID, OUTPUT-NODE;
 *   5. JPS-GRAPH-RESULT-NODE; 6. JPS-GRAPH-CYCLE.
 * Checks that need a child document (undeclared outputs and interface keys) are in references.ts (B5 item 3).
 */
import { escapeToken, pointerTokens } from '../carrier/index.js';
import { GRAPH_LIMITS, type DiagnosticCode } from './codes.js';
import type { GraphDiagnostic } from './diagnostic.js';
import { CALLER, type GraphDocument, type GraphNode } from './document.js';
import { cycles } from './order.js';

export interface StructureContext {
  /** The jpack.json `packs` keys. */
  readonly packs: ReadonlySet<string>;
  /** False when the document is checked as a subgraph instance (B4: caller edges are root-only). */
  readonly isRoot: boolean;
}

const sameTokens = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((t, i) => t === b[i]);
const isPrefix = (a: readonly string[], b: readonly string[]): boolean =>
  a.length <= b.length && a.every((t, i) => t === b[i]);

/** The feeds already seen per target node: decoded fact pointers (pack targets) or keys, and evidence ids. */
class FeedTable {
  private readonly facts = new Map<string, string[][]>();
  private readonly evidence = new Map<string, Set<string>>();

  fact(
    target: GraphNode,
    pointer: string,
  ): 'JPS-GRAPH-EDGE-DUPLICATE-FACT' | 'JPS-GRAPH-FACT-POINTER-DEPTH' | 'JPS-GRAPH-EDGE-FACT-OVERLAP' | undefined {
    // Into a subgraph the pointer is an interface key: two feeds of one key collide; keys never overlap (B2).
    const tokens = target.kind === 'subgraph' ? [pointer] : pointerTokens(pointer);
    let seen = this.facts.get(target.id);
    if (seen === undefined) this.facts.set(target.id, (seen = []));
    if (seen.some((s) => sameTokens(s, tokens))) return 'JPS-GRAPH-EDGE-DUPLICATE-FACT';
    if (target.kind === 'pack' && tokens.length > GRAPH_LIMITS.pointerTokens) return 'JPS-GRAPH-FACT-POINTER-DEPTH';
    const overlap = target.kind === 'pack' && seen.some((s) => isPrefix(s, tokens) || isPrefix(tokens, s));
    seen.push(tokens);
    return overlap ? 'JPS-GRAPH-EDGE-FACT-OVERLAP' : undefined;
  }

  evidenceFeed(target: string, id: string): boolean {
    let seen = this.evidence.get(target);
    if (seen === undefined) this.evidence.set(target, (seen = new Set()));
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  }
}

export function structuralDiagnostics(doc: GraphDocument, ctx: StructureContext): GraphDiagnostic[] {
  const out: GraphDiagnostic[] = [];
  const add = (code: DiagnosticCode, path: string, message: string): void => {
    out.push({ code, path, message });
  };
  const draft = doc.formatVersion === '0.2.0-draft';

  for (const id of [...doc.nodes.keys()].sort()) {
    const node = doc.nodes.get(id)!;
    if (draft && id === CALLER)
      add('JPS-GRAPH-RESERVED-NODE-ID', `/nodes/${id}`, 'the node id "caller" is reserved (B4, 0022:111)');
    if (node.kind === 'pack' && !ctx.packs.has(node.pack))
      add('JPS-GRAPH-NODE-PACK', `/nodes/${id}/pack`, `pack ${JSON.stringify(node.pack)} is not in jpack.json (A8)`);
  }

  const feeds = new FeedTable();
  for (const e of doc.edges) {
    const at = `/edges/${e.index}`;
    const isCaller = draft && e.from === CALLER;
    if (isCaller && !ctx.isRoot) {
      add('JPS-GRAPH-CALLER-EDGE-IN-SUBGRAPH', `${at}/from`, 'a subgraph receives values only through its inputs (B4)');
      continue;
    }
    const fromOk = isCaller || doc.nodes.has(e.from);
    const toOk = doc.nodes.has(e.to);
    if (!fromOk) add('JPS-GRAPH-EDGE-ENDPOINT', `${at}/from`, `${JSON.stringify(e.from)} is not a declared node (A8)`);
    if (!toOk) add('JPS-GRAPH-EDGE-ENDPOINT', `${at}/to`, `${JSON.stringify(e.to)} is not a declared node (A8)`);
    if (fromOk && toOk && e.from === e.to) {
      add('JPS-GRAPH-EDGE-SELF', at, `an edge from ${JSON.stringify(e.from)} to itself (A8)`);
      continue;
    }
    // A8: the feed checks count every edge whose `to` is declared, even when its `from` is not.
    if (!toOk) continue;
    const source = isCaller || !fromOk ? undefined : doc.nodes.get(e.from)!;
    if (source?.kind === 'subgraph' && e.output === undefined)
      add(
        'JPS-GRAPH-EDGE-OUTPUT',
        at,
        `an edge from subgraph node ${JSON.stringify(e.from)} must name its output (B2)`,
      );
    if (source?.kind === 'pack' && e.output !== undefined)
      add('JPS-GRAPH-EDGE-OUTPUT', `${at}/output`, `pack node ${JSON.stringify(e.from)} has no outputs (B2)`);
    const target = doc.nodes.get(e.to)!;
    if (e.fact !== undefined) {
      const code = feeds.fact(target, e.fact);
      if (code !== undefined) add(code, `${at}/${e.factMember}`, factMessage(code, e.to, e.fact));
    }
    if (e.evidence !== undefined && !feeds.evidenceFeed(e.to, e.evidence))
      add(
        'JPS-GRAPH-EDGE-DUPLICATE-EVIDENCE',
        at,
        `two feeds of ${JSON.stringify(e.to)}'s evidence ${e.evidence} (A7)`,
      );
  }

  for (const m of doc.inputFacts) {
    const at = `/inputs/facts/${escapeToken(m.key)}`;
    const target = mappingTarget(doc, m.node, at, add);
    if (target === undefined) continue;
    const code = feeds.fact(target, m.pointer);
    if (code !== undefined) add(code, `${at}/pointer`, factMessage(code, m.node, m.pointer));
  }
  for (const m of doc.inputEvidence) {
    const at = `/inputs/evidence/${m.key}`;
    const target = mappingTarget(doc, m.node, at, add);
    if (target === undefined) continue;
    if (!feeds.evidenceFeed(m.node, m.requirementId))
      add('JPS-GRAPH-EDGE-DUPLICATE-EVIDENCE', at, `two feeds of ${JSON.stringify(m.node)}'s evidence (0022:133)`);
  }

  for (const o of doc.outputs.values()) {
    const at = `/outputs/${o.name}`;
    if (o.node === CALLER) {
      add('JPS-GRAPH-RESERVED-NODE-ID', `${at}/node`, 'an output cannot name the reserved "caller" (B4)');
      continue;
    }
    const node = doc.nodes.get(o.node);
    if (node === undefined) add('JPS-GRAPH-OUTPUT-NODE', `${at}/node`, `${JSON.stringify(o.node)} is not a node (B2)`);
    else if (node.kind === 'pack' && o.output !== undefined)
      add('JPS-GRAPH-OUTPUT-NODE', `${at}/output`, `pack node ${JSON.stringify(o.node)} has no outputs (B2)`);
    else if (node.kind === 'subgraph' && o.output === undefined)
      add('JPS-GRAPH-OUTPUT-NODE', at, `an output of subgraph node ${JSON.stringify(o.node)} names its output (B2)`);
  }

  if (!doc.nodes.has(doc.result))
    add('JPS-GRAPH-RESULT-NODE', '/result', `result ${JSON.stringify(doc.result)} is not a declared node (A8)`);
  for (const members of cycles(doc))
    add('JPS-GRAPH-CYCLE', '/edges', `the edges form a cycle through ${members.join(', ')} (A8)`);
  return out;
}

function mappingTarget(
  doc: GraphDocument,
  node: string,
  at: string,
  add: (code: DiagnosticCode, path: string, message: string) => void,
): GraphNode | undefined {
  if (node === CALLER) {
    add('JPS-GRAPH-RESERVED-NODE-ID', `${at}/node`, 'an interface mapping cannot name the reserved "caller" (B4)');
    return undefined;
  }
  const target = doc.nodes.get(node);
  if (target === undefined) add('JPS-GRAPH-INPUT-NODE', `${at}/node`, `${JSON.stringify(node)} is not a node (B2)`);
  return target;
}

function factMessage(code: DiagnosticCode, to: string, pointer: string): string {
  switch (code) {
    case 'JPS-GRAPH-EDGE-DUPLICATE-FACT':
      return `two feeds of ${JSON.stringify(to)}'s fact ${JSON.stringify(pointer)} (A7)`;
    case 'JPS-GRAPH-FACT-POINTER-DEPTH':
      return `fact pointer ${JSON.stringify(pointer)} has more than ${GRAPH_LIMITS.pointerTokens} tokens (A7)`;
    default:
      return `fact pointer ${JSON.stringify(pointer)} overlaps another feed of ${JSON.stringify(to)} (A7)`;
  }
}
