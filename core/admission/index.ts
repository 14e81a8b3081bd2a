/**
 * core/admission: reading a request and loading the pack it names, the decisions made before evaluation
 * (docs/pipeline.md "What becomes of a message"). One home used by the pipeline, which records the decisions, and by replay, which
 * re-runs them on retained bytes. Pure: bytes in, typed results out.
 */
export { readRequest, type EvaluationRequest, type RequestError } from './request.js';
export * from './request-format.js';
export { loadPackBytes, type LoadedPack, type PackLoad } from './pack-load.js';
export { refusalCodeOfRequestError } from './request-refusal.js';
export { readGraphRequest, isGraphRequest, GRAPH_REQUEST_FORMAT, type GraphRequest } from './graph-request.js';
export { readIntakeRequest, type IntakeRequest } from './intake.js';
export { decideGraph, type GraphDecision, type GraphRegistry, type LoadedGraph } from './admit-graph.js';
export { Lru } from './lru.js';
export {
  admit,
  REFUSAL_STEP,
  stepOrder,
  type Admission,
  type AdmissionDeployment,
  type AdmissionStep,
  type PackRegistry,
  type PackUnreadable,
} from './admit.js';
export { entryClosureDigest } from './graph-identity.js';
export { aliasUnreadableRefusal, packUnreadableRefusal } from './registry-unreadable.js';
