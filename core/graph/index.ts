/**
 * core/graph: judgment graphs — the reference runtime's flat format "1" (RFC 0002) and RFC 0022 live reusable
 * subgraphs (format "0.2.0-draft"), exactly as docs/graphs.md and graph-semantics.md describe. Pure: the caller
 * hands in the bytes of the graph, its subgraphs, packs and inputs; every node is evaluated by core/evaluate.
 */
export { evaluateGraph, evaluateCompiledGraph, type GraphEvaluationInput, type GraphRunInput } from './run.js';
export { compileGraph, type CompiledGraph, type GraphSource } from './compiled-graph.js';
export { validateGraph, type GraphValidation } from './validate.js';
export { loadGraph, type LoadRefusal } from './load.js';
export { bytesDigest } from './digest.js';
export { graphRunJson, graphValidationJson } from './output.js';
export { jsonText } from './json-text.js';
export type { GraphProject, SourceFile } from './project.js';
export type { GraphDiagnostic } from './diagnostic.js';
export { refusal, type GraphRefusal } from './refusal.js';
export type {
  EvidenceFeed,
  FactFeed,
  GraphEvaluation,
  GraphRun,
  HandoffEntry,
  LeafEntry,
  SubgraphEntry,
} from './graph-run.js';
export type { FormatVersion, GraphDocument } from './document.js';
export {
  GRAPH_LIMITS,
  type DiagnosticCode,
  type GraphExit,
  type ProjectCode,
  type RefusalCode,
  type RefusalLayer,
} from './codes.js';
