/**
 * core/graph: judgment graphs — the reference runtime's flat format "1" (RFC 0002) and RFC 0022 live reusable
 * subgraphs (format "0.2.0-draft"), exactly as docs/graphs.md and graph-semantics.md describe. Pure: the caller
 * hands in the bytes of the graph, its subgraphs, packs and inputs; every node is evaluated by core/evaluate.
 */
export { evaluateGraph, evaluateCompiledGraph } from './run.js';
export { compileGraph } from './compiled-graph.js';
export { validateGraph } from './validate.js';
export { loadGraph } from './load.js';
export { bytesDigest } from './digest.js';
export { graphRunJson, graphValidationJson } from './output.js';
export { jsonBytes, jsonText } from './json-text.js';
export type { GraphProject, SourceFile } from './project.js';
export { refusal, type GraphRefusal } from './refusal.js';
export type { GraphRun } from './graph-run.js';
