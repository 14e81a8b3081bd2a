/**
 * The answer of a graph run (graph-semantics.md "Output contract", A5, B6): shapes only. Designed so a ledger entry
 * can record it later: every disposition is a complete Core §8.3 object that went through the one disposition
 * serializer (core/evaluate/disposition.ts), every document is named by its digest, and the work is counted.
 */
import type { JsonValue } from '../carrier/index.js';
import type { Disposition, EvaluationTrace, HandoffTarget, Reason } from '../evaluate/index.js';
import type { FormatVersion } from './document.js';
import type { GraphRefusal } from './refusal.js';

export interface FactFeed {
  /** The upstream node id, "caller", or "input:<key>" for a value bound through a subgraph's `inputs`. */
  readonly from: string;
  /** Present for a feed from a subgraph node: the output it read. */
  readonly output?: string;
  readonly pointer: string;
  readonly injected: boolean;
  /** The value written (the carrier tree, number lexemes exact); present only when injected. */
  readonly value?: JsonValue;
}

export interface EvidenceFeed {
  readonly from: string;
  readonly output?: string;
  readonly requirement: string;
  /** The contribution; absent when a caller or interface value was not supplied (B2: the requirement stays absent). */
  readonly state?: JsonValue;
}

export interface LeafEntry {
  /** The node's local id. */
  readonly node: string;
  /** Root-level: the local id; inside an instance: `/<instance>/…/<node>` (B4, Docket's decision 3). */
  readonly instancePath: string;
  /** The jpack.json decision id. */
  readonly pack: string;
  /** The pack document's own identity (A5). */
  readonly packId: string;
  readonly packVersion: string;
  readonly specVersion: string;
  readonly factFeeds: readonly FactFeed[];
  readonly evidenceFeeds: readonly EvidenceFeed[];
  readonly disposition: Disposition;
  /** The RFC 8785 bytes of `disposition`, as the evaluator serialized them. */
  readonly dispositionBytes: string;
  /** The pack's escalation target, verbatim, only for a requested handoff of a pack that declares one (A5). */
  readonly handoffTarget?: HandoffTarget;
  /** RFC 0008 work units this node used (ADR 0313). */
  readonly work: number;
  /** The §8.3 diagnostic trace, only when the run was asked for traces; never part of the output contract. */
  readonly trace?: EvaluationTrace;
}

export interface HandoffEntry {
  /** Format "1": the node id. */
  readonly node?: string;
  /** Format "0.2.0-draft": the originating instance path (B6). */
  readonly originatingNode?: string;
  readonly triggeredBy: readonly Reason[];
  /** The pack's configured target, verbatim, never rewritten; absent when it declares none (B6, 0022:252-254). */
  readonly target?: HandoffTarget;
}

export interface SubgraphEntry {
  readonly instancePath: string;
  /** The jpack.json `graphs` name. */
  readonly subgraph: string;
  readonly graphId: string;
  readonly graphVersion: string;
  readonly digest: string;
  /** The values bound to its interface keys. */
  readonly factFeeds: readonly FactFeed[];
  readonly evidenceFeeds: readonly EvidenceFeed[];
  /** Each declared output's complete §8.3 disposition (B6: kinds never flattened). */
  readonly outputs: Readonly<Record<string, Disposition>>;
}

export interface GraphEvaluation {
  readonly status: 'evaluated';
  readonly experimental: true;
  readonly formatVersion: FormatVersion;
  readonly graphId: string;
  readonly graphVersion: string;
  readonly graphDigest: string;
  readonly resultNode: string;
  /** 0.2.0-draft only: the result leaf, by instance path when it lies inside a subgraph (B6). */
  readonly headline?: { readonly node: string; readonly disposition: Disposition };
  readonly disposition: Disposition;
  readonly handoffTarget?: HandoffTarget;
  readonly handoffs: readonly HandoffEntry[];
  readonly nodes: readonly LeafEntry[];
  /** 0.2.0-draft only: every instance, parents before their children. */
  readonly subgraphs?: readonly SubgraphEntry[];
  /** One request budget covers the run (ADR 0313): the budget and the units used by all nodes. */
  readonly work: { readonly budget: number; readonly used: number };
}

export interface GraphRunRefused {
  readonly status: 'refused';
  readonly error: GraphRefusal;
  /**
   * RFC 0008 units the nodes used before the refusal, the refusing node's included; absent when no node ran (a load,
   * structure or inputs refusal). Not part of the output contract; a ledger entry records it (ADR 0360).
   */
  readonly workUsed?: number;
}

export type GraphRun = GraphEvaluation | GraphRunRefused;
