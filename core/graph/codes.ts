/**
 * The graph layer's refusal vocabulary (graph-semantics.md "Output contract"): every code a graph run or a
 * validation can answer and the layer it belongs to; the runtime's exit statuses (A1) are the GRAPH_ names of the
 * one exit table, core/exit-codes.ts.
 */
/** Where a refusal was decided (graph-semantics.md "Output contract"). */
export type RefusalLayer = 'load' | 'structure' | 'invocation' | 'node-read' | 'node';

/** Structural diagnostic codes, flat (A8) and RFC 0022 (B), plus the validate-only semantic ones (A8 `Semantic`). */
export type DiagnosticCode =
  | 'JPS-GRAPH-NODE-PACK'
  | 'JPS-GRAPH-EDGE-ENDPOINT'
  | 'JPS-GRAPH-EDGE-SELF'
  | 'JPS-GRAPH-EDGE-DUPLICATE-FACT'
  | 'JPS-GRAPH-FACT-POINTER-DEPTH'
  | 'JPS-GRAPH-EDGE-FACT-OVERLAP'
  | 'JPS-GRAPH-EDGE-DUPLICATE-EVIDENCE'
  | 'JPS-GRAPH-RESULT-NODE'
  | 'JPS-GRAPH-CYCLE'
  | 'JPS-GRAPH-RESERVED-NODE-ID'
  | 'JPS-GRAPH-CALLER-EDGE-IN-SUBGRAPH'
  | 'JPS-GRAPH-EDGE-OUTPUT'
  | 'JPS-GRAPH-INPUT-NODE'
  | 'JPS-GRAPH-OUTPUT-NODE'
  | 'JPS-GRAPH-SUBGRAPH-INPUT-UNDECLARED'
  | 'JPS-GRAPH-REFERENCE-UNKNOWN'
  | 'JPS-GRAPH-REFERENCE-CYCLE'
  | 'JPS-GRAPH-DEPTH-LIMIT'
  | 'JPS-GRAPH-REFERENCE-READ'
  | 'JPS-GRAPH-REFERENCE-DIGEST-MISMATCH'
  | 'JPS-GRAPH-REFERENCE-VERSION-MISMATCH'
  | 'JPS-GRAPH-NODE-BUDGET'
  | LoadCode
  | 'JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED'
  | 'JPS-GRAPH-NODE-PACK-READ';

/** A1 load refusals, in their check order. */
export type LoadCode = 'JPS-RESOURCE-GRAPH-BYTE-LIMIT' | 'JPS-GRAPH-JSON' | 'JPS-GRAPH-SCHEMA' | 'JPS-GRAPH-VERSION';

/** A10, A7 and B4 invocation refusals. */
export type InvocationCode =
  | 'JPS-RESOURCE-GRAPH-INPUTS-BYTE-LIMIT'
  | 'JPS-GRAPH-INPUTS-JSON'
  | 'JPS-RESOURCE-DEPTH'
  | 'JPS-RESOURCE-STRING-BYTES'
  | 'JPS-RESOURCE-NUMBER-BYTES'
  | 'JPS-RESOURCE-COLLECTION-SIZE'
  | 'JPS-GRAPH-INPUTS-SHAPE'
  | 'JPS-GRAPH-INPUTS-NODE'
  | 'JPS-GRAPH-INPUTS-SUBGRAPH-NODE'
  | 'JPS-GRAPH-INPUTS-MEMBER'
  | 'JPS-GRAPH-INPUTS-EVIDENCE'
  | 'JPS-GRAPH-FACT-CONFLICT'
  | 'JPS-GRAPH-EVIDENCE-CONFLICT'
  /** ADR 0313: a run's work budget outside 1..MAX_WORK_BUDGET. */
  | 'JPS-GRAPH-WORK-BUDGET';

/** The code of a refused run: the layer's own code (a structural refusal is JPS-GRAPH-INVALID, A8). */
export type RefusalCode =
  LoadCode | 'JPS-GRAPH-INVALID' | InvocationCode | ProjectCode | 'JPS-GRAPH-NODE-PACK-READ' | NodeErrorCode;

/**
 * Refusals of the command around the core (ADR 0314): the project configuration (jpack.json) is malformed or names
 * a path outside its directory (exit 3), or the configuration, graph or inputs file cannot be read (exit 4).
 */
export type ProjectCode = 'JPS-GRAPH-CONFIG' | 'JPS-GRAPH-CONFIG-READ' | 'JPS-GRAPH-READ' | 'JPS-GRAPH-INPUTS-READ';

/** A node refusal carries the evaluator's own stable code (docs/adr/0035-evaluation-error-codes.md). */
export type NodeErrorCode = string;

/** The runtime's limits (A1, A7, A10, B5): one place, cited by docs/graphs.md. */
export const GRAPH_LIMITS = Object.freeze({
  /** A1: a graph document's bytes. */
  graphBytes: 1_048_576,
  /** A10: the inputs document's bytes. */
  inputsBytes: 16_777_216,
  /** A7: tokens of one fed fact pointer. */
  pointerTokens: 64,
  /** B5: the deepest admitted subgraph (the root is depth 0). */
  depth: 8,
  /** B5: evaluated leaf pack instances across the whole expansion. */
  leafInstances: 256,
});
