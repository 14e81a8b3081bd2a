/**
 * A document's run plan (ADR 0380): what a run of one graph document needs that does not depend on the inputs —
 * its A4 evaluation order, the feeds into each node in the order they are applied (edges by position, then the
 * `inputs` mappings in key order; A2, B2), every pointer decoded once, and the feeds the caller-collision check
 * reads (A7). Computed once per loaded document and shared by all its instances and runs: the document is
 * immutable, so the plan is a pure function of its bytes.
 */
import { CALLER, type EvidenceMapping, type FactMapping, type GraphDocument, type GraphEdge } from './document.js';
import { evaluationOrder } from './order.js';
import { pointerTokens } from '../carrier/index.js';

/** One step feeding a node, in application order. */
export type FeedStep =
  /** A draft document's caller edge (B4): the value is read from the caller document. */
  | {
      readonly kind: 'caller';
      readonly edge: GraphEdge;
      /** Decoded target pointer (pack target) — unused for a subgraph target, whose `fact` is an interface key. */
      readonly factTokens: readonly string[];
      /** Decoded caller pointer (`callerFact`), when the edge carries a fact. */
      readonly callerFactTokens: readonly string[];
    }
  /** A dataflow edge from another node of the same document (A2, B2). */
  | { readonly kind: 'node'; readonly edge: GraphEdge; readonly factTokens: readonly string[] }
  /** An `inputs.facts` mapping (B2): `from` is "input:<key>". */
  | {
      readonly kind: 'input-fact';
      readonly mapping: FactMapping;
      readonly from: string;
      readonly factTokens: readonly string[];
    }
  /** An `inputs.evidence` mapping (B2). */
  | { readonly kind: 'input-evidence'; readonly mapping: EvidenceMapping; readonly from: string };

/** A fact or evidence feed into a root pack node, for the A7 caller-collision check. */
export interface RootFeed {
  readonly node: string;
  /** The fed pointer, decoded, when the feed is a fact. */
  readonly factTokens?: readonly string[];
  readonly fact?: string;
  readonly evidence?: string;
}

export interface DocumentPlan {
  /** A4 order: Kahn with the smallest ready id first. */
  readonly order: readonly string[];
  /** Node id → its feed steps; a node without feeds has an empty list. */
  readonly feeds: ReadonlyMap<string, readonly FeedStep[]>;
  /** `inputs.facts` keys decoded (a root document binds them from the caller, Docket's decision 2). */
  readonly inputFactTokens: ReadonlyMap<string, readonly string[]>;
  /** The fact feeds and evidence feeds into each pack node, in edge order then `inputs` mapping order (A7). */
  readonly rootFeeds: readonly RootFeed[];
}

const NO_TOKENS: readonly string[] = Object.freeze([]);

const plans = new WeakMap<GraphDocument, DocumentPlan>();

/** The plan of a document, built on first use and kept while the document lives. */
export function documentPlan(doc: GraphDocument): DocumentPlan {
  let p = plans.get(doc);
  if (p === undefined) plans.set(doc, (p = buildPlan(doc)));
  return p;
}

function buildPlan(doc: GraphDocument): DocumentPlan {
  const draft = doc.formatVersion !== '1';
  const feeds = new Map<string, FeedStep[]>();
  for (const id of doc.nodes.keys()) feeds.set(id, []);
  const stepsOf = (id: string): FeedStep[] | undefined => feeds.get(id);
  const tokens = (p: string | undefined): readonly string[] => (p === undefined ? NO_TOKENS : pointerTokens(p));
  for (const edge of doc.edges) {
    // In format "1" "caller" is an ordinary node id (only 0.2.0-draft reserves it, B4).
    if (draft && edge.from === CALLER)
      stepsOf(edge.to)?.push({
        kind: 'caller',
        edge,
        factTokens: tokens(edge.fact),
        callerFactTokens: tokens(edge.callerFact),
      });
    else stepsOf(edge.to)?.push({ kind: 'node', edge, factTokens: tokens(edge.fact) });
  }
  for (const mapping of doc.inputFacts)
    stepsOf(mapping.node)?.push({
      kind: 'input-fact',
      mapping,
      from: `input:${mapping.key}`,
      factTokens: tokens(mapping.pointer),
    });
  for (const mapping of doc.inputEvidence)
    stepsOf(mapping.node)?.push({ kind: 'input-evidence', mapping, from: `input:${mapping.key}` });
  const inputFactTokens = new Map<string, readonly string[]>();
  for (const m of doc.inputFacts) inputFactTokens.set(m.key, tokens(m.key));
  return { order: evaluationOrder(doc), feeds, inputFactTokens, rootFeeds: rootFeeds(doc) };
}

/** A7: the fact feeds and evidence feeds into each pack node, in edge order then `inputs` mapping order. */
function rootFeeds(doc: GraphDocument): RootFeed[] {
  const out: RootFeed[] = [];
  const isPack = (id: string): boolean => doc.nodes.get(id)?.kind === 'pack';
  for (const e of doc.edges) {
    if (!isPack(e.to)) continue;
    out.push({
      node: e.to,
      ...(e.fact !== undefined ? { fact: e.fact, factTokens: pointerTokens(e.fact) } : {}),
      ...(e.evidence !== undefined ? { evidence: e.evidence } : {}),
    });
  }
  for (const m of doc.inputFacts)
    if (isPack(m.node)) out.push({ node: m.node, fact: m.pointer, factTokens: pointerTokens(m.pointer) });
  for (const m of doc.inputEvidence) if (isPack(m.node)) out.push({ node: m.node, evidence: m.requirementId });
  return out;
}
