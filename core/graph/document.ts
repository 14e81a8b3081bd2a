/**
 * A graph document as the loader hands it on: schema-valid (A1, B1) and typed. Shapes only; rules live in
 * structure.ts (A8, B2–B5) and run.ts (A2–A6, B6).
 */

export type FormatVersion = '1' | '0.2.0-draft';

export interface PackNode {
  readonly kind: 'pack';
  readonly id: string;
  /** The jpack.json `packs` key (A1). */
  readonly pack: string;
}

/** B3: a live reference pinned by the SHA-256 of the exact bytes loaded. */
export interface SubgraphNode {
  readonly kind: 'subgraph';
  readonly id: string;
  /** The jpack.json `graphs` key. */
  readonly subgraph: string;
  /** "sha256:<64 lowercase hex>". */
  readonly digest: string;
  readonly version: string | undefined;
}

export type GraphNode = PackNode | SubgraphNode;

export type OnUnresolved = 'unknown' | 'absent';

/**
 * One edge, normalised. `from` is a node id or "caller" (B2). For a node edge `fact` is the target pointer (or an
 * inputs.facts key of a subgraph target) and `evidence` the target requirement (or inputs.evidence key); a caller
 * edge also names the caller's pointer (`callerFact`) or the caller's evidence id (`callerEvidence`).
 */
export interface GraphEdge {
  readonly index: number;
  readonly from: string;
  readonly to: string;
  readonly output: string | undefined;
  readonly fact: string | undefined;
  readonly evidence: string | undefined;
  readonly onUnresolved: OnUnresolved;
  readonly callerFact: string | undefined;
  readonly callerEvidence: string | undefined;
  /** The member the target pointer came from, for diagnostic paths ("fact" or "input"). */
  readonly factMember: 'fact' | 'input';
}

export interface FactMapping {
  readonly key: string;
  readonly node: string;
  readonly pointer: string;
}
export interface EvidenceMapping {
  readonly key: string;
  readonly node: string;
  readonly requirementId: string;
}
export interface OutputDecl {
  readonly name: string;
  readonly node: string;
  readonly output: string | undefined;
}

export interface GraphDocument {
  readonly formatVersion: FormatVersion;
  readonly id: string;
  readonly version: string;
  /** In document order. */
  readonly nodes: ReadonlyMap<string, GraphNode>;
  readonly edges: readonly GraphEdge[];
  readonly result: string;
  /** B2 interface; empty for format "1". Keys in sorted order. */
  readonly inputFacts: readonly FactMapping[];
  readonly inputEvidence: readonly EvidenceMapping[];
  readonly outputs: ReadonlyMap<string, OutputDecl>;
  /** A1 step 7: "sha256:<hex>" of the exact bytes loaded. */
  readonly digest: string;
}

export const CALLER = 'caller';
